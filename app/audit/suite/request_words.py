"""What a request's wording says before any tool set reads it, for the validator: its example values, the
frames' filler words and cue phrases, the request's own verbs, and the kind of action it asks for."""

from __future__ import annotations

import re
from functools import cache

from app.audit.suite.frames import frame_data
from app.audit.suite.word_forms import base_verb, verb_classes
from app.audit.text import folded_stems, words

# Where a request's own verb stands: first, or after "Could you", "someone has to", "someone can".
_VERB_AT = re.compile(r"^\W*(\w+)|\b(?:you|to|can) (\w+)", re.IGNORECASE)
VALUE = re.compile(r"\"[^\"]*\"|#\d+|\S*[/@]\S*|\b[A-Z]+-\d+\b|\bv?\d[\d.:-]*\b")


@cache
def filler_words() -> frozenset[str]:
    return frozenset(folded_stems(frame_data()["filler"]))


@cache
def _cues() -> dict[str, re.Pattern[str]]:
    """Each kind's cue phrases as one pattern: it finds a phrase where any one phrase's own pattern would."""
    phrases = frame_data()["cues"].items()
    return {kind: re.compile(rf"\b(?:{'|'.join(map(re.escape, ps))})\b") for kind, ps in phrases if ps}


def asked_kind(text: str) -> str | None:
    """The kind of action a request asks for, when its wording says so."""
    lowered = text.lower()
    for kind, cue in _cues().items():
        if cue.search(lowered):
            return kind
    for word in words(lowered)[:6]:
        if word in verb_classes() and base_verb(word) and verb_classes()[word] != "other":
            return verb_classes()[word]
    return None


def given_words(text: str) -> frozenset[str]:
    """Stems of the (up to two) words right before each example value: the parameters the request fills."""
    out: set[str] = set()
    for match in VALUE.finditer(text):
        out.update(folded_stems(" ".join(text[: match.start()].split()[-2:])))
    return frozenset(out)


def frame_free_verbs(text: str) -> frozenset[str]:
    """Stems of the request's own verbs when no frame phrase is in it ("Show the commit", not "Show me ...")."""
    lowered = text.lower()
    if any(cue.search(lowered) for cue in _cues().values()):
        return frozenset()
    found = (m.group(1) or m.group(2) for m in _VERB_AT.finditer(text))
    return frozenset(t for w in found for t in folded_stems(w))
