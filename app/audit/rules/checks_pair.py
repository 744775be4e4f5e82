"""Checks on pairs of tools: names a model can confuse, descriptions that say the same thing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any

from app.audit.models import Tool
from app.audit.rules.registry import RATIO, Anchor, Failure, SetOutcome, Target, register
from app.audit.text import content_stems, jaccard, name_similarity, split_identifier, stem, tfidf_vectors

# Leading syllables that turn a word into its opposite: `install`/`uninstall` are opposites, not look-alikes.
NEGATIONS = ("un", "dis", "non", "de")


def _differing(
    a: tuple[str, ...], b: tuple[str, ...], sa: tuple[str, ...], sb: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Token lists `a`, `b` without the leading and trailing tokens they share (by their stems `sa`, `sb`)."""
    k = 0
    while k < len(a) and k < len(b) and sa[k] == sb[k]:
        k += 1
    m = 0
    while m < len(a) - k and m < len(b) - k and sa[-1 - m] == sb[-1 - m]:
        m += 1
    return a[k : len(a) - m], b[k : len(b) - m]


def _opposites(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    x, y = "_".join(a), "_".join(b)
    return any(x == n + y or y == n + x for n in NEGATIONS)


def name_pair_similarity(
    a: tuple[str, ...], b: tuple[str, ...], threshold: float = 0.0, *, stems: tuple[tuple[str, ...], ...] = ()
) -> float | None:
    """Similarity of two token lists where they differ; None when they cannot be near-duplicates.

    Names equal up to stemming (`get_issue`/`get_issues`) score on the whole names. Otherwise shared
    leading and trailing tokens are dropped and text.name_similarity compares the rest, so a shared
    namespace or object (`create_pull_request`/`get_pull_request` -> `create`/`get`) does not count.
    Names where one only adds words (`search`/`search_code`) and opposites (`star`/`unstar`) give None,
    and so do pairs whose upper bounds show they cannot reach `threshold`.
    """
    sa, sb = stems if stems else (_stems(a), _stems(b))
    ra, rb = _differing(a, b, sa, sb)
    if not ra and not rb:
        ra, rb = a, b
    elif not ra or not rb:
        return None
    return _remainder_similarity(ra, rb, threshold)


@lru_cache(maxsize=65536)
def _remainder_similarity(ra: tuple[str, ...], rb: tuple[str, ...], threshold: float) -> float | None:
    """name_similarity of the remainders, skipped (None) for opposites or when it cannot reach `threshold`.

    Cached: in a large set the same remainders (`create`/`update`) recur across many pairs.
    """
    if _opposites(ra, rb):
        return None
    x, y = "_".join(ra), "_".join(rb)
    if threshold > 0:
        # Upper bounds of both parts of name_similarity: SequenceMatcher's ratio and the token Jaccard.
        matcher = SequenceMatcher(None, x, y, autojunk=False)
        ratio_low = matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold
        if ratio_low and jaccard(ra, rb) < threshold:
            return None
    return name_similarity(x, y)


@lru_cache(maxsize=65536)
def _stems(tokens: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(stem(t) for t in tokens)


@register(
    "similar_names",
    Target.TOOL_PAIR,
    options={"threshold": RATIO},
    required=("threshold",),
    details=("similarity",),
)
def similar_names(tools: Sequence[Tool], options: Mapping[str, Any]) -> SetOutcome:
    """Pairs whose name_pair_similarity reaches `threshold`. All tools are applicable.

    Most pairs share neither their first nor their last token; their remainders are the whole names, and
    one SequenceMatcher per tool (its name as the cached second sequence) bounds them cheaply.
    """
    threshold = options["threshold"]
    tokens = [tuple(split_identifier(t.name)) for t in tools]
    stems = [_stems(t) for t in tokens]
    joined = ["_".join(t) for t in tokens]
    token_sets = [frozenset(t) for t in tokens]
    matcher = SequenceMatcher(None, autojunk=False)
    failures: list[Failure] = []
    for j in range(len(tools)):
        matcher.set_seq2(joined[j])
        for i in range(j):
            a, b = tokens[i], tokens[j]
            if a and b and stems[i][0] != stems[j][0] and stems[i][-1] != stems[j][-1]:
                matcher.set_seq1(joined[i])
                close = matcher.real_quick_ratio() >= threshold and matcher.quick_ratio() >= threshold
                union = len(token_sets[i] | token_sets[j])
                if not close and (not union or len(token_sets[i] & token_sets[j]) / union < threshold):
                    continue
                score: float | None = None if _opposites(a, b) else name_similarity(joined[i], joined[j])
            else:
                score = name_pair_similarity(a, b, threshold, stems=(stems[i], stems[j]))
            if score is not None and score >= threshold:
                failures.append(Failure(i, j, {"similarity": f"{score:.2f}"}, Anchor.NAME))
    return SetOutcome(frozenset(range(len(tools))), failures)


@register(
    "overlapping_descriptions",
    Target.TOOL_PAIR,
    options={"threshold": RATIO},
    required=("threshold",),
    details=("similarity",),
)
def overlapping_descriptions(tools: Sequence[Tool], options: Mapping[str, Any]) -> SetOutcome:
    """Cosine of TF-IDF vectors of the descriptions' content stems, idf taken over this tool set.

    Only pairs sharing a term are scored (an inverted index), so the cost follows shared vocabulary, not n².
    Tools without a description are not applicable.
    """
    threshold = options["threshold"]
    described = [i for i, t in enumerate(tools) if (t.description or "").strip()]
    vectors = tfidf_vectors([content_stems(tools[i].description or "") for i in described])
    postings: dict[str, list[tuple[int, float]]] = {}
    failures: list[Failure] = []
    for a, vec in enumerate(vectors):
        dots: dict[int, float] = {}
        for term, weight in vec.items():
            bucket = postings.setdefault(term, [])
            for b, other in bucket:
                dots[b] = dots.get(b, 0.0) + weight * other
            bucket.append((a, weight))
        for b, dot in sorted(dots.items()):
            if dot >= threshold - 1e-9:
                failures.append(Failure(described[b], described[a], {"similarity": f"{min(dot, 1.0):.2f}"},
                                        Anchor.DESCRIPTION))
    return SetOutcome(frozenset(described), failures)
