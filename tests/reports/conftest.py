"""Report storage fixtures: this run's Redis database (tests/conftest.py), a demo comparison, secrets-laden tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.audit.engine import audit_pair
from app.audit.loader import load_definitions
from app.audit.results import Comparison
from app.audit.suite.cases_file import load_cases
from app.selector_factory import synthetic_selector
from reports.seeded_secrets import Seeded, seeded_secrets, tools_with_secrets

DEMO = Path(__file__).resolve().parents[2] / "app" / "demo"


@pytest.fixture(scope="session")
def demo_comparison() -> Comparison:
    before = load_definitions("demo/before.json", text=(DEMO / "before.json").read_text())
    after = load_definitions("demo/after.json", text=(DEMO / "after.json").read_text())
    cases = load_cases("demo/cases.yaml", text=(DEMO / "cases.yaml").read_text())
    return audit_pair(
        before, after, selector=synthetic_selector(), user_cases=cases, base_ref="b", head_ref="h"
    )


@pytest.fixture(scope="session")
def secrets_set() -> list[Seeded]:
    return seeded_secrets()


@pytest.fixture(scope="session")
def leaky_comparison(secrets_set: list[Seeded]) -> Comparison:
    """A comparison audited from UNREDACTED definitions and cases carrying every seeded secret: the worst case
    a caller could hand to the store or a renderer."""
    from app.audit.models import Case, Provenance

    tools = tools_with_secrets(secrets_set)
    base = load_definitions("base.json", text=json.dumps({"tools": tools[:-1]}))
    head = load_definitions("head.json", text=json.dumps({"tools": tools}))
    cases = [
        Case(
            id=f"secret-{i:02d}",
            intent=f"Call the service with {s.text}",
            expected=f"service_call_{i // 3}",
            acceptable_arguments={"token": [s.secret]},
            provenance=Provenance.USER_DEFINED,
            note=s.secret,
        )
        for i, s in enumerate(secrets_set)
    ]
    comparison = audit_pair(base, head, selector=synthetic_selector(), user_cases=cases)
    notes = [*comparison.notes, *(f"note carrying {s.text}" for s in secrets_set)]
    return comparison.model_copy(update={"notes": notes})


def leaks(text: str, secrets: list[Seeded]) -> list[str]:
    """The kinds of the seeded secrets whose distinctive part shows in `text`."""
    return [s.kind for s in secrets if s.probe in text or s.secret in text]
