"""The identifiers ToolChoice computes in this process (content hashes, fingerprints), so redaction never masks them.

Every hash ToolChoice makes (suite, profile, rules, tool and field hashes through `models.sha256_of`, SARIF
fingerprints, sampled-case keys) is passed through `remember`. A random-looking token in an output is a
secret unless it is made of remembered identifiers: `strip_own` removes from a token every run of 20 or more
characters that a remembered identifier starts with (the whole identifier or a prefix of it), and redaction
judges only what is left. Someone else's secret cannot become one of ours: we only remember what we computed.
The memory is bounded (the oldest identifiers are forgotten first); an output is rendered right after the
identifiers it shows are computed, and reports read back from storage name theirs in `scrub(keep=...)`.
"""

from __future__ import annotations

# Redaction's entropy test starts at 20 characters: shorter runs are never masked, so never looked up.
MIN_RUN = 20
# About 20 MB at most; a 1,000-tool review makes about 15,000.
MAX_REMEMBERED = 100_000

_by_start: dict[str, list[str]] = {}
_order: list[str] = []


def remember(value: str) -> str:
    """`value`, remembered as ours; returned so a hash can be remembered where it is made."""
    if len(value) < MIN_RUN:
        return value
    start = value[:MIN_RUN]
    known = _by_start.setdefault(start, [])
    if value not in known:
        known.append(value)
        _order.append(value)
        if len(_order) > MAX_REMEMBERED:
            _forget(_order[: MAX_REMEMBERED // 10])
            del _order[: MAX_REMEMBERED // 10]
    return value


def _forget(values: list[str]) -> None:
    for value in values:
        known = _by_start.get(value[:MIN_RUN])
        if known is not None and value in known:
            known.remove(value)
            if not known:
                del _by_start[value[:MIN_RUN]]


def strip_own(token: str) -> str:
    """`token` without the runs (20+ characters) that begin one of our identifiers: what is left to judge."""
    if len(token) < MIN_RUN or not _by_start:
        return token
    out: list[str] = []
    at = 0
    while at <= len(token) - MIN_RUN:
        longest = 0
        for value in _by_start.get(token[at : at + MIN_RUN], ()):
            same = MIN_RUN
            while same < len(value) and at + same < len(token) and token[at + same] == value[same]:
                same += 1
            longest = max(longest, same)
        if longest:
            at += longest
            continue
        out.append(token[at])
        at += 1
    out.append(token[at:])
    return "".join(out)


def is_own(value: str) -> bool:
    """Whether `value` is made only of our identifiers (nothing of 8 or more characters is left)."""
    return len(value) >= MIN_RUN and len(strip_own(value)) < 8
