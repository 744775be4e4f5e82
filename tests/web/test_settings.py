"""Service settings: Probot's variable names, the private key from text or a file, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.errors import ConfigError
from app.settings import load_settings

PEM = "-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "APP_ID",
        "PRIVATE_KEY",
        "PRIVATE_KEY_PATH",
        "WEBHOOK_SECRET",
        "GITHUB_API_URL",
        "REDIS_URL",
        "PUBLIC_URL",
    ):
        monkeypatch.delenv(name, raising=False)


def test_probot_names_and_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APP_ID", "42")
    monkeypatch.setenv("WEBHOOK_SECRET", "s")
    monkeypatch.setenv("PRIVATE_KEY", PEM.replace("\n", "\\n"))  # one-line form, as in Probot's .env
    settings = load_settings()
    assert settings.app_id == 42 and settings.github_api_url == "https://api.github.com"
    assert settings.redis_url is None and settings.private_key_pem() == PEM


def test_private_key_from_a_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    key = tmp_path / "app.pem"
    key.write_text(PEM)
    monkeypatch.setenv("APP_ID", "42")
    monkeypatch.setenv("WEBHOOK_SECRET", "s")
    monkeypatch.setenv("PRIVATE_KEY_PATH", str(key))
    assert load_settings().private_key_pem() == PEM
    missing = load_settings(private_key_path=tmp_path / "nope.pem")
    with pytest.raises(ConfigError, match=r"nope\.pem"):
        missing.private_key_pem()


def test_wrong_values_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APP_ID", "not-a-number")
    monkeypatch.setenv("WEBHOOK_SECRET", "s")
    monkeypatch.setenv("PRIVATE_KEY", PEM)
    with pytest.raises(ConfigError, match="APP_ID"):
        load_settings()
