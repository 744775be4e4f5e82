"""Redaction: every seeded secret kind is found and replaced by its marker; ordinary tool text is left alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.audit.results import Comparison
from app.redaction.patterns import SecretKind, marker
from app.redaction.redact import HASH_KEYS, find_secrets, redact_cases, redact_result, redact_text, redact_toolset
from reports.conftest import leaks
from reports.seeded_secrets import Seeded

DEMO = Path(__file__).resolve().parents[2] / "app" / "demo"


def test_the_seeded_set_is_large_and_varied(secrets_set: list[Seeded]) -> None:
    assert len(secrets_set) >= 30
    assert len({s.kind for s in secrets_set}) >= 25
    assert {s.kind for s in secrets_set} <= {k.value for k in SecretKind}


def test_each_seeded_secret_is_replaced_by_a_marker_of_its_kind(secrets_set: list[Seeded]) -> None:
    for s in secrets_set:
        out = redact_text(s.text)
        assert s.probe not in out, s.kind
        assert marker(SecretKind(s.kind)) in out, (s.kind, out)


def test_redaction_keeps_the_text_around_a_secret(secrets_set: list[Seeded]) -> None:
    github = next(s for s in secrets_set if s.secret.startswith("ghp_"))
    assert redact_text(github.text) == "Authenticate with the token [REDACTED:github-token] when listing repos."
    url = next(s for s in secrets_set if s.text.startswith("postgres://"))
    assert redact_text(url.text) == "postgres://[REDACTED:url-password]@db.internal:5432/app"


def test_redaction_is_idempotent(secrets_set: list[Seeded]) -> None:
    for s in secrets_set:
        once = redact_text(s.text)
        assert redact_text(once) == once


def test_detect_secrets_plugins_contribute() -> None:
    # Twilio and Mailchimp keys have no pattern of ours: only detect-secrets' plugins find them.
    kinds = {kind for kind, _ in find_secrets("twilio SK" + "0123456789abcdef" * 2 + " and more")}
    assert SecretKind.TWILIO_KEY in kinds


@pytest.mark.parametrize("name", ["before.json", "after.json"])
def test_ordinary_tool_definitions_are_unchanged(name: str) -> None:
    data = json.loads((DEMO / name).read_text())
    from app.redaction.redact import redact_value

    assert redact_value(data) == data


@pytest.mark.parametrize(
    "text",
    [
        "Flights_4_SearchOnewayFlight",
        "America/San_Francisco",
        "get_workflow_run_logs_url",
        "Use this when the user asks for the current weather in a city.",
        "a path like /usr/local/lib/python3.11/site-packages",
        "1946b8b7-8f03-4dc0-ac2d-5fac0d960c6a",
        "token: the user's token",
    ],
)
def test_no_false_alarm_on_identifiers_and_prose(text: str) -> None:
    assert redact_text(text) == text


def test_report_hashes_are_kept_and_secrets_go(leaky_comparison: Comparison, secrets_set: list[Seeded]) -> None:
    raw = leaky_comparison.model_dump_json()
    assert leaks(raw, secrets_set), "the fixture must carry secrets for this test to mean anything"
    redacted = redact_result(leaky_comparison)
    assert leaks(redacted.model_dump_json(), secrets_set) == []
    assert redacted.suite_hash == leaky_comparison.suite_hash
    assert list(redacted.head.tool_hashes.values()) == list(leaky_comparison.head.tool_hashes.values())
    assert redacted.head.overall == leaky_comparison.head.overall
    assert "suite_hash" in HASH_KEYS


def test_toolsets_and_cases_are_redacted(leaky_comparison: Comparison, secrets_set: list[Seeded]) -> None:
    from app.audit.loader import load_definitions
    from reports.seeded_secrets import tools_with_secrets

    toolset = load_definitions("t.json", text=json.dumps({"tools": tools_with_secrets(secrets_set)}))
    assert leaks(redact_toolset(toolset).model_dump_json(), secrets_set) == []
    assert leaks(json.dumps([c.model_dump() for c in redact_cases(leaky_comparison.head.cases)]), secrets_set) == []
