"""Text helpers shared by the rules and the synthetic selector: tokens, stems, similarity measures; counts in words."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from functools import lru_cache

_WORD = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have having
    he her here hers herself him himself his how i if in into is it its itself just me more most my myself
    no nor not now of off on once only or other our ours ourselves out over own same she should so some such
    than that the their theirs them themselves then there these they this those through to too under until
    up very was we were what when where which while who whom why will with would you your yours yourself
    yourselves please also may might must shall let lets us get got want need like make using use used""".split()
)


_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def has_token(text: str, needle: str) -> bool:
    """`needle` occurs in `text` (both lower case) with no ASCII letter or digit on either side: what
    `(?<![a-z0-9])needle(?![a-z0-9])` finds, without compiling a pattern per needle (enums may have 100,000)."""
    if not needle:
        return False
    start = text.find(needle)
    while start >= 0:
        end = start + len(needle)
        if (start == 0 or text[start - 1] not in _TOKEN_CHARS) and (end == len(text) or text[end] not in _TOKEN_CHARS):
            return True
        start = text.find(needle, start + 1)
    return False


def split_identifier(name: str) -> list[str]:
    """`get_user.byID-v2` -> ['get', 'user', 'by', 'id', 'v', '2'] (lower case)."""
    parts: list[str] = []
    for chunk in re.split(r"[^A-Za-z0-9]+", name):
        parts.extend(m.group(0).lower() for m in _CAMEL.finditer(chunk))
    return [p for p in parts if p]


def words(text: str) -> list[str]:
    """Lower-case alphanumeric words, with camelCase and snake_case identifiers split."""
    return list(_words(text))


@lru_cache(maxsize=65_536)
def _words(text: str) -> tuple[str, ...]:
    """`words`, kept: a review reads the same descriptions and requests many times."""
    out: list[str] = []
    for m in _WORD.finditer(text):
        token = m.group(0)
        if any(c.isupper() for c in token[1:]) and not token.isupper():
            out.extend(split_identifier(token))
        else:
            out.append(token.lower())
    return tuple(out)


@lru_cache(maxsize=131_072)
def stem(word: str) -> str:
    """A light suffix stemmer (plural, -ing, -ed, -ly...): enough to match 'files'/'file', 'creating'/'create'."""
    w = word.lower()
    if len(w) <= 3 or w.isdigit():
        return w
    for suffix, repl in (
        ("ies", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("edly", ""),
        ("ed", ""),
        ("ly", ""),
        ("es", ""),
        ("s", ""),
    ):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                return w
            if suffix == "es" and not w.endswith(("shes", "ches", "xes", "sses", "zes")):
                return w[:-1]
            base = w[: -len(suffix)] + repl
            if suffix in ("ing", "ed") and len(base) > 3 and base[-1] == base[-2] and base[-1] not in "lsz":
                base = base[:-1]
            return base
    return w


def content_stems(text: str) -> list[str]:
    """Stems of the words of `text` that are not stopwords."""
    return [stem(w) for w in words(text) if w not in STOPWORDS]


def folded_stems(text: str) -> list[str]:
    """`content_stems` with a word's forms folded together (`match_stem`: "moved" and "move", "created" and
    "create")."""
    return [match_stem(w) for w in words(text) if w not in STOPWORDS]


def jaccard(a: Iterable[str], b: Iterable[str]) -> float:
    sa, sb = set(a), set(b)
    if not sa and not sb:
        return 0.0
    return len(sa & sb) / len(sa | sb)


def name_similarity(a: str, b: str) -> float:
    """Similarity of two tool names in [0, 1]: the larger of character ratio and identifier-token Jaccard."""
    na = "_".join(split_identifier(a))
    nb = "_".join(split_identifier(b))
    ratio = SequenceMatcher(None, na, nb, autojunk=False).ratio()
    return max(ratio, jaccard(split_identifier(a), split_identifier(b)))


def tfidf_vectors(documents: Sequence[Sequence[str]]) -> list[dict[str, float]]:
    """L2-normalised TF-IDF vectors (smoothed idf = ln((1+N)/(1+df)) + 1) of token lists."""
    n = len(documents)
    df: Counter[str] = Counter()
    for doc in documents:
        df.update(set(doc))
    vectors: list[dict[str, float]] = []
    for doc in documents:
        tf = Counter(doc)
        vec = {t: c * (math.log((1 + n) / (1 + df[t])) + 1.0) for t, c in tf.items()}
        norm = math.sqrt(sum(v * v for v in vec.values()))
        vectors.append({t: v / norm for t, v in vec.items()} if norm else {})
    return vectors


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    """Cosine of two L2-normalised sparse vectors."""
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(t, 0.0) for t, v in a.items())


@lru_cache(maxsize=131_072)
def match_stem(word: str) -> str:
    """`stem`, then the ending letters that vary between a word's forms folded: movie/movies, create/created."""
    s = stem(word)
    if len(s) > 3:
        if s.endswith("ie"):
            s = s[:-1]
        elif s.endswith("y"):
            s = s[:-1] + "i"
        elif s.endswith("e"):
            s = s[:-1]
    return s


def counted(n: int, thing: str) -> str:
    """'1 case regression', '2 case regressions': counts in messages people read, never 'regression(s)'."""
    return f"{n} {thing}{'' if n == 1 else 's'}"


# Length from which a word is taken for a misspelling of another: two adjacent letters swapped (TRANSPOSED:
# "reposiotry"), or one letter wrong, missing or doubled (MISTYPED: "repositry"), the first letter kept.
TRANSPOSED = 6
MISTYPED = 7


def deletions(term: str) -> set[str]:
    """`term` with each one of its letters left out."""
    return {term[:i] + term[i + 1 :] for i in range(len(term))}


def one_typo(a: str, b: str) -> bool:
    """True when `a` and `b` differ by one typo: two adjacent letters swapped (both at least TRANSPOSED long), or
    one letter replaced, left out or added (the longer at least MISTYPED long); the first letter must agree."""
    if a == b or a[:1] != b[:1]:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]:
            return len(a) >= TRANSPOSED
        return len(diff) == 1 and len(a) >= MISTYPED
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return len(long) - len(short) == 1 and len(long) >= MISTYPED and short in deletions(long)
