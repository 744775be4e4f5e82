"""How an offending span of tool text is shown in a finding, safely: a person must see what a model reads.

`show()` renders text for a person: invisible characters become `<U+200B>`, Unicode tag runs show the ASCII they
hide, long whitespace runs become `<120 spaces>`, line breaks `⏎`, and long key-like tokens are masked so an
excerpt never carries a secret (truncating one could slip past the redactor). `excerpt()` is a span with a
little context each side.
"""

from __future__ import annotations

import re
import unicodedata

# Excerpt budget: characters of context each side of a span, and of the span itself.
CONTEXT_CHARS = 40
SPAN_CHARS = 90
# A run of key-like characters this long, with letters and digits, is masked in excerpts.
_TOKEN = re.compile(r"[A-Za-z0-9+/=_.~-]{20,}")
_WHITESPACE_RUN = re.compile(r"[^\S\n]{4,}|\n(?:[^\S\n]*\n){2,}")

TAG_START, TAG_END = 0xE0000, 0xE007F


def _codepoint(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def _visible_char_run(run: str) -> str:
    first = run[0]
    if TAG_START <= ord(first) <= TAG_END:
        hidden = "".join(chr(ord(c) - TAG_START) for c in run if 0x20 <= ord(c) - TAG_START < 0x7F)
        return f'<{len(run)} tag characters "{_clip(hidden, 60)}">' if hidden else f"<{_codepoint(first)}>"
    if len(run) > 2 and len(set(run)) == 1:
        return f"<{_codepoint(first)} ×{len(run)}>"
    return "".join(f"<{_codepoint(c)}>" for c in run)


def invisible(ch: str) -> bool:
    """A character a person does not see: format and control characters (but tab and line breaks), line and
    paragraph separators, variation selectors, Hangul and Khmer fillers, the blank Braille pattern."""
    if ch in "\t\n\r":
        return False
    cat = unicodedata.category(ch)
    o = ord(ch)
    return cat in ("Cf", "Cc", "Zl", "Zp") or 0xFE00 <= o <= 0xFE0F or 0xE0100 <= o <= 0xE01EF or o in (
        0x115F, 0x1160, 0x3164, 0xFFA0, 0x034F, 0x180E, 0x17B4, 0x17B5, 0x2800)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _mask(match: re.Match[str]) -> str:
    token = match.group(0)
    has_digit = any(c.isdigit() for c in token)
    mixed = any(c.isupper() for c in token) and any(c.islower() for c in token)
    if has_digit and (mixed or len(token) >= 32):
        return f"<{len(token)}-character token>"
    return token


def show(text: str, *, limit: int = SPAN_CHARS) -> str:
    """`text` for a person: invisible characters named, whitespace runs counted, tokens masked, clipped."""
    out: list[str] = []
    i = 0
    plain: list[str] = []

    def flush() -> None:
        if plain:
            out.append(_TOKEN.sub(_mask, "".join(plain)))
            plain.clear()

    while i < len(text):
        ch = text[i]
        if invisible(ch):
            j = i + 1
            tag = TAG_START <= ord(ch) <= TAG_END
            while j < len(text) and invisible(text[j]) and (TAG_START <= ord(text[j]) <= TAG_END) == tag:
                j += 1
            flush()
            out.append(_visible_char_run(text[i:j]))
            i = j
            continue
        ws = _WHITESPACE_RUN.match(text, i)
        if ws:
            flush()
            run = ws.group(0)
            breaks = run.count("\n")
            out.append(f"<{breaks} line breaks>" if breaks >= 3 else f"<{len(run)} spaces>")
            i = ws.end()
            continue
        plain.append("⏎" if ch == "\n" else " " if ch in "\t\r" else ch)
        i += 1
    flush()
    return _clip("".join(out), limit)


def excerpt(text: str, start: int, end: int) -> str:
    """The span `text[start:end]` with a little context each side, shown safely.

    The context is widened to whole words before it is shown, so a key next to the span is masked whole
    rather than cut in two with its first half quoted; only then is it clipped to CONTEXT_CHARS.
    """
    left_at = max(0, start - CONTEXT_CHARS)
    while left_at > 0 and not text[left_at - 1].isspace():
        left_at -= 1
    right_at = min(len(text), end + CONTEXT_CHARS)
    while right_at < len(text) and not text[right_at].isspace():
        right_at += 1
    left = show(text[left_at:start], limit=len(text))
    right = show(text[end:right_at], limit=len(text))
    if len(left) > CONTEXT_CHARS:
        left, left_at = left[-CONTEXT_CHARS:].split(" ", 1)[-1], left_at + 1
    if len(right) > CONTEXT_CHARS:
        right, right_at = right[:CONTEXT_CHARS].rsplit(" ", 1)[0], right_at - 1
    before = "…" if left_at > 0 else ""
    after = "…" if right_at < len(text) else ""
    return f"{before}{left}{show(text[start:end])}{right}{after}"
