"""The service's app factory serves the report routes (POST /api/audits, GET /reports/{id} and .json)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.reports.service import default_service
from app.reports.settings import get_report_settings
from app.settings import load_settings
from app.web.app import create_app


def test_the_factory_includes_the_report_routes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("REDIS_URL", "TOOLCHOICE_LINK_SECRET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TOOLCHOICE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("PUBLIC_URL", "https://tc.example")
    get_report_settings.cache_clear()
    default_service.cache_clear()
    try:
        settings = load_settings(app_id=1, webhook_secret="w", private_key="k")
        client = TestClient(create_app(settings))  # no lifespan: the embedded worker is not started
        payload = {"definitions": [{"name": "get_weather", "description": "Current weather for a city."}]}
        answer = client.post("/api/audits", json=payload)
        assert answer.status_code == 201, answer.text
        report_id = answer.json()["id"]
        assert answer.json()["url"] == f"https://tc.example/reports/{report_id}"
        assert client.get(f"/reports/{report_id}").status_code == 200
        assert client.get(f"/reports/{report_id}.json").json()["kind"] == "audit"
        assert (tmp_path / "reports" / f"{report_id}.json").exists()
    finally:
        get_report_settings.cache_clear()
        default_service.cache_clear()
