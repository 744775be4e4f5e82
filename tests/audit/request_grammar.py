"""A reader of generated requests that finds article and agreement errors, independent of the code that wrote them.

It reads the finished sentence the way a proofreader does, with lemminflect for the number of a noun and the case's
own argument values masked out (a value such as "invoices" names a thing; it is not the noun's number). It finds:

- `article`: "a"/"an" against the sound of the next word ("an unified", "a hour"), by a spelling rule of its own;
- `singular determiner`: "a", "an", "each", "every", "one", "another" before a plural head ("a notifications");
- `plural determiner`: "these", "those", "several", "many", "multiple", "two" ... before a singular head;
- `there is/are`: "Is there any issues", "Are there any code";
- `subject and verb`: the subject's head and "is"/"are", "needs"/"need", "has"/"have", "was"/"were"
  ("The notifications is out of date").

A reader of English by rules misses what it has no rule for; it is a floor on the errors, kept at zero by
tests/audit/test_request_grammar.py, and checked to find each kind in sentences written wrong on purpose.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from lemminflect import getAllLemmas, getInflection

VALUE = "VALUE"
# Words that end a noun phrase's head when they follow it.
_BOUNDARY = (
    r"(?:in|of|for|to|on|from|with|at|by|named|called|titled|saying|that|which|who|about|matching|up|and|or|as"
    r"|is|are|was|were|has|have|needs|need|still|since|between|into|onto|within|without|via|across|under|over)"
)
# Words inside a noun phrase before its head that are not themselves the head.
_NOT_HEAD = {"the", "a", "an", "my", "our", "your", "its", "their", "all", "any", "some", "no", "every", "each"}
_SINGULAR_DETERMINERS = {"a", "an", "each", "every", "one", "another"}
_PLURAL_DETERMINERS = {"these", "those", "several", "many", "multiple", "two", "three", "four", "five", "both"}
_SINGULAR_VERBS = {"is": "are", "needs": "need", "has": "have", "was": "were"}
_PLURAL_VERBS = {v: k for k, v in _SINGULAR_VERBS.items()}
# Words spoken with a vowel sound though written with a consonant, and the other way round.
_SILENT_H = re.compile(r"^(?:hour|honest|honou?r|heir)", re.I)
_YOU_OR_WON = re.compile(r"^(?:uni(?!nst|ndent)|use|usu|uti|ura|eu|ewe|one\b|once|u[bcfhjkqrst][aeiou])", re.I)
# Letters whose names open with a vowel sound: "an F", "an SQL", "an HTTP" (said letter by letter).
_VOWEL_LETTERS = set("AEFHILMNORSX")


# Said either way: "an SQL query" (letters) or "a SQL query" ("sequel").
_EITHER = {"SQL"}


def _vowel_sound(word: str, article: str) -> bool:
    """Whether a word is said with a vowel sound first, by rules of its own (not app/audit/suite/articles.py)."""
    if word.upper() in _EITHER:
        return (word[0].upper() in _VOWEL_LETTERS) if article == "an" else False
    letters = word.isupper() and (len(word) <= 3 or not re.search(r"[AEIOU]", word[1:]))
    if letters or (len(word) == 1 and word.isalpha()):
        return word[0].upper() in _VOWEL_LETTERS
    return bool(_SILENT_H.match(word)) or (word[0].lower() in "aeiou" and not _YOU_OR_WON.match(word))


@dataclass(frozen=True)
class Error:
    """One error: its kind, and the words it is about."""

    kind: str
    words: str


def masked(text: str, values: Iterable[str]) -> str:
    """The request with each value (longest first) written as VALUE, and quoted text as VALUE."""
    for value in sorted({v for v in values if v.strip()}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w/.-]){re.escape(value)}(?![\w/-])", VALUE, text)
    return re.sub(r'"[^"]*"', VALUE, text)


@cache
def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    return getAllLemmas(word.lower())


def plural(word: str) -> bool:
    """A noun only in its plural form ('notifications', 'files'); not 'news', 'series' or a word that is both."""
    lowered = word.lower()
    lemma = _lemmas(lowered).get("NOUN")
    if not lemma or lemma[0] == lowered:
        return False
    return lowered in getInflection(lemma[0], "NNS")


def singular(word: str) -> bool:
    """A countable noun in its singular form ('file', 'issue'), not one without a plural ('code', 'data')."""
    lowered = word.lower()
    lemma = _lemmas(lowered).get("NOUN")
    if not lemma or lemma[0] != lowered:
        return False
    forms = getInflection(lowered, "NNS")
    return bool(forms) and forms[0] != lowered


def uncountable(word: str) -> bool:
    lowered = word.lower()
    return _lemmas(lowered).get("NOUN", ("",))[0] == lowered and getInflection(lowered, "NNS")[:1] in ((lowered,), ())


def _head(phrase: str) -> str | None:
    """The last word of a noun phrase before its first boundary word or value: 'current MCP roots' -> 'roots'."""
    words: list[str] = []
    for word in phrase.split():
        if re.search(r"['’]s?$", word) and words:
            words = []  # "the project PROJ's epics": the head is what comes after the owner
            continue
        bare = word.strip(",.?!:;")
        if re.fullmatch(_BOUNDARY, bare.lower()) or bare == VALUE or not re.fullmatch(r"[A-Za-z][\w-]*", bare):
            break
        words.append(bare)
        if bare != word:
            break
    words = [w for w in words if w.lower() not in _NOT_HEAD]
    return words[-1] if words else None


def errors(text: str, values: Iterable[str] = ()) -> list[Error]:
    """The article and agreement errors of one request; `values` are the example values it may hold."""
    text = masked(text, values)
    found: list[Error] = []
    for m in re.finditer(r"\b([Aa]n?) ([\w-]+)", text):
        article, word = m.group(1).lower(), m.group(2)
        if word == VALUE or word[0].isdigit():
            continue
        vowel = _vowel_sound(word, article)
        if (article == "an") != vowel:
            found.append(Error("article", m.group(0)))
    tokens = text.split()
    for i, token in enumerate(tokens):
        det = token.lower()
        if det not in _SINGULAR_DETERMINERS | _PLURAL_DETERMINERS or tokens[i + 1 : i + 2] in ([], [VALUE]):
            continue
        head = _head(" ".join(tokens[i + 1 : i + 6]))
        if head is None:
            continue
        if det in _SINGULAR_DETERMINERS and plural(head) and not singular(head):
            found.append(Error("singular determiner", f"{token} ... {head}"))
        if det in _PLURAL_DETERMINERS and singular(head) and not plural(head):
            found.append(Error("plural determiner", f"{token} ... {head}"))
    if m := re.search(r"\b(Is|Are|is|are) there any ([^.?!]*)", text):
        head = _head(m.group(2))
        if head is not None:
            many = m.group(1).lower() == "are"
            if (many and uncountable(head)) or (not many and plural(head)) or (many and singular(head)):
                found.append(Error("there is/are", f"{m.group(1)} there any ... {head}"))
    verb = re.search(r"\b(is|are|needs|need|has|have|was|were)\b", text)
    if (opening := re.match(r"^The (.*)", text)) and verb:
        head = _head(opening.group(1))
        said = verb.group(1)
        many = _joined(opening.group(1))  # "the distance and time": two things, counted as many
        if head is not None and said in _SINGULAR_VERBS and (many or (plural(head) and not singular(head))):
            found.append(Error("subject and verb", f"{head} ... {said}"))
        if head is not None and said in _PLURAL_VERBS and not many and singular(head) and not plural(head):
            found.append(Error("subject and verb", f"{head} ... {said}"))
    return found


def _joined(phrase: str) -> bool:
    """Whether a noun phrase joins two things with "and" ("the route and fare"), not two qualities of one ("the
    quick and cheap route"): the word before "and" is a noun, and a noun follows before the next boundary word."""
    words = [w.strip(",.?!:;") for w in phrase.split()]
    if "and" not in words:
        return False
    at = words.index("and")
    before = [w for w in words[:at] if not re.fullmatch(_BOUNDARY, w.lower())]
    known = _lemmas(before[-1].lower()) if before else {}
    if len(before) != at or "NOUN" not in known or "ADJ" in known:
        return False
    after = words[at + 1 : at + 4]
    return bool(after) and _head(" ".join(after)) is not None
