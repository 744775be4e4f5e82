"""The detectors: secret kinds, our own patterns (secret_patterns.yml), detect-secrets plugins, entropy.

The patterns are data (app/redaction/secret_patterns.yml), read once; detect-secrets' maintained provider
plugins add what they know; random-looking long tokens are caught by their entropy.
"""

from __future__ import annotations

import math
import re
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

import yaml

PATTERNS_FILE = Path(__file__).with_name("secret_patterns.yml")
MARKER_PREFIX = "[REDACTED:"
_FLAGS = {"dotall": re.DOTALL, "ignorecase": re.IGNORECASE}


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


def _load() -> tuple[tuple[tuple[SecretKind, re.Pattern[str]], ...], dict[str, SecretKind]]:
    data = yaml.safe_load(PATTERNS_FILE.read_text(encoding="utf-8"))
    patterns = []
    for item in data["patterns"]:
        flags = 0
        for name in item.get("flags", ()):
            flags |= _FLAGS[name]
        patterns.append((SecretKind(item["kind"]), re.compile(item["regex"], flags)))
    return tuple(patterns), {name: SecretKind(kind) for name, kind in data["detect_secrets"].items()}


PATTERNS, DETECT_SECRETS_KINDS = _load()

# A plugin's match shorter than this is a fragment (a short password) replaced only where it was found.
MIN_GLOBAL_REPLACE = 8

# Random-looking strings: a token of 20+ characters from the base64/hex alphabets whose Shannon entropy
# (detect-secrets' measure) is near the maximum its length allows. English words and identifiers repeat
# letters and stay well below; a fixed 4.5-bit limit (detect-secrets' default) misses random keys
# shorter than 23 characters, so the limit scales with the length.
TOKEN = re.compile(r"(?<![A-Za-z0-9+/_=.-])[A-Za-z0-9+/_-]{20,}={0,2}(?![A-Za-z0-9+/_=.-])")
_ENTROPY_SHARE = 0.8
_LETTERS_ENTROPY_SHARE = 0.87
_HEX_ENTROPY_SHARE = 0.75
_WORDY_VOWELS = 0.3


@cache
def plugins() -> tuple[tuple[SecretKind, Any], ...]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    out: list[tuple[SecretKind, Any]] = []
    cls: Any
    for cls in get_mapping_from_secret_type_to_class().values():
        kind = DETECT_SECRETS_KINDS.get(cls.__name__)
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


def random_looking(token: str) -> bool:
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
