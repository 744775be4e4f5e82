"""Redaction of secrets (provider keys, tokens, private keys, URL passwords, random strings) in text and reports."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any, overload

from app.audit.models import AuditReport, Case, Comparison, ToolSet

MARKER_PREFIX = "[REDACTED:"
# Keys whose string values are our own hashes or commit SHAs, never user text: kept as they are.
HASH_KEYS = frozenset({"suite_hash", "rules_hash", "profile_hash", "base_ref", "head_ref", "hash"})
# Maps from a tool name to its hashes: the names are redacted, the hash values kept.
HASH_MAPS = frozenset({"tool_hashes", "tool_field_hashes"})
# Below this length no detector here can match (the shortest patterns are ~16 characters of key).
MIN_SCAN_LENGTH = 8


class SecretKind(StrEnum):
    PRIVATE_KEY = "private-key"
    URL_PASSWORD = "url-password"
    AWS_ACCESS_KEY = "aws-access-key"
    AWS_SECRET_KEY = "aws-secret-key"
    GITHUB_TOKEN = "github-token"
    GITLAB_TOKEN = "gitlab-token"
    OPENAI_KEY = "openai-key"
    ANTHROPIC_KEY = "anthropic-key"
    SLACK_TOKEN = "slack-token"
    SLACK_WEBHOOK = "slack-webhook"
    STRIPE_KEY = "stripe-key"
    GOOGLE_API_KEY = "google-api-key"
    JWT = "jwt"
    TWILIO_KEY = "twilio-key"
    SENDGRID_KEY = "sendgrid-key"
    MAILCHIMP_KEY = "mailchimp-key"
    NPM_TOKEN = "npm-token"
    PYPI_TOKEN = "pypi-token"
    DISCORD_TOKEN = "discord-token"
    TELEGRAM_TOKEN = "telegram-token"
    AZURE_STORAGE_KEY = "azure-storage-key"
    SQUARE_SECRET = "square-secret"
    ARTIFACTORY_TOKEN = "artifactory-token"
    IBM_CREDENTIALS = "ibm-credentials"
    SOFTLAYER_KEY = "softlayer-key"
    CLOUDANT_CREDENTIALS = "cloudant-credentials"
    HUGGINGFACE_TOKEN = "huggingface-token"
    DATABRICKS_TOKEN = "databricks-token"
    SHOPIFY_TOKEN = "shopify-token"
    BEARER_TOKEN = "bearer-token"
    PASSWORD = "password"
    HIGH_ENTROPY = "high-entropy-string"


def marker(kind: SecretKind) -> str:
    return f"{MARKER_PREFIX}{kind.value}]"


# Our own patterns, for what detect-secrets leaves out or matches only in part (it finds a private key's
# header line, not the key; an OpenAI key only in the legacy T3BlbkFJ form). Order matters: blocks first.
_PATTERNS: tuple[tuple[SecretKind, re.Pattern[str]], ...] = (
    (
        SecretKind.PRIVATE_KEY,
        re.compile(
            r"-----BEGIN[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----(?:.*?-----END[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----"
            r"|[A-Za-z0-9+/=\s\\n:,-]*)",
            re.DOTALL,
        ),
    ),
    (SecretKind.URL_PASSWORD, re.compile(r"(?<=[a-zA-Z0-9+.-]://)[^\s/:@'\"<>]+:[^\s/@'\"<>]+(?=@)")),
    (SecretKind.SLACK_WEBHOOK, re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9_/]+")),
    (SecretKind.ANTHROPIC_KEY, re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    (SecretKind.OPENAI_KEY, re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
    (SecretKind.GITHUB_TOKEN, re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})")),
    (SecretKind.GITLAB_TOKEN, re.compile(r"\bgl(?:pat|dt|rt|cbt|ptt|ft|imt|agent)-[A-Za-z0-9_-]{20,}")),
    (SecretKind.AWS_ACCESS_KEY, re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b")),
    (
        SecretKind.AWS_SECRET_KEY,
        re.compile(r"(?i)aws_secret_access_key[\"']?\s*[:=]\s*[\"']?(?P<s>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"),
    ),
    (SecretKind.SLACK_TOKEN, re.compile(r"\bxox[abposre]-[A-Za-z0-9-]{10,}")),
    (SecretKind.STRIPE_KEY, re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    (SecretKind.GOOGLE_API_KEY, re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    (SecretKind.JWT, re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    (SecretKind.SENDGRID_KEY, re.compile(r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}")),
    (SecretKind.NPM_TOKEN, re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    (SecretKind.PYPI_TOKEN, re.compile(r"\bpypi-AgE[A-Za-z0-9_-]{50,}")),
    (SecretKind.HUGGINGFACE_TOKEN, re.compile(r"\bhf_[A-Za-z0-9]{30,}")),
    (SecretKind.DATABRICKS_TOKEN, re.compile(r"\bdapi[a-f0-9]{32}(?:-\d)?\b")),
    (SecretKind.SHOPIFY_TOKEN, re.compile(r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b")),
    (SecretKind.BEARER_TOKEN, re.compile(r"(?i)(?<=\bbearer )[A-Za-z0-9._~+/=-]{16,}")),
    (
        SecretKind.PASSWORD,
        re.compile(
            r"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|"
            r"client[_-]?secret)[\"']?\s*[:=]\s*[\"']?(?P<s>(?=[^\s\"'<>]*[0-9!@#$%^&*])[^\s\"'<>]{6,})"
        ),
    ),
)

_DETECT_SECRETS_KINDS = {
    "ArtifactoryDetector": SecretKind.ARTIFACTORY_TOKEN,
    "AWSKeyDetector": SecretKind.AWS_ACCESS_KEY,
    "AzureStorageKeyDetector": SecretKind.AZURE_STORAGE_KEY,
    "BasicAuthDetector": SecretKind.URL_PASSWORD,
    "CloudantDetector": SecretKind.CLOUDANT_CREDENTIALS,
    "DiscordBotTokenDetector": SecretKind.DISCORD_TOKEN,
    "GitHubTokenDetector": SecretKind.GITHUB_TOKEN,
    "GitLabTokenDetector": SecretKind.GITLAB_TOKEN,
    "IbmCloudIamDetector": SecretKind.IBM_CREDENTIALS,
    "IbmCosHmacDetector": SecretKind.IBM_CREDENTIALS,
    "JwtTokenDetector": SecretKind.JWT,
    "MailchimpDetector": SecretKind.MAILCHIMP_KEY,
    "NpmDetector": SecretKind.NPM_TOKEN,
    "OpenAIDetector": SecretKind.OPENAI_KEY,
    "PrivateKeyDetector": SecretKind.PRIVATE_KEY,
    "PypiTokenDetector": SecretKind.PYPI_TOKEN,
    "SendGridDetector": SecretKind.SENDGRID_KEY,
    "SlackDetector": SecretKind.SLACK_TOKEN,
    "SoftlayerDetector": SecretKind.SOFTLAYER_KEY,
    "SquareOAuthDetector": SecretKind.SQUARE_SECRET,
    "StripeDetector": SecretKind.STRIPE_KEY,
    "TelegramBotTokenDetector": SecretKind.TELEGRAM_TOKEN,
    "TwilioKeyDetector": SecretKind.TWILIO_KEY,
}
# A plugin's match shorter than this is a fragment (a short password) replaced only where it was found.
_MIN_GLOBAL_REPLACE = 8

# Random-looking strings: a token of 20+ characters from the base64/hex alphabets whose Shannon entropy
# (detect-secrets' measure) is near the maximum its length allows. English words and identifiers repeat
# letters and stay well below; a fixed 4.5-bit limit (detect-secrets' default) misses random keys
# shorter than 23 characters, so the limit scales with the length.
_TOKEN = re.compile(r"(?<![A-Za-z0-9+/_=.-])[A-Za-z0-9+/_-]{20,}={0,2}(?![A-Za-z0-9+/_=.-])")
_ENTROPY_SHARE = 0.8
_LETTERS_ENTROPY_SHARE = 0.87
_HEX_ENTROPY_SHARE = 0.75
_WORDY_VOWELS = 0.3


@cache
def _plugins() -> tuple[tuple[SecretKind, Any], ...]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    out: list[tuple[SecretKind, Any]] = []
    cls: Any
    for cls in get_mapping_from_secret_type_to_class().values():
        kind = _DETECT_SECRETS_KINDS.get(cls.__name__)
        if kind is not None:
            out.append((kind, cls()))
    return tuple(sorted(out, key=lambda pair: type(pair[1]).__name__))


@cache
def _entropy_plugins() -> tuple[Any, Any]:
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString, HexHighEntropyString

    return Base64HighEntropyString(), HexHighEntropyString()


def _wordy(token: str, digits: int) -> bool:
    """Identifiers: few digits, and snake_case parts or vowels (about 40% of letters; 19% in random base64)."""
    letters = [c for c in token if c.isalpha()]
    if digits >= 3:
        return False
    return "_" in token or sum(c in "aeiouAEIOU" for c in letters) >= _WORDY_VOWELS * max(1, len(letters))


def _random_looking(token: str) -> bool:
    core = token.rstrip("=").strip("-_/+")
    if len(core) < 20:
        return False
    b64, hexp = _entropy_plugins()
    digits = sum(c.isdigit() for c in core)
    if digits == len(core):
        return False
    if all(c in "0123456789abcdefABCDEF" for c in core):
        return digits > 0 and hexp.calculate_shannon_entropy(core) >= _HEX_ENTROPY_SHARE * math.log2(16)
    if not (any(c.isupper() for c in core) and any(c.islower() for c in core)):
        return False
    if _wordy(core, digits):
        return False
    share = b64.calculate_shannon_entropy(core) / math.log2(min(len(core), 64))
    # Without digits or base64 symbols a token may be a long CamelCase word: it must look more random.
    return share >= (_ENTROPY_SHARE if digits or "+" in core or "/" in core else _LETTERS_ENTROPY_SHARE)


# Every detect-secrets plugin we use needs a run of 16+ key characters, a URL's "://" or a key header.
_MAYBE_SECRET = re.compile(r"[A-Za-z0-9+/=_.:-]{16,}|://|PRIVATE KEY")


def find_secrets(text: str) -> Iterator[tuple[SecretKind, str]]:
    """Every (kind, value) a detector finds in `text`, ours first, then detect-secrets', then entropy."""
    yield from _found(text)


@lru_cache(maxsize=65_536)
def _found(text: str) -> tuple[tuple[SecretKind, str], ...]:
    out: list[tuple[SecretKind, str]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            out.append((kind, match.group("s" if "s" in pattern.groupindex else 0)))
    if not _MAYBE_SECRET.search(text):
        return tuple(out)
    for kind, plugin in _plugins():
        out.extend((kind, value) for value in plugin.analyze_string(text) if value)
    out.extend((SecretKind.HIGH_ENTROPY, m.group(0)) for m in _TOKEN.finditer(text) if _random_looking(m.group(0)))
    return tuple(out)


def _replacer(kind: SecretKind, pattern: re.Pattern[str]) -> Callable[[re.Match[str]], str]:
    """Replace the whole match, or only its group `s` when the pattern has one (the context stays)."""
    if "s" not in pattern.groupindex:
        return lambda _m: marker(kind)

    def sub(m: re.Match[str]) -> str:
        start, end = m.span("s")
        whole = m.group(0)
        return whole[: start - m.start()] + marker(kind) + whole[end - m.start() :]

    return sub


@lru_cache(maxsize=65_536)
def redact_text(text: str) -> str:
    """`text` with every detected secret replaced by `[REDACTED:<kind>]`. Idempotent."""
    if len(text) < MIN_SCAN_LENGTH:
        return text
    for kind, pattern in _PATTERNS:
        text = pattern.sub(_replacer(kind, pattern), text)
    if not _MAYBE_SECRET.search(text):
        return text
    for kind, plugin in _plugins():
        for value in set(plugin.analyze_string(text)):
            if len(value) >= _MIN_GLOBAL_REPLACE:
                text = text.replace(value, marker(kind))
    return _TOKEN.sub(lambda m: marker(SecretKind.HIGH_ENTROPY) if _random_looking(m.group(0)) else m.group(0), text)


def collect_secrets(
    value: Any, found: dict[str, SecretKind] | None = None, *, key: str | None = None
) -> dict[str, SecretKind]:
    """Every secret value found in the strings of a JSON-like value (a URL's password also on its own), so
    that the same value is redacted where it stands without the context that gave it away."""
    found = {} if found is None else found
    if isinstance(value, str):
        if key not in HASH_KEYS and len(value) >= MIN_SCAN_LENGTH:
            for kind, secret in find_secrets(value):
                if len(secret) >= _MIN_GLOBAL_REPLACE:
                    found.setdefault(secret, kind)
                if kind == SecretKind.URL_PASSWORD and ":" in secret:
                    password = secret.split(":", 1)[1]
                    if len(password) >= _MIN_GLOBAL_REPLACE:
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


def _redact_string(text: str, known: dict[str, SecretKind]) -> str:
    text = redact_text(text)
    folded = text.casefold()
    for secret in sorted(known, key=len, reverse=True):
        # Case-insensitive: generated intents may capitalise a value that opened a description.
        if secret.casefold() in folded:
            text = re.compile(re.escape(secret), re.IGNORECASE).sub(_constant(marker(known[secret])), text)
            folded = text.casefold()
    return text


def redact_value(value: Any, *, key: str | None = None, known: dict[str, SecretKind] | None = None) -> Any:
    """A JSON-like value with every string (and mapping key) redacted, our hash fields left alone. Secrets
    found anywhere in `value` are also replaced wherever else they appear."""
    if known is None:
        known = collect_secrets(value, key=key)
    if isinstance(value, str):
        return value if key in HASH_KEYS else _redact_string(value, known)
    if isinstance(value, dict):
        if key in HASH_MAPS:
            return {_redact_string(k, known): _keep_hashes(v, known) for k, v in value.items()}
        return {
            (_redact_string(k, known) if isinstance(k, str) else k): redact_value(v, key=k, known=known)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact_value(v, known=known) for v in value]
    return value


def _keep_hashes(value: Any, known: dict[str, SecretKind]) -> Any:
    if isinstance(value, dict):
        return {_redact_string(k, known): v for k, v in value.items()}
    return value


@overload
def redact_result(result: AuditReport) -> AuditReport: ...
@overload
def redact_result(result: Comparison) -> Comparison: ...
@overload
def redact_result(result: AuditReport | Comparison) -> AuditReport | Comparison: ...
def redact_result(result: AuditReport | Comparison) -> AuditReport | Comparison:
    """A copy of an audit or comparison with every string of it redacted: done before storing or rendering."""
    data = redact_value(result.model_dump(mode="json", by_alias=True))
    return type(result).model_validate(data)


def redact_toolset(toolset: ToolSet) -> ToolSet:
    return ToolSet.model_validate(redact_value(toolset.model_dump(mode="json", by_alias=True)))


def redact_cases(cases: Sequence[Case]) -> list[Case]:
    """All cases at once, so that a secret found in one case is also redacted where another shows it bare."""
    return [Case.model_validate(c) for c in redact_value([c.model_dump(mode="json") for c in cases])]
