"""Redis restarted while a real worker is mid-review: the review still completes, once, and the next push is
reviewed by the same worker. The Redis here is this test's own server on a free port (never the shared one)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fakes.github_api import FakeGitHub
from github.conftest import OWNER, REPO, Rig, ServerThread, _clear_caches, repo_files, seed_pull, webhook_payload
from github.toolsets import head_tools, tools_json
from redis import Redis

from app.settings import get_settings
from app.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
REDIS_SERVER = shutil.which("redis-server")

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.slow,
    pytest.mark.skipif(REDIS_SERVER is None, reason="needs the redis-server program to start a Redis of its own"),
]


@dataclass
class OwnRedis:
    """A redis-server of this test alone, keeping its data across restarts (append-only file)."""

    port: int
    folder: Path
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = [str(REDIS_SERVER), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)]
        args += ["--appendonly", "yes", "--save", "", "--daemonize", "no", "--loglevel", "warning"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                if Redis.from_url(self.url, socket_timeout=0.5).ping():
                    return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # a clean shutdown: the append-only file is flushed
            self.proc.wait(10)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(port=_free_port(), folder=tmp_path / "redis")
    server.folder.mkdir()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def own_rig(
    app_env: None, own_redis: OwnRedis, fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Rig]:
    monkeypatch.setenv("REDIS_URL", own_redis.url)
    _clear_caches()
    redis = Redis.from_url(own_redis.url)
    with ServerThread(create_app(get_settings())) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        yield Rig(fake=fake_github, redis=redis, url=server.url, client=client)


def _wait_for(condition: object, timeout: float = 90) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


def test_redis_restart_mid_review_loses_no_review(own_rig: Rig, own_redis: OwnRedis) -> None:
    rig = own_rig
    base, head = seed_pull(rig)
    restarted: list[bool] = []

    def restart_redis(_: object) -> None:
        if not restarted:  # the job is reading the trees: Redis goes away for a moment and comes back
            own_redis.stop()
            time.sleep(1.0)
            own_redis.start()
            restarted.append(True)

    rig.fake.on("git/get-tree", restart_redis)
    args = [sys.executable, "-m", "app.cli", "worker", "--log-level", "warning"]
    worker = subprocess.Popen(args, cwd=ROOT, env=dict(os.environ), start_new_session=True)
    try:
        rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))

        def published(sha: str) -> bool:
            runs = rig.fake.check_runs(OWNER, REPO, sha)
            return bool(runs) and runs[-1]["status"] == "completed" and bool(rig.fake.comments(OWNER, REPO, 7))

        assert _wait_for(lambda: published(head)), rig.fake.check_runs(OWNER, REPO)
        assert restarted == [True]
        (run,) = rig.fake.check_runs(OWNER, REPO, head)
        assert run["conclusion"] == "success"
        repo = rig.fake.repo(OWNER, REPO)
        newer = repo.commit(repo_files(tools_json(head_tools()[:2])), parent=head)
        repo.push(7, newer)
        sync = webhook_payload("pull_request.synchronize.1", number=7, base=base, head=newer)
        assert rig.deliver("pull_request", sync).body["status"] == "queued"
        assert _wait_for(lambda: published(newer) and newer[:12] in rig.fake.comments(OWNER, REPO, 7)[0]["body"])
        assert worker.poll() is None, "the worker died with the Redis restart"
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
    assert all(r["status"] == "completed" for r in rig.fake.check_runs(OWNER, REPO))
    assert len(rig.fake.comments(OWNER, REPO, 7)) == 1
