"""The last pass at every exit: `scrub` for text about to leave the process, and redaction of log records.

Reports are redacted field by field first (`redact.redact_result`, which knows which fields hold our own
hashes); `scrub` then passes over the finished text of any output, so that nothing a renderer, an error
message or a log line adds can carry a secret out. Our own random-looking values (content hashes, commit
SHAs, SARIF fingerprints, report links) are named in `keep` and left as they are; everything else that a
detector finds is replaced by its `[REDACTED:<kind>]` marker.
"""

from __future__ import annotations

import logging
import re
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
    wanted = {k for k in keep if k and len(k) >= _MIN_KEEP}
    runs = _Runs.of(wanted, text)
    kept = sorted({k for k in wanted if k in text} if runs is None else runs.kept(), key=len, reverse=True)
    holds = [_HOLD.format(chr(_PRIVATE_USE + i)) for i in range(len(kept))]
    if runs is None:
        for value, hold in zip(kept, holds, strict=True):
            text = text.replace(value, hold)
    else:
        text = runs.hold(text, kept, holds)
    text = redact_string(text, known)
    if runs is None:
        for value, hold in zip(kept, holds, strict=True):
            text = text.replace(hold, value)
    else:
        value_of = dict(zip(holds, kept, strict=True))
        text = _HELD.sub(lambda m: value_of.get(m.group(0), m.group(0)), text)
    return text


# A placeholder as `_HOLD` writes it: what the restoring pass looks for.
_HELD = re.compile("\x00[^\x00]\x00")


class _Runs:
    """The kept values found and held in one pass over the text, not one pass per value (a 1,000-tool report in
    JSON is 10 MB with 3,000 content hashes to keep: the passes took minutes).

    A kept value lies inside a maximal run of the characters kept values are made of, so each run is held on its
    own, replacing in it, longest first, the kept values it contains, as the passes over the whole text would;
    a run that is itself a kept value becomes its placeholder. Used only when the text has no NUL and no kept
    value a NUL or a placeholder's character (then no placeholder can meet or join another): else `of` gives
    None and the passes over the whole text are made."""

    def __init__(self, wanted: set[str], text: str, pattern: re.Pattern[str]) -> None:
        self._wanted = wanted
        self._text = text
        self._pattern = pattern
        self._found = {m.group(0) for m in pattern.finditer(text) if len(m.group(0)) >= _MIN_KEEP}

    @classmethod
    def of(cls, wanted: set[str], text: str) -> _Runs | None:
        if not wanted or "\x00" in text:
            return None
        alphabet = set().union(*map(set, wanted))
        if "\x00" in alphabet or any(ord(c) >= _PRIVATE_USE for c in alphabet):
            return None
        return cls(wanted, text, re.compile("[" + "".join(re.escape(c) for c in sorted(alphabet)) + "]+"))

    def kept(self) -> set[str]:
        """The kept values in the text: a whole run, else found by searching the text."""
        return {k for k in self._wanted if k in self._found or k in self._text}

    def hold(self, text: str, kept: list[str], holds: list[str]) -> str:
        hold_of = dict(zip(kept, holds, strict=True))
        by_prefix: dict[str, list[int]] = {}
        for at, value in enumerate(kept):
            by_prefix.setdefault(value[:_MIN_KEEP], []).append(at)

        def held(m: re.Match[str]) -> str:
            run = m.group(0)
            if len(run) < _MIN_KEEP:
                return run
            if run in hold_of:  # no longer kept value fits in it, and no other one of its length
                return hold_of[run]
            starts = {run[i : i + _MIN_KEEP] for i in range(len(run) - _MIN_KEEP + 1)}
            order = sorted(at for start in starts for at in by_prefix.get(start, ()))
            for at in order:  # longest first, as `kept` is
                if kept[at] in run:
                    run = run.replace(kept[at], holds[at])
            return run

        return self._pattern.sub(held, text)


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
