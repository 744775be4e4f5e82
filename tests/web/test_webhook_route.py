"""The webhook route and the health check: status codes, ignored events, the body limit, embedded mode."""

from __future__ import annotations

import json
import time

import pytest
from conftest import shared_path
from fastapi.testclient import TestClient
from github.conftest import INSTALLATION_ID, OWNER, REPO, Rig, ServerThread, repo_files, webhook_payload
from github.toolsets import BASE_TOOLS, head_tools, tools_json
from githubkit.webhooks import sign

from app.errors import ConfigError
from app.settings import get_settings, load_settings
from app.web.app import create_app
from app.web.webhooks import MAX_BODY_BYTES

pytestmark = pytest.mark.corpus


def _example(name: str) -> dict:
    return json.loads(shared_path("github", "webhooks", f"{name}.json").read_text(encoding="utf-8"))


def test_ping_installation_and_unhandled_events_answer_202_and_queue_nothing(rig: Rig) -> None:
    ping = rig.deliver("ping", _example("ping.event.1"))
    installed = rig.deliver("installation", _example("installation.created.1"))
    repos = rig.deliver("installation_repositories", _example("installation_repositories.added.1"))
    comment = rig.deliver("issue_comment", _example("issue_comment.created.2"))
    closed = rig.deliver("pull_request", webhook_payload("pull_request.closed.1"))
    push = rig.deliver("push", _example("push.event.1"))
    assert [d.status for d in (ping, installed, repos, comment, closed, push)] == [202] * 6
    assert ping.body["status"] == installed.body["status"] == repos.body["status"] == "logged"
    assert comment.body["status"] == "ignored" and "issue_comment.created" in comment.body["reason"]
    assert closed.body["status"] == push.body["status"] == "ignored"
    assert rig.queue().count == 0 and rig.fake.requests == []


def test_bad_requests(rig: Rig) -> None:
    body = b"not json"
    resp = rig.client.post(
        "/api/github/webhooks",
        content=body,
        headers={
            "X-GitHub-Event": "pull_request",
            "X-GitHub-Delivery": "d1",
            "X-Hub-Signature-256": sign("test-webhook-secret", body),
        },
    )
    assert resp.status_code == 400
    body = b"{}"
    no_event = rig.client.post(
        "/api/github/webhooks", content=body, headers={"X-Hub-Signature-256": sign("test-webhook-secret", body)}
    )
    assert no_event.status_code == 400


def test_bodies_over_githubs_limit_get_413(rig: Rig) -> None:
    big = b"x" * (MAX_BODY_BYTES + 1)
    resp = rig.client.post(
        "/api/github/webhooks", content=big, headers={"X-GitHub-Event": "ping", "X-GitHub-Delivery": "big"}
    )
    assert resp.status_code == 413
    assert not rig.redis.exists("toolchoice:delivery:big")


def test_healthz_reports_redis(rig: Rig) -> None:
    resp = rig.client.get("/healthz")
    assert resp.status_code == 200 and resp.json() == {"status": "ok", "redis": "reachable"}


def test_healthz_fails_when_redis_is_unreachable(app_env: None) -> None:
    settings = load_settings(redis_url="redis://127.0.0.1:1/0")
    with TestClient(create_app(settings)) as client:
        resp = client.get("/healthz")
    assert resp.status_code == 503 and resp.json()["redis"] == "unreachable"


def test_missing_settings_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("APP_ID", "PRIVATE_KEY", "PRIVATE_KEY_PATH", "WEBHOOK_SECRET"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = str(info.value)
    assert "APP_ID" in message and "WEBHOOK_SECRET" in message and "PRIVATE_KEY" in message


def test_embedded_mode_runs_reviews_in_process(app_env: None, monkeypatch: pytest.MonkeyPatch, rig: Rig) -> None:
    monkeypatch.delenv("REDIS_URL")
    get_settings.cache_clear()
    settings = get_settings()
    assert settings.redis_url is None
    repo = rig.fake.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    base = repo.commit(repo_files(tools_json(BASE_TOOLS)))
    head = repo.commit(repo_files(tools_json(head_tools())), parent=base)
    repo.open_pull(4, base=base, head=head)
    web = create_app(settings)
    with ServerThread(web) as server:
        import httpx

        payload = json.dumps(webhook_payload("pull_request.opened.2", number=4, base=base, head=head)).encode()
        headers = {
            "X-GitHub-Event": "pull_request",
            "X-GitHub-Delivery": "emb-1",
            "X-Hub-Signature-256": sign("test-webhook-secret", payload),
        }
        resp = httpx.post(f"{server.url}/api/github/webhooks", content=payload, headers=headers)
        assert resp.status_code == 202 and resp.json()["status"] == "queued"
        assert httpx.get(f"{server.url}/healthz").json()["redis"].startswith("not configured")
        deadline = time.monotonic() + 30
        while (
            not rig.fake.check_runs(OWNER, REPO, head)
            or rig.fake.check_runs(OWNER, REPO, head)[0]["status"] != "completed"
        ):
            assert time.monotonic() < deadline, "the embedded worker did not finish"
            time.sleep(0.05)
        web.state.queue.join()
    assert len(rig.fake.comments(OWNER, REPO, 4)) == 1
    assert rig.queue().count == 0  # nothing went to Redis


def test_redis_down_answers_503_and_the_delivery_can_come_again(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from rq import Queue

    def broken(*args: object, **kwargs: object) -> None:
        raise RedisConnectionError("Redis went away")

    payload = webhook_payload("pull_request.opened.2", number=3, base="a" * 40, head="b" * 40)
    with monkeypatch.context() as patched:
        patched.setattr(Queue, "enqueue", broken)
        failed = rig.deliver("pull_request", payload, delivery="once-more")
    assert failed.status == 503
    again = rig.deliver("pull_request", payload, delivery="once-more")
    assert again.status == 202 and again.body["status"] == "queued"
