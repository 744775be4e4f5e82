"""Deliveries the webhook refuses: forged or unsigned, replayed (the same signed body, whatever its delivery id),
and oversized. None of them queues anything or reaches GitHub."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket

import pytest

from app.web.webhooks import MAX_BODY_BYTES, WEBHOOK_PATH

from .conftest import SECRET, Rig, seed_pull, webhook_payload

pytestmark = pytest.mark.corpus


def _opened(rig: Rig) -> dict:
    base, head = seed_pull(rig)
    return webhook_payload("pull_request.opened.2", number=7, base=base, head=head)


def _nothing_queued(rig: Rig) -> None:
    assert rig.queue().count == 0
    assert not rig.redis.keys("toolchoice:latest:*")
    assert rig.fake.requests == []


@pytest.mark.parametrize(
    "signature",
    [
        "",
        "sha256=" + "0" * 64,
        "sha1=" + "0" * 40,  # the old header's algorithm is not accepted
        "sha256=" + hmac.new(b"another-secret", b"{}", hashlib.sha256).hexdigest(),
        "sha256=not-hex",
    ],
)
def test_forged_or_unsigned_deliveries_are_refused(rig: Rig, signature: str) -> None:
    answer = rig.deliver("pull_request", _opened(rig), signature=signature)
    assert answer.status == 401
    _nothing_queued(rig)


def test_a_body_signed_for_other_bytes_is_refused(rig: Rig) -> None:
    payload = _opened(rig)
    signed = json.dumps(payload).encode()
    good = "sha256=" + hmac.new(SECRET.encode(), signed, hashlib.sha256).hexdigest()
    payload["pull_request"]["head"]["sha"] = "f" * 40  # tampered after signing
    assert rig.deliver("pull_request", payload, signature=good).status == 401
    _nothing_queued(rig)


def test_a_replayed_body_under_a_new_delivery_id_is_refused(rig: Rig) -> None:
    payload = _opened(rig)
    first = rig.deliver("pull_request", payload, delivery="guid-original")
    again = rig.deliver("pull_request", payload, delivery="guid-original")  # a redelivery
    replay = rig.deliver("pull_request", payload, delivery="guid-made-up")  # the captured bytes, a new id
    assert first.body["status"] == "queued"
    assert (again.status, again.body["status"]) == (202, "duplicate")
    assert (replay.status, replay.body["status"]) == (202, "duplicate")
    assert rig.queue().count == 1


def test_a_replayed_rerun_press_starts_no_second_review(rig: Rig) -> None:
    """Re-run presses are otherwise distinct per delivery id: a replay must not run the review again."""
    _, head = seed_pull(rig)
    rerun = webhook_payload("check_run.rerequested.1")
    rerun["check_run"].update(name="ToolChoice", head_sha=head, external_id="octo-org/tool-server#7")
    assert rig.deliver("check_run", rerun).body["status"] == "queued"
    assert rig.deliver("check_run", rerun).body["status"] == "duplicate"
    assert rig.queue().count == 1


def test_oversized_deliveries_are_refused_before_the_signature_is_checked(rig: Rig) -> None:
    payload = _opened(rig)
    body = json.dumps(payload).encode()
    padded = body[:-1] + b', "padding": "' + b"x" * (MAX_BODY_BYTES - len(body)) + b'"}'
    assert len(padded) > MAX_BODY_BYTES
    answer = rig.deliver("pull_request", padded)  # correctly signed, only too large
    assert answer.status == 413 and "25 MB" in answer.body["error"]
    # A length header over the limit is answered before any of the body is sent.
    host, port = rig.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        head = (
            f"POST {WEBHOOK_PATH} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {MAX_BODY_BYTES + 1}\r\nX-GitHub-Event: pull_request\r\n\r\n"
        )
        sock.sendall(head.encode())
        assert sock.recv(4096).startswith(b"HTTP/1.1 413")
    _nothing_queued(rig)


def test_a_body_at_the_limit_is_still_read(rig: Rig) -> None:
    payload = _opened(rig)
    body = json.dumps(payload).encode()
    padded = body[:-1] + b', "padding": "' + b"x" * (MAX_BODY_BYTES - len(body) - 15) + b'"}'
    assert len(padded) <= MAX_BODY_BYTES
    answer = rig.deliver("pull_request", padded)
    assert answer.status == 202 and answer.body["status"] == "queued"
