"""Suggestion tests: the demo tool set with its hand-written cases, and a fake GitHub on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import shared_path
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from fakes.github_api import FakeGitHub

from app.audit.loader import load_definitions
from app.audit.models import Suite, ToolSet
from app.audit.suite.build import build_suite
from app.audit.suite.cases_file import load_cases
from app.audit.synthetic.selector import SyntheticSelector
from app.selector_factory import synthetic_selector

DEMO = Path(__file__).resolve().parents[2] / "app" / "demo"
APP_ID = 4343
INSTALLATION_ID = 88


@pytest.fixture(scope="session")
def selector() -> SyntheticSelector:
    return synthetic_selector()


@pytest.fixture
def demo() -> tuple[ToolSet, Suite]:
    """The demo's 'before' tool set and the suite of its hand-written cases plus generated ones."""
    toolset = load_definitions("before.json", text=(DEMO / "before.json").read_text(encoding="utf-8"))
    cases = load_cases("cases.yaml", text=(DEMO / "cases.yaml").read_text(encoding="utf-8"))
    return toolset, build_suite([toolset], user_cases=cases)


@pytest.fixture(scope="session")
def private_key() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()
    return private, public


@pytest.fixture
def fake_github(private_key: tuple[str, str]) -> Iterator[FakeGitHub]:
    fake = FakeGitHub(shared_path("github", "rest-api-subset.openapi.json"), app_id=APP_ID, public_key=private_key[1])
    fake.start()
    yield fake
    fake.stop()
    fake.assert_clean()
