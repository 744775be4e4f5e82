"""GitHub App test rig: fake GitHub on loopback, this run's Redis database, the web service, signed deliveries."""

from __future__ import annotations

import copy
import json
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from conftest import shared_path
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from fakes.github_api import FakeGitHub
from githubkit.webhooks import sign
from redis import Redis
from rq import Queue, SimpleWorker
from rq.registry import ScheduledJobRegistry

from app.jobs import job as job_module
from app.reports.service import default_service
from app.reports.settings import get_report_settings
from app.settings import get_settings
from app.web.app import create_app

from .toolsets import BASE_TOOLS, head_tools, tools_json

APP_ID = 4242
INSTALLATION_ID = 77
SECRET = "test-webhook-secret"
OWNER, REPO = "octo-org", "tool-server"


@pytest.fixture(scope="session")
def rsa_keys() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return private, public


@pytest.fixture
def fake_github(rsa_keys: tuple[str, str]) -> Iterator[FakeGitHub]:
    spec = shared_path("github", "rest-api-subset.openapi.json")
    fake = FakeGitHub(spec, app_id=APP_ID, public_key=rsa_keys[1]).start()
    yield fake
    fake.stop()
    fake.assert_clean()  # any request the spec rejects fails the test


@pytest.fixture
def app_env(
    monkeypatch: pytest.MonkeyPatch,
    rsa_keys: tuple[str, str],
    fake_github: FakeGitHub,
    redis_db: Redis,
    redis_url: str,
    tmp_path: Path,
) -> Iterator[None]:
    monkeypatch.setenv("APP_ID", str(APP_ID))
    monkeypatch.setenv("PRIVATE_KEY", rsa_keys[0])
    monkeypatch.delenv("PRIVATE_KEY_PATH", raising=False)
    monkeypatch.setenv("WEBHOOK_SECRET", SECRET)
    monkeypatch.setenv("GITHUB_API_URL", fake_github.url)
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("PUBLIC_URL", "https://toolchoice.example")
    monkeypatch.setenv("TOOLCHOICE_DATA_DIR", str(tmp_path / "data"))  # stored reports without Redis
    monkeypatch.delenv("TOOLCHOICE_LINK_SECRET", raising=False)
    _clear_caches()
    yield
    _clear_caches()


def _clear_caches() -> None:
    get_settings.cache_clear()
    get_report_settings.cache_clear()
    default_service.cache_clear()
    job_module._apps.clear()


class ServerThread:
    """A uvicorn server for an ASGI app on a free loopback port, in a daemon thread."""

    def __init__(self, asgi: Any) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(asgi, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the web service did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def webhook_payload(name: str, **patch: Any) -> dict[str, Any]:
    """One of GitHub's example payloads (../shared/github/webhooks/<name>.json), aimed at our fake repo."""
    data = json.loads(shared_path("github", "webhooks", f"{name}.json").read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    data["installation"] = {"id": INSTALLATION_ID, "node_id": "x"}
    repo = data.get("repository")
    if isinstance(repo, dict):
        repo.update(name=REPO, full_name=f"{OWNER}/{REPO}")
        repo["owner"]["login"] = OWNER
    pr = data.get("pull_request")
    if isinstance(pr, dict):
        pr["draft"] = patch.get("draft", False)
        pr["state"] = "open"
        if "number" in patch:
            data["number"] = pr["number"] = patch["number"]
        if "base" in patch:
            pr["base"]["sha"] = patch["base"]
        if "head" in patch:
            pr["head"]["sha"] = patch["head"]
        if "updated_at" in patch:
            pr["updated_at"] = patch["updated_at"]
    return data


@dataclass
class Delivered:
    status: int
    body: dict[str, Any]
    delivery: str


@dataclass
class Rig:
    fake: FakeGitHub
    redis: Redis
    url: str
    client: httpx.Client

    def deliver(
        self, event: str, payload: dict[str, Any] | bytes, *, delivery: str | None = None, signature: str | None = None
    ) -> Delivered:
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        delivery = delivery or str(uuid.uuid4())
        headers = {
            "X-GitHub-Event": event,
            "X-GitHub-Delivery": delivery,
            "X-Hub-Signature-256": signature if signature is not None else sign(SECRET, body),
            "Content-Type": "application/json",
            "User-Agent": "GitHub-Hookshot/test",
        }
        resp = self.client.post("/api/github/webhooks", content=body, headers=headers)
        return Delivered(resp.status_code, resp.json() if resp.content else {}, delivery)

    def queue(self) -> Queue:
        return Queue("toolchoice", connection=self.redis)

    def work(self) -> None:
        """Run every queued job in this thread (an RQ SimpleWorker in burst mode)."""
        SimpleWorker([self.queue()], connection=self.redis).work(burst=True, with_scheduler=False)

    def release_retries(self) -> int:
        """Queue now the retries RQ scheduled for later (what its scheduler does when they fall due)."""
        queue = self.queue()
        registry = ScheduledJobRegistry(queue=queue)
        ids = registry.get_job_ids()
        for jid in ids:
            registry.remove(jid)
            queue.enqueue_job(queue.fetch_job(jid))
        return len(ids)


@pytest.fixture
def rig(app_env: None, fake_github: FakeGitHub, redis_db: Redis) -> Iterator[Rig]:
    with ServerThread(create_app(get_settings())) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        yield Rig(fake=fake_github, redis=redis_db, url=server.url, client=client)


def repo_files(tools_text: str, *, config: str | None = None, extra: dict[str, str] | None = None) -> dict[str, str]:
    files = {"README.md": "# tool server\n", "mcp/tools.json": tools_text, **(extra or {})}
    if config is not None:
        files[".github/toolchoice.yml"] = config
    return files


def seed_pull(
    rig: Rig, *, config: str | None = None, head_config: str | None = None, number: int = 7
) -> tuple[str, str]:
    """A repository with a base commit and a head commit changing the tools, and PR `number` between them."""
    repo = rig.fake.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    base = repo.commit(repo_files(tools_json(BASE_TOOLS), config=config))
    head_cfg = head_config if head_config is not None else config
    head = repo.commit(repo_files(tools_json(head_tools()), config=head_cfg), parent=base)
    repo.open_pull(number, base=base, head=head)
    return base, head


def shared_file(*parts: str) -> Path:
    return shared_path(*parts)
