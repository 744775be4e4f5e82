"""The report routes over HTTP: anonymous audits (201, 413, 422, 429), the page and the JSON, signed links."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.render.json_export import SCHEMA_VERSION
from app.reports.ratelimit import MemoryRateLimiter
from app.reports.service import DAY, ReportService
from app.reports.store import LocalReportStore
from app.web.reports import reports_router
from reports.conftest import DEMO, leaks
from reports.seeded_secrets import Seeded, tools_with_secrets

SECRET = "s" * 32


class Clock:
    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


def _rig(tmp_path: Path, *, limit: int = 100, max_body: int = 2 * 1024 * 1024) -> tuple[TestClient, ReportService]:
    clock = Clock()
    service = ReportService(
        LocalReportStore(tmp_path / "reports", clock=clock),
        public_url="http://testserver",
        retention_seconds=90 * DAY,
        anonymous_retention_seconds=7 * DAY,
        link_secret=SECRET,
        clock=clock,
    )
    app = FastAPI()
    app.include_router(
        reports_router(service, limiter=MemoryRateLimiter(limit=limit, window_seconds=60), max_body_bytes=max_body)
    )
    return TestClient(app), service


def _demo(name: str) -> Any:
    return json.loads((DEMO / name).read_text())


def test_submitted_definitions_become_a_stored_anonymous_audit(tmp_path: Path) -> None:
    client, _ = _rig(tmp_path)
    answer = client.post("/api/audits", json={"definitions": _demo("after.json")})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["url"] == f"http://testserver/reports/{body['id']}"
    assert body["expires_at"].startswith("2030-03-")  # 1_900_000_000 + 7 days
    page = client.get(f"/reports/{body['id']}")
    assert page.status_code == 200
    assert 'data-mode="synthetic"' in page.text and "<script" not in page.text
    assert "default-src 'none'" in page.headers["content-security-policy"]
    export = client.get(f"/reports/{body['id']}.json")
    assert export.status_code == 200
    data = export.json()
    assert data["schema_version"] == SCHEMA_VERSION and data["kind"] == "audit" and data["mode"] == "synthetic"
    assert data["suite_hash"] in page.text.replace("</code>", "") or data["suite_hash"][:16] in page.text


def test_a_before_after_pair_becomes_a_comparison(tmp_path: Path) -> None:
    client, _ = _rig(tmp_path)
    answer = client.post("/api/audits", json={"base": _demo("before.json"), "head": _demo("after.json")})
    assert answer.status_code == 201, answer.text
    data = client.get(f"/reports/{answer.json()['id']}.json").json()
    assert data["kind"] == "comparison"
    assert data["comparison"]["regressions"], "the demo pair has regressions"
    page = client.get(f"/reports/{answer.json()['id']}").text
    assert page.index('id="regressions"') < page.index('id="findings"') < page.index('id="cases"')


def test_yaml_text_is_read_too(tmp_path: Path) -> None:
    client, _ = _rig(tmp_path)
    text = "tools:\n  - name: get_weather\n    description: Current weather for a city.\n"
    assert client.post("/api/audits", json={"definitions": text}).status_code == 201


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        ({"definitions": "tools:\n  - name: [unclosed\n"}, "definitions:"),
        ({"definitions": []}, "no tool definitions found"),
        ({"nothing": 1}, '"definitions"'),
        ([1, 2], "JSON object"),
    ],
)
def test_bad_definitions_are_422_with_the_loaders_message(tmp_path: Path, payload: Any, fragment: str) -> None:
    client, _ = _rig(tmp_path)
    answer = client.post("/api/audits", json=payload)
    assert answer.status_code == 422, answer.text
    assert fragment in answer.json()["error"]


def test_yaml_error_names_the_line(tmp_path: Path) -> None:
    client, _ = _rig(tmp_path)
    answer = client.post("/api/audits", json={"definitions": "tools:\n  - name: ok\n  - name: [unclosed\n"})
    assert answer.status_code == 422
    assert answer.json()["file"] == "definitions" and answer.json()["line"] >= 3


def test_invalid_unicode_is_422_naming_field_and_code_point(tmp_path: Path) -> None:
    client, _ = _rig(tmp_path)
    body = '{"definitions": {"tools": [{"name": "a", "description": "Get the \\ud800 weather."}]}}'
    answer = client.post("/api/audits", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert "tools[0].description holds a lone surrogate U+D800" in answer.json()["error"]


def test_too_many_tools_is_422(tmp_path: Path) -> None:
    client, _ = _rig(tmp_path)
    tools = [{"name": f"tool_{i}", "description": "A tool."} for i in range(301)]
    answer = client.post("/api/audits", json={"definitions": tools})
    assert answer.status_code == 422 and "at most 300" in answer.json()["error"]


def test_report_routes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.reports.settings import ReportSettings
    from app.web.reports import report_routes

    monkeypatch.setenv("TOOLCHOICE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("TOOLCHOICE_AUDIT_RATE_LIMIT", "1")
    monkeypatch.delenv("REDIS_URL", raising=False)
    settings = ReportSettings()
    assert settings.reports_dir == tmp_path / "reports" and settings.retention_days == 90
    app = FastAPI()
    app.include_router(report_routes(settings))
    client = TestClient(app)
    payload = {"definitions": [{"name": "get_weather", "description": "Weather now."}]}
    assert [client.post("/api/audits", json=payload).status_code for _ in range(2)] == [201, 429]
    assert len(list((tmp_path / "reports").iterdir())) == 1


def test_not_json_is_400(tmp_path: Path) -> None:
    client, _ = _rig(tmp_path)
    answer = client.post("/api/audits", content=b"{nope", headers={"content-type": "application/json"})
    assert answer.status_code == 400


def test_oversized_bodies_are_413_and_nothing_is_stored(tmp_path: Path) -> None:
    client, _ = _rig(tmp_path, max_body=1000)
    big = {"definitions": [{"name": f"t{i}", "description": "x" * 100} for i in range(20)]}
    assert client.post("/api/audits", json=big).status_code == 413
    assert not (tmp_path / "reports").exists()


def test_rate_limit_per_client_address(tmp_path: Path) -> None:
    client, _ = _rig(tmp_path, limit=2)
    payload = {"definitions": [{"name": "get_weather", "description": "Weather now."}]}
    codes = [client.post("/api/audits", json=payload).status_code for _ in range(3)]
    assert codes == [201, 201, 429]


def test_unknown_ids_are_404(tmp_path: Path) -> None:
    client, _ = _rig(tmp_path)
    assert client.get("/reports/" + "A" * 24).status_code == 404
    assert client.get("/reports/" + "A" * 24 + ".json").status_code == 404
    assert client.get("/reports/..%2F..%2Fetc%2Fpasswd").status_code == 404


def test_private_reports_answer_404_without_a_valid_signature(tmp_path: Path, demo_comparison: Any) -> None:
    client, service = _rig(tmp_path)
    stored = service.save(demo_comparison, installation_id=3, private=True)
    path = stored.url.removeprefix("http://testserver")
    bare = path.split("?")[0]
    assert client.get(path).status_code == 200
    assert client.get(bare.replace(stored.id, stored.id) + ".json?" + path.split("?")[1]).status_code == 200
    assert client.get(bare).status_code == 404
    assert client.get(bare + ".json").status_code == 404
    forged = re.sub(r"sig=[0-9a-f]+", "sig=" + "0" * 64, path)
    assert client.get(forged).status_code == 404
    assert client.get(path).headers["cache-control"] == "private, no-store"
    assert isinstance(service.clock, Clock)
    service.clock.now += 90 * DAY + 1
    assert client.get(path).status_code == 404


def test_submitted_secrets_reach_neither_store_page_export_nor_logs(
    tmp_path: Path, secrets_set: list[Seeded], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    client, _ = _rig(tmp_path)
    tools = tools_with_secrets(secrets_set)
    answer = client.post("/api/audits", json={"base": {"tools": tools[:-2]}, "head": {"tools": tools}})
    assert answer.status_code == 201, answer.text
    report_id = answer.json()["id"]
    stored = "".join(p.read_text() for p in (tmp_path / "reports").iterdir())
    page = client.get(f"/reports/{report_id}").text
    export = client.get(f"/reports/{report_id}.json").text
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for where, text in (("store", stored), ("page", page), ("export", export), ("logs", logged)):
        assert leaks(text, secrets_set) == [], where
