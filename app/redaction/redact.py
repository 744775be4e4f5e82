"""Redaction of secrets (provider keys, tokens, private keys, URL passwords, random strings) in text and reports."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any, overload

from app.audit.identifiers import is_own, strip_own
from app.audit.models import Case, ToolSet
from app.audit.results import AuditReport, Comparison
from app.redaction.patterns import (
    MIN_GLOBAL_REPLACE,
    PATTERNS,
    TOKEN,
    SecretKind,
    marker,
    plugins,
    random_looking,
)

# Keys whose string values are our own hashes or commit SHAs, never user text: kept as they are.
HASH_KEYS = frozenset({"suite_hash", "rules_hash", "profile_hash", "base_ref", "head_ref", "hash"})
# Maps from a tool name to its hashes: the names are redacted, the hash values kept.
HASH_MAPS = frozenset({"tool_hashes", "tool_field_hashes"})
# Below this length no detector here can match (the shortest patterns are ~16 characters of key).
MIN_SCAN_LENGTH = 8


# Every detect-secrets plugin we use needs a run of 16+ key characters, a URL's "://" or a key header.
_MAYBE_SECRET = re.compile(r"[A-Za-z0-9+/=_.:-]{16,}|://|PRIVATE KEY")


def find_secrets(text: str) -> Iterator[tuple[SecretKind, str]]:
    """Every (kind, value) a detector finds in `text`, ours first, then detect-secrets', then entropy; never
    one of ToolChoice's own identifiers (app/audit/identifiers.py)."""
    yield from _secrets(text)


def _secrets(text: str) -> list[tuple[SecretKind, str]]:
    return [(kind, value) for kind, value in _found(text) if not _ours(kind, value)]


def _ours(kind: SecretKind, value: str) -> bool:
    """A found value that is one of our identifiers, or (for the entropy test) random only where it is ours."""
    if kind is SecretKind.HIGH_ENTROPY:
        return not random_looking(strip_own(value))
    return is_own(value)


@lru_cache(maxsize=65_536)
def _found(text: str) -> tuple[tuple[SecretKind, str], ...]:
    out: list[tuple[SecretKind, str]] = []
    for kind, pattern in PATTERNS:
        for match in pattern.finditer(text):
            out.append((kind, match.group("s" if "s" in pattern.groupindex else 0)))
    if not _MAYBE_SECRET.search(text):
        return tuple(out)
    for kind, plugin in plugins():
        out.extend((kind, value) for value in plugin.analyze_string(text) if value)
    out.extend((SecretKind.HIGH_ENTROPY, m.group(0)) for m in TOKEN.finditer(text) if random_looking(m.group(0)))
    return tuple(out)


def _replacer(kind: SecretKind, pattern: re.Pattern[str]) -> Callable[[re.Match[str]], str]:
    """Replace the whole match, or only its group `s` when the pattern has one (the context stays)."""
    if "s" not in pattern.groupindex:
        return lambda m: m.group(0) if is_own(m.group(0)) else marker(kind)

    def sub(m: re.Match[str]) -> str:
        start, end = m.span("s")
        whole = m.group(0)
        if is_own(m.group("s")):
            return whole
        return whole[: start - m.start()] + marker(kind) + whole[end - m.start() :]

    return sub


def redact_text(text: str) -> str:
    """`text` with every detected secret replaced by `[REDACTED:<kind>]`, our own identifiers left. Idempotent."""
    if len(text) < MIN_SCAN_LENGTH or not _secrets(text):
        return text  # nothing found by the same detectors: nothing to replace (most texts, scanned once)
    for kind, pattern in PATTERNS:
        text = pattern.sub(_replacer(kind, pattern), text)
    if not _MAYBE_SECRET.search(text):
        return text
    for kind, plugin in plugins():
        for value in set(plugin.analyze_string(text)):
            if len(value) >= MIN_GLOBAL_REPLACE and not is_own(value):
                text = text.replace(value, marker(kind))
    return TOKEN.sub(_entropy_marker, text)


def _entropy_marker(m: re.Match[str]) -> str:
    token = m.group(0)
    return marker(SecretKind.HIGH_ENTROPY) if random_looking(strip_own(token)) else token


def collect_secrets(
    value: Any, found: dict[str, SecretKind] | None = None, *, key: str | None = None
) -> dict[str, SecretKind]:
    """Every secret value found in the strings of a JSON-like value (a URL's password also on its own), so
    that the same value is redacted where it stands without the context that gave it away."""
    found = {} if found is None else found
    if isinstance(value, str):
        if key not in HASH_KEYS and len(value) >= MIN_SCAN_LENGTH:
            for kind, secret in find_secrets(value):
                if len(secret) >= MIN_GLOBAL_REPLACE:
                    found.setdefault(secret, kind)
                if kind == SecretKind.URL_PASSWORD and ":" in secret:
                    password = secret.split(":", 1)[1]
                    if len(password) >= MIN_GLOBAL_REPLACE:
                        found.setdefault(password, kind)
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                collect_secrets(k, found)
            if key not in HASH_MAPS:
                collect_secrets(v, found, key=k if isinstance(k, str) else None)
    elif isinstance(value, list | tuple):
        for v in value:
            collect_secrets(v, found)
    return found


def _constant(value: str) -> Callable[[re.Match[str]], str]:
    """A replacement function: unlike a replacement string, backslashes in `value` are taken literally."""
    return lambda _m: value


def redact_string(text: str, known: dict[str, SecretKind]) -> str:
    """`text` redacted, and every secret of `known` (found elsewhere) masked where it stands bare."""
    return _mask_known(redact_text(text), _longest_first(known))


def _longest_first(known: dict[str, SecretKind]) -> list[tuple[str, str, SecretKind]]:
    """The secrets of `known` as (casefolded, as found, kind), longest first: a secret that holds another is
    masked before the one it holds."""
    return [(secret.casefold(), secret, known[secret]) for secret in sorted(known, key=len, reverse=True)]


def _mask_known(text: str, ordered: list[tuple[str, str, SecretKind]]) -> str:
    if not ordered:
        return text
    folded = text.casefold()
    for folded_secret, secret, kind in ordered:
        # Case-insensitive: generated intents may capitalise a value that opened a description.
        if folded_secret in folded:
            text = re.compile(re.escape(secret), re.IGNORECASE).sub(_constant(marker(kind)), text)
            folded = text.casefold()
    return text


def redact_value(value: Any, *, key: str | None = None, known: dict[str, SecretKind] | None = None) -> Any:
    """A JSON-like value with every string (and mapping key) redacted, our hash fields left alone. Secrets
    found anywhere in `value` are also replaced wherever else they appear."""
    if known is None:
        known = collect_secrets(value, key=key)
    return _redacted(value, key, _longest_first(known))


def _redacted(value: Any, key: str | None, ordered: list[tuple[str, str, SecretKind]]) -> Any:
    if isinstance(value, str):
        return value if key in HASH_KEYS else _mask_known(redact_text(value), ordered)
    if isinstance(value, dict):
        if key in HASH_MAPS:
            return {_mask_known(redact_text(k), ordered): _keep_hashes(v, ordered) for k, v in value.items()}
        return {
            (_mask_known(redact_text(k), ordered) if isinstance(k, str) else k): _redacted(
                v, k if isinstance(k, str) else None, ordered
            )
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_redacted(v, None, ordered) for v in value]
    return value


def _keep_hashes(value: Any, ordered: list[tuple[str, str, SecretKind]]) -> Any:
    if isinstance(value, dict):
        return {_mask_known(redact_text(k), ordered): v for k, v in value.items()}
    return value


@overload
def redact_result(result: AuditReport, *, inputs: Sequence[Any] = ()) -> AuditReport: ...
@overload
def redact_result(result: Comparison, *, inputs: Sequence[Any] = ()) -> Comparison: ...
@overload
def redact_result(result: AuditReport | Comparison, *, inputs: Sequence[Any] = ()) -> AuditReport | Comparison: ...
def redact_result(result: AuditReport | Comparison, *, inputs: Sequence[Any] = ()) -> AuditReport | Comparison:
    """A copy of an audit or comparison with every string of it redacted: done before storing or rendering.
    `inputs` (tool sets, cases) are searched for secrets too: a value the report shows bare (an example
    argument in a generated request) is found by the context it had in the input ("postgres://user:pw@…")."""
    data = result.model_dump(mode="json", by_alias=True)
    known = collect_secrets(data)
    for value in inputs:
        collect_secrets(plain(value), known)
    if not known and not _holds_secret(data):
        return result.model_copy()  # redact_value would give `data` back unchanged: no copy to rebuild
    return type(result).model_validate(redact_value(data, known=known))


def _holds_secret(value: Any, *, key: str | None = None) -> bool:
    """Whether redact_value would change a string of `value` on its own (without secrets found elsewhere):
    every string and mapping key it redacts, scanned by the same detectors (their answers are kept)."""
    if isinstance(value, str):
        return key not in HASH_KEYS and len(value) >= MIN_SCAN_LENGTH and bool(_secrets(value))
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str) and _holds_secret(k):
                return True
            if key in HASH_MAPS:
                if isinstance(v, dict) and any(_holds_secret(inner) for inner in v if isinstance(inner, str)):
                    return True
            elif _holds_secret(v, key=k if isinstance(k, str) else None):
                return True
        return False
    if isinstance(value, list | tuple):
        return any(_holds_secret(v) for v in value)
    return False


def plain(value: Any) -> Any:
    """Models (a ToolSet, a Case) as JSON-like data; anything else as it is."""
    return value.model_dump(mode="json", by_alias=True) if hasattr(value, "model_dump") else value


def redact_toolset(toolset: ToolSet) -> ToolSet:
    return ToolSet.model_validate(redact_value(toolset.model_dump(mode="json", by_alias=True)))


def redact_cases(cases: Sequence[Case]) -> list[Case]:
    """All cases at once, so that a secret found in one case is also redacted where another shows it bare."""
    return [Case.model_validate(c) for c in redact_value([c.model_dump(mode="json") for c in cases])]
