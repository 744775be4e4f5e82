"""app.yml lists exactly the events ToolChoice handles and the permissions it uses."""

from __future__ import annotations

from pathlib import Path

import yaml

from app.web.webhooks import WEBHOOK_PATH

ROOT = Path(__file__).resolve().parents[2]


def test_manifest_events_permissions_and_hook_path() -> None:
    manifest = yaml.safe_load((ROOT / "app.yml").read_text(encoding="utf-8"))
    assert manifest["name"] == "ToolChoice"
    assert set(manifest["default_events"]) == {"pull_request", "check_run", "check_suite"}
    assert manifest["default_permissions"] == {
        "contents": "read",
        "metadata": "read",
        "pull_requests": "write",
        "checks": "write",
    }
    assert manifest["hook_attributes"]["url"].endswith(WEBHOOK_PATH)
