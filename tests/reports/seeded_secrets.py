"""A seeded set of fake secrets of many kinds (generated here, never real), and tool definitions carrying them."""

from __future__ import annotations

import base64
import json
import random
import string
from typing import Any, NamedTuple

ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"


class Seeded(NamedTuple):
    kind: str  # the marker kind we expect (redact.SecretKind value)
    secret: str  # the secret itself
    text: str  # how it appears in a description or an example
    probe: str  # a distinctive piece of the secret that must appear nowhere after redaction


def _r(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def seeded_secrets(seed: int = 7) -> list[Seeded]:
    rng = random.Random(seed)
    out: list[Seeded] = []

    def add(kind: str, secret: str, template: str = "{s}", probe: str | None = None) -> None:
        core = probe or secret[len(secret) // 3 : len(secret) // 3 + 14]
        out.append(Seeded(kind, secret, template.format(s=secret), core))

    add("aws-access-key", "AKIA" + _r(rng, UPPER_DIGITS, 16), "Use key id {s} for S3.")
    add("aws-secret-key", _r(rng, B64, 40), "aws_secret_access_key = {s}")
    add("github-token", "ghp_" + _r(rng, ALNUM, 36), "Authenticate with the token {s} when listing repos.")
    add("github-token", "gho_" + _r(rng, ALNUM, 36), "OAuth token: {s}")
    add("github-token", "ghs_" + _r(rng, ALNUM, 36))
    add("github-token", "github_pat_" + _r(rng, ALNUM, 22) + "_" + _r(rng, ALNUM, 59), "e.g. '{s}'")
    add("openai-key", "sk-" + _r(rng, ALNUM, 20) + "T3BlbkFJ" + _r(rng, ALNUM, 20), "OPENAI_API_KEY={s}")
    add("openai-key", "sk-proj-" + _r(rng, ALNUM + "-_", 64), "Pass {s} as the key.")
    add("anthropic-key", "sk-ant-api03-" + _r(rng, ALNUM + "-_", 80) + "AA", "x-api-key: {s}")
    add(
        "slack-token",
        "xoxb-" + _r(rng, string.digits, 12) + "-" + _r(rng, string.digits, 13) + "-" + _r(rng, ALNUM, 24),
    )
    add("slack-token", "xoxp-" + _r(rng, string.digits, 11) + "-" + _r(rng, string.digits, 12) + "-" + _r(rng, HEX, 32))
    add(
        "slack-webhook",
        "https://hooks.slack.com/services/T"
        + _r(rng, UPPER_DIGITS, 8)
        + "/B"
        + _r(rng, UPPER_DIGITS, 10)
        + "/"
        + _r(rng, ALNUM, 24),
        "Posts to {s}",
        probe=None,
    )
    add("stripe-key", "sk_live_" + _r(rng, ALNUM, 24), "Charge with {s}")
    add("stripe-key", "rk_live_" + _r(rng, ALNUM, 24))
    add("google-api-key", "AIza" + _r(rng, ALNUM + "-_", 35), "maps key {s}")
    header = _b64url({"alg": "HS256", "typ": "JWT"})
    payload = _b64url({"sub": _r(rng, string.digits, 10), "name": "Test User", "iat": 1516239022})
    add("jwt", f"{header}.{payload}.{_r(rng, ALNUM + '-_', 43)}", "Authorization header value {s}")
    for label in ("RSA PRIVATE KEY", "OPENSSH PRIVATE KEY", "EC PRIVATE KEY"):
        body = "\n".join(_r(rng, B64, 64) for _ in range(5))
        add("private-key", f"-----BEGIN {label}-----\n{body}\n-----END {label}-----", "key:\n{s}\n", probe=body[64:80])
    password = _r(rng, ALNUM, 10) + "9!"
    add("url-password", f"admin:{password}", "postgres://{s}@db.internal:5432/app", probe=password)
    password = _r(rng, ALNUM, 14)
    add("url-password", f"deploy:{password}", "Clone from https://{s}@git.example.com/x.git", probe=password)
    add("twilio-key", "SK" + _r(rng, HEX, 32), "twilio {s}")
    add("sendgrid-key", "SG." + _r(rng, ALNUM + "-_", 22) + "." + _r(rng, ALNUM + "-_", 43))
    add("mailchimp-key", _r(rng, HEX, 32) + "-us12", "mailchimp key {s}")
    add("npm-token", "npm_" + _r(rng, ALNUM, 36), "//registry.npmjs.org/:_authToken={s}")
    add("pypi-token", "pypi-AgEIcHlwaS5vcmc" + _r(rng, ALNUM + "-_", 70))
    add("gitlab-token", "glpat-" + _r(rng, ALNUM + "-_", 20))
    add("telegram-token", _r(rng, string.digits, 10) + ":AA" + _r(rng, ALNUM + "-_", 33), "bot {s}")
    add("azure-storage-key", _r(rng, B64, 86) + "==", "AccountName=acct;AccountKey={s};EndpointSuffix=x")
    add("huggingface-token", "hf_" + _r(rng, string.ascii_letters, 34))
    add("databricks-token", "dapi" + _r(rng, HEX, 32))
    add("shopify-token", "shpat_" + _r(rng, HEX, 32))
    add("bearer-token", _r(rng, ALNUM, 40), "Send 'Authorization: Bearer {s}'")
    add("password", _r(rng, ALNUM, 9) + "#4", 'password: "{s}"')
    add("high-entropy-string", _r(rng, ALNUM, 32), "example session id {s}")
    add("high-entropy-string", _r(rng, HEX, 40), "signing secret like {s}")
    add("high-entropy-string", _r(rng, B64, 24), "nonce {s}")
    return out


def tools_with_secrets(secrets: list[Seeded]) -> list[dict[str, Any]]:
    """MCP tools whose descriptions, parameter descriptions and examples carry the secrets."""
    tools = []
    for i in range(0, len(secrets), 3):
        chunk = secrets[i : i + 3]
        tools.append(
            {
                "name": f"service_call_{i // 3}",
                "description": f"Calls service number {i // 3}. " + chunk[0].text,
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "token": {
                            "type": "string",
                            "description": chunk[1].text if len(chunk) > 1 else "The token.",
                            "examples": [c.secret for c in chunk],
                        },
                        "query": {"type": "string", "description": chunk[-1].text, "default": chunk[-1].secret},
                    },
                    "required": ["token"],
                },
            }
        )
    return tools


# Where a seeded secret is placed in a tool definition: its text (with its context) in the tool's description
# and, bare, in one of these fields of a parameter, in turn.
PLACES = ("description", "enum", "default", "examples")


def tools_in_every_field(secrets: list[Seeded]) -> list[dict[str, Any]]:
    """One MCP tool per secret: its text in the description, its bare value in an enum, a default, an example
    or a parameter description (in turn), so every kind is seen in every place across the set."""
    tools = []
    for i, s in enumerate(secrets):
        place = PLACES[i % len(PLACES)]
        param: dict[str, Any] = {"type": "string", "description": "The API token to check."}
        if place == "enum":
            param["enum"] = ["primary", s.secret]
        elif place == "default":
            param["default"] = s.secret
        elif place == "examples":
            param["examples"] = [s.secret]
        else:
            param["description"] = f"The API token, e.g. '{s.secret}'."
        tools.append(
            {
                "name": f"vault_call_{i:02d}",
                "description": f"Checks an API token against vault {i}. Use this when asked about vault {i}. {s.text}",
                "inputSchema": {"type": "object", "properties": {"api_key": param}, "required": ["api_key"]},
            }
        )
    return tools
