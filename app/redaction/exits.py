"""The last pass at every exit: `scrub` for text about to leave the process, and redaction of log records.

Reports are redacted field by field first (`redact.redact_result`, which knows which fields hold our own
hashes); `scrub` then passes over the finished text of any output, so that nothing a renderer, an error
message or a log line adds can carry a secret out. Our own random-looking values (content hashes, commit
SHAs, SARIF fingerprints, report links) are named in `keep` and left as they are; everything else that a
detector finds is replaced by its `[REDACTED:<kind>]` marker.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from app.redaction.patterns import SecretKind
from app.redaction.redact import HASH_KEYS, HASH_MAPS, collect_secrets, plain, redact_string

# Placeholders for kept values while the detectors run: private-use characters between NULs, which no
# detector's alphabet contains, so a placeholder can neither match nor join a neighbouring match.
_HOLD = "\x00{}\x00"
_PRIVATE_USE = 0xE000
# Shorter values cannot look random enough to be redacted; keeping them would only cost time.
_MIN_KEEP = 8


def scrub(text: str, *, keep: Iterable[str] = (), inputs: Iterable[Any] = ()) -> str:
    """`text` with every detected secret masked, the values in `keep` left exactly as they were. Secrets
    found in `inputs` (what the output was made from) are masked too where `text` shows them bare."""
    known: dict[str, SecretKind] = {}
    for value in inputs:
        collect_secrets(plain(value), known)
    kept = sorted({k for k in keep if k and len(k) >= _MIN_KEEP and k in text}, key=len, reverse=True)
    holds = [_HOLD.format(chr(_PRIVATE_USE + i)) for i in range(len(kept))]
    for value, hold in zip(kept, holds, strict=True):
        text = text.replace(value, hold)
    text = redact_string(text, known)
    for value, hold in zip(kept, holds, strict=True):
        text = text.replace(hold, value)
    return text


def own_values(data: Any, *, key: str | None = None) -> set[str]:
    """Our own hashes in a JSON-like value (the fields `redact_value` leaves alone), to keep in `scrub`."""
    out: set[str] = set()
    if isinstance(data, str):
        if key in HASH_KEYS:
            out.add(data)
    elif isinstance(data, dict):
        for k, v in data.items():
            if key in HASH_MAPS:
                out |= _hash_values(v)
            else:
                out |= own_values(v, key=k if isinstance(k, str) else None)
    elif isinstance(data, list | tuple):
        for v in data:
            out |= own_values(v)
    return out


def _hash_values(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {v for v in value.values() if isinstance(v, str)}
    return set()


class _RedactingRecordFactory:
    """Builds log records whose message, traceback and stack text are already redacted, so that every
    handler (files, the console, uvicorn's, a test's) only ever sees redacted text."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __call__(self, *args: Any, **kwargs: Any) -> logging.LogRecord:
        record: logging.LogRecord = self.inner(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a malformed format string: let the handler report it as logging does
            return record
        record.msg, record.args = scrub(message), ()
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = scrub(logging.Formatter().formatException(record.exc_info))
        if record.stack_info:
            record.stack_info = scrub(record.stack_info)
        return record


def install_log_redaction() -> None:
    """Redact every log record of this process from now on (idempotent; called by each entry point)."""
    current = logging.getLogRecordFactory()
    if not isinstance(current, _RedactingRecordFactory):
        logging.setLogRecordFactory(_RedactingRecordFactory(current))
