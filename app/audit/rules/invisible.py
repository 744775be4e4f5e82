"""Invisible characters in tool text, told apart from their ordinary typographic uses (TC501's first half).

Zero-width characters, Unicode tags, bidirectional controls and control characters hide text from a person
reading a pull request while a model still reads it. Some have legitimate jobs: joining emoji or letters, a
keycap, a soft hyphen inside a word, a leading byte-order mark, right-to-left marks in right-to-left text,
and the tag letters of emoji subdivision flags; those are not reported.
"""

from __future__ import annotations

import re

from app.audit.rules.excerpts import TAG_END, TAG_START, invisible
from app.audit.rules.poison_text import Offense

# Scripts written right to left use LRM/RLM/ALM and Arabic format characters legitimately.
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_RTL_FORMAT = frozenset({0x200E, 0x200F, 0x061C, 0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F})
_BIDI = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A))
_JOINERS = frozenset({0x200C, 0x200D})
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_BLACK_FLAG = 0x1F3F4  # emoji subdivision flags: U+1F3F4, tag letters, U+E007F cancel tag


def _legitimate(text: str, i: int, rtl: bool) -> bool:
    """An invisible character doing its ordinary job: joining emoji or letters, a keycap, a hyphenation point,
    a leading BOM, RTL marks in right-to-left text."""
    o = ord(text[i])
    back = i - 1
    if o in _JOINERS:  # an emoji's presentation selector may stand between it and the joiner (U+1F3F3 U+FE0F U+200D)
        while back >= 0 and 0xFE00 <= ord(text[back]) <= 0xFE0F:
            back -= 1
    before = text[back] if back >= 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if o == 0xFEFF and i == 0:
        return True
    if o in _RTL_FORMAT:
        return rtl
    if o == 0x00AD:  # a soft hyphen inside a word: a hyphenation point ("Donau\u00addampf")
        return before.isalpha() and after.isalpha()
    if 0xFE00 <= o <= 0xFE0F and after == "\u20e3":  # keycap emoji: 1 U+FE0F U+20E3
        return True
    if o in _JOINERS or 0xFE00 <= o <= 0xFE0F:
        return bool(before) and ord(before) > 0x7F and not invisible(before) and (
            o not in _JOINERS or (bool(after) and ord(after) > 0x7F))
    return False


def _kind(o: int) -> str:
    if TAG_START <= o <= TAG_END:
        return "Unicode tag characters"
    if o in _BIDI or o in _RTL_FORMAT:
        return "bidirectional controls"
    if o < 0x20 or 0x7F <= o <= 0x9F:
        return "control characters"
    return "zero-width or invisible characters"


def hidden_characters(text: str) -> list[Offense]:
    """Runs of invisible characters that are not doing an ordinary typographic job."""
    if text.isascii() and not _ASCII_CONTROL.search(text):
        return []
    out: list[Offense] = []
    rtl = bool(_RTL.search(text))
    i = 0
    while i < len(text):
        o = ord(text[i])
        if not invisible(text[i]) or _legitimate(text, i, rtl):
            i += 1
            continue
        j = i + 1
        while j < len(text) and invisible(text[j]) and _kind(ord(text[j])) == _kind(o):
            j += 1
        flag = TAG_START <= o <= TAG_END and i > 0 and ord(text[i - 1]) == _BLACK_FLAG and ord(text[j - 1]) == TAG_END
        if not flag:
            out.append(Offense(i, j, _kind(o)))
        i = j
    return out
