"""Encoded text inside a description: base64, hex, percent-encoding and escape sequences that decode to
readable text. Decoding is string arithmetic done only to show a person what the blob says; nothing found
is ever executed, fetched, imported or decoded further.

A model reads base64 of English as easily as English, while a person reviewing a pull request sees noise:
that asymmetry is the attack. Random bytes (hashes, image data, compressed payloads) do not decode to
readable text, so ids, digests and `data:image/png;base64,…` icons are not reported.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from urllib.parse import unquote

# Candidate runs; the minimum lengths come from the rule's options.
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Fa-f])|(?:\\x[0-9A-Fa-f]{2}){4,}")
_PERCENT = re.compile(r"(?:[A-Za-z0-9._~+-]*%[0-9A-Fa-f]{2}){6,}[A-Za-z0-9._~+-]*")
_UNICODE_ESCAPE = re.compile(r"(?:\\u[0-9A-Fa-f]{4}){4,}")


@dataclass(frozen=True)
class Payload:
    """An encoded run in a string: where it is, how it is encoded, and what it reads as."""

    start: int
    end: int
    encoding: str
    decoded: str


def readable(text: str, *, min_words: int) -> bool:
    """Mostly printable characters, mostly letters and spaces, and at least `min_words` words."""
    if not text:
        return False
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in text) / len(text)
    letters = sum(ch.isalpha() or ch == " " for ch in text) / len(text)
    return printable >= 0.95 and letters >= 0.7 and len(re.findall(r"[A-Za-z]{2,}", text)) >= min_words


def _utf8(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _base64(run: str) -> str | None:
    body = run.rstrip("=")
    padded = body + "=" * (-len(body) % 4)
    alphabet = b"-_" if ("-" in body or "_" in body) else None
    try:
        raw = base64.b64decode(padded, altchars=alphabet, validate=True)
    except (binascii.Error, ValueError):
        return None
    return _utf8(raw)


def _hex(run: str) -> str | None:
    digits = run.replace("\\x", "")
    try:
        return _utf8(bytes.fromhex(digits))
    except ValueError:
        return None


def _unicode_escape(run: str) -> str | None:
    return "".join(chr(int(run[i + 2 : i + 6], 16)) for i in range(0, len(run), 6))


def payloads(text: str, *, min_base64: int, min_hex: int, min_words: int) -> list[Payload]:
    """Encoded runs of `text` that decode to readable text, in order of position."""
    found: list[Payload] = []
    for match in _BASE64.finditer(text):
        run = match.group(0)
        if len(run) < min_base64 or not any(c.isdigit() or c.isupper() for c in run) or run.isalpha():
            continue
        decoded = _base64(run)
        if decoded and readable(decoded, min_words=min_words):
            found.append(Payload(match.start(), match.end(), "base64", decoded))
    for pattern, encoding, decode, minimum in (
        (_HEX, "hex", _hex, min_hex),
        (_PERCENT, "percent-encoding", unquote, min_hex),
        (_UNICODE_ESCAPE, "\\u escapes", _unicode_escape, min_hex),
    ):
        for match in pattern.finditer(text):
            if len(match.group(0)) < minimum:
                continue
            decoded = decode(match.group(0))
            if decoded and readable(decoded, min_words=min_words):
                found.append(Payload(match.start(), match.end(), encoding, decoded))
    return sorted(found, key=lambda p: (p.start, p.end))
