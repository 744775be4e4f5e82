"""Webhook routing on GitHub's own example payloads, and signature checks."""

from __future__ import annotations

import json

import pytest
from conftest import shared_path
from githubkit.webhooks import sign

from app.github.events import (
    CHECK_RUN_NAME,
    Disposition,
    external_id_for,
    parse_external_id,
    route,
    signature_valid,
)

from .conftest import webhook_payload

pytestmark = pytest.mark.corpus

REVIEWED = {
    "pull_request.opened",
    "pull_request.synchronize",
    "pull_request.reopened",
    "pull_request.ready_for_review",
    "check_suite.rerequested",
}


def _body(data: dict) -> bytes:
    return json.dumps(data).encode()


def test_every_example_payload_is_routed_without_error() -> None:
    files = sorted(shared_path("github", "webhooks").glob("*.json"))
    assert len(files) > 50
    for path in files:
        event, action = path.name.split(".")[:2]
        data = json.loads(path.read_text(encoding="utf-8"))
        data["installation"] = {"id": 5}
        routed = route(event, _body(data))
        name = event if action == "event" else f"{event}.{action}"
        if name in REVIEWED:
            assert routed.disposition == Disposition.REVIEW, path.name
            assert routed.request is not None and routed.request.installation_id == 5
        elif event in ("ping", "installation", "installation_repositories"):
            assert routed.disposition == Disposition.LOGGED, path.name
        else:
            assert routed.disposition == Disposition.IGNORED and routed.reason, path.name


def test_pull_request_gives_the_plain_values_a_job_needs() -> None:
    data = webhook_payload("pull_request.opened.2", number=9, base="a" * 40, head="b" * 40)
    routed = route("pull_request", _body(data))
    request = routed.request
    assert request is not None
    assert (request.owner, request.repo, request.number) == ("octo-org", "tool-server", 9)
    assert (request.base_sha, request.head_sha, request.trigger) == ("a" * 40, "b" * 40, "pull_request.opened")


def test_delivery_without_installation_and_closed_prs_are_ignored() -> None:
    data = json.loads(shared_path("github", "webhooks", "pull_request.opened.1.json").read_text(encoding="utf-8"))
    assert "installation" not in data
    assert "no installation" in route("pull_request", _body(data)).reason
    closed = webhook_payload("pull_request.opened.2")
    closed["pull_request"]["state"] = "closed"
    assert route("pull_request", _body(closed)).disposition == Disposition.IGNORED


def test_check_run_rerequested_only_for_our_check_and_finds_the_pr_by_external_id() -> None:
    data = webhook_payload("check_run.rerequested.1")
    assert route("check_run", _body(data)).disposition == Disposition.IGNORED  # someone else's check
    data["check_run"]["name"] = CHECK_RUN_NAME
    data["check_run"]["external_id"] = external_id_for("octo-org", "tool-server", 12)
    routed = route("check_run", _body(data))
    assert routed.disposition == Disposition.REVIEW and routed.request is not None
    assert routed.request.number == 12 and routed.request.head_sha == data["check_run"]["head_sha"]


def test_check_suite_rerequested_for_a_fork_has_no_pr_number() -> None:
    data = webhook_payload("check_suite.rerequested.1")
    data["check_suite"]["pull_requests"] = []
    routed = route("check_suite", _body(data))
    assert routed.request is not None and routed.request.number is None


def test_not_a_json_object_is_an_error() -> None:
    with pytest.raises(ValueError):
        route("pull_request", b"[1, 2]")


def test_signatures() -> None:
    body = b'{"zen": "x"}'
    good = sign("s3cret", body)
    assert good.startswith("sha256=") and signature_valid("s3cret", body, good)
    assert not signature_valid("other", body, good)
    assert not signature_valid("s3cret", body + b" ", good)
    assert not signature_valid("s3cret", body, None)
    assert not signature_valid("s3cret", body, sign("s3cret", body, "sha1"))  # only sha256 counts


def test_external_id_round_trip() -> None:
    assert parse_external_id(external_id_for("a-b", "c.d", 3)) == ("a-b", "c.d", 3)
    assert parse_external_id("nonsense") is None and parse_external_id(None) is None
