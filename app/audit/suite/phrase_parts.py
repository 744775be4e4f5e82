"""What the request wording modules share: a worded request (`Phrased`), whether a head names a thing
(`is_thing`) and whether a verb-looking word is part of one (`names_a_thing`), the names a description capitalises
(`as_written`), and the words after a noun that do not make it a modifier (`NOT_NOUNS`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from types import MappingProxyType

from app.audit.models import Phrasing
from app.audit.suite.lexicon import WORDS
from app.audit.suite.word_forms import (
    lemmas,
    singular,
)

# Words after a noun that do not make it a modifier of the next: 'the user is a member of' names the user.
NOT_NOUNS = WORDS.phrase_prepositions | WORDS.copulas | {"and", "or", "has", "have"}
SLOT = re.compile(r"\{(\w+)\}")
CAMEL = re.compile(r"[a-z][A-Z]")
MAX_WORDS = 30


@dataclass(frozen=True)
class Phrased:
    """One request and the family it belongs to."""

    text: str
    phrasing: Phrasing


def ends_with(head: str, noun: str) -> bool:
    """Whether the head names the ref's thing: 'sub issue' and 'Jira issue' end in 'issue' (a ref without a noun
    is the head's own)."""
    if not noun:
        return True
    return bool(head.split()) and singular(head.split()[-1].lower()) == singular(noun.split()[-1].lower())


def after_noun(head: str, noun: str) -> str:
    """The rest of a head that opens with the ref's noun ('pull request branch' -> 'branch'), or ''."""
    words, lead = head.split(), noun.lower().split()
    opens = len(words) > len(lead) and [w.lower() for w in words[: len(lead)]] == lead
    return " ".join(words[len(lead) :]) if opens else ""




@cache
def is_thing(head: str) -> bool:
    """Whether a head ends on a word a frame can say 'the ...' of: 'Helm release' or 'commit' yes,
    'simulated', 'so' or 'Reprioritize' no. Words lemminflect does not know ('PipelineRun', 'kcp') count as
    names of things, unless they end like a verb ('-ize')."""
    words = head.split()
    if not words:
        return False
    last = words[-1].lower()
    known = lemmas(last)
    if last in WORDS.not_things:
        return False
    if "NOUN" in known or last.endswith("ing"):
        return True
    # Verbs stay ('commit', 'deploy' name things here); adjectives, adverbs and participles do not.
    if known:
        return "VERB" in known and not last.endswith("ed")
    # 'Unresolve', 'Reprioritize': a verb with a prefix or a verb's ending, not a thing.
    prefixed = last[:2] in WORDS.verb_prefixes and "VERB" in lemmas(last[2:])
    return not prefixed and not last.endswith(("ize", "ise", "ify"))


def names_a_thing(words: list[str], i: int) -> bool:
    """'pull request', 'merge request', 'feature request': the verb-looking word is part of a noun."""
    after, before = words[i + 1 : i + 2], words[i - 1 : i] if i else []
    return (words[i] in ("pull", "merge") and after[:1] and after[0].startswith("request")) or (
        words[i] == "request" and before[:1] in (["pull"], ["merge"], ["feature"])
    )


# Descriptions whose capitalised names are kept: one per tool text, read for every request family and rival.
_DESCRIPTIONS = 16_384


@lru_cache(maxsize=_DESCRIPTIONS)
def as_written(text: str) -> Mapping[str, str]:
    """Names a text capitalises where a sentence does not start ('Tekton', 'PipelineRun', 'Copilot', not the
    'Summary' of 'Summary API'), by their lower case; kept per description, read-only."""
    found: dict[str, str] = {}
    for sentence in re.split(r"[.!?:\n]+", text):
        for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", sentence)[1:]:
            if not word.islower() and not lemmas(word.lower()):
                found.setdefault(word.lower(), word)
    return MappingProxyType(found)
