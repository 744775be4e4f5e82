"""Delivery to comment: a PR whose definition file has 50 tools, reviewed in synthetic mode against the fake
GitHub on loopback.

Runs `toolchoice serve` (and `toolchoice worker` with Redis db 1, which it flushes) as separate processes, sends
a signed pull_request.opened per round (a new PR with its own head commit each time), and measures from just
before the delivery is sent to the moment the fake GitHub receives the comment.

    python bench/bench_pr_e2e.py --rounds 10               # Redis + RQ worker
    python bench/bench_pr_e2e.py --rounds 10 --embedded    # no Redis: jobs run inside `serve`
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from githubkit.webhooks import sign
from redis import Redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fakes.github_api import FakeGitHub, Recorded  # noqa: E402
from github.toolsets import many_tools, tools_json  # noqa: E402

SHARED = ROOT.parent / "shared" / "github"
SECRET = "bench-secret"
REDIS_URL = "redis://127.0.0.1:6379/1"
APP_ID = 4242
OWNER, REPO = "octo-org", "tool-server"


def _keys() -> tuple[str, str]:
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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_healthy(url: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise SystemExit("the web service did not start")


def _wait_idle(fake: FakeGitHub, redis: Redis | None, quiet: float = 3.0) -> float:
    """Wait until the review job is over (RQ: nothing queued or started; embedded: `quiet` seconds without a
    GitHub call); returns when the fake received the job's last request."""
    if redis is not None:
        from rq import Queue
        from rq.registry import StartedJobRegistry

        queue = Queue("toolchoice", connection=redis)
        while queue.count or StartedJobRegistry(queue=queue).count:
            time.sleep(0.05)
        return fake.last_request_at
    while True:
        count = len(fake.requests)
        time.sleep(quiet)
        if len(fake.requests) == count:
            return fake.last_request_at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--tools", type=int, default=50)
    parser.add_argument("--embedded", action="store_true", help="no Redis: the web process runs the jobs")
    args = parser.parse_args()
    private, public = _keys()
    fake = FakeGitHub(SHARED / "rest-api-subset.openapi.json", app_id=APP_ID, public_key=public).start()
    repo = fake.repo(OWNER, REPO, installation_id=7)
    tools = many_tools(args.tools)
    base = repo.commit({"README.md": "# bench\n", "mcp/tools.json": tools_json(tools)})
    posted: dict[int, float] = {}
    done = threading.Event()

    def on_comment(rec: Recorded) -> None:
        posted[int(rec.path.split("/")[-2])] = time.perf_counter()
        done.set()

    fake.on("issues/create-comment", on_comment)
    template = json.loads((SHARED / "webhooks" / "pull_request.opened.2.json").read_text(encoding="utf-8"))
    port = _free_port()
    env = {
        **os.environ,
        "APP_ID": str(APP_ID),
        "PRIVATE_KEY": private,
        "WEBHOOK_SECRET": SECRET,
        "GITHUB_API_URL": fake.url,
    }
    env.pop("REDIS_URL", None)
    if not args.embedded:
        env["REDIS_URL"] = REDIS_URL
        Redis.from_url(REDIS_URL).flushdb()
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--log-level", "warning"], cwd=ROOT, env=env
        )
    ]
    if not args.embedded:
        procs.append(
            subprocess.Popen([sys.executable, "-m", "app.cli", "worker", "--log-level", "warning"], cwd=ROOT, env=env)
        )
    url = f"http://127.0.0.1:{port}"
    latencies: list[float] = []
    followed: list[float] = []
    try:
        _wait_healthy(url)
        time.sleep(2.0 if not args.embedded else 0.5)  # let the worker finish importing
        for number in range(1, args.rounds + 1):
            changed = [dict(t) for t in tools]
            for i in range(0, len(changed), 10):  # five descriptions change per PR
                changed[i] = {**changed[i], "description": f"Handles record {i} (revision {number})."}
            head = repo.commit({"README.md": "# bench\n", "mcp/tools.json": tools_json(changed)}, parent=base)
            repo.open_pull(number, base=base, head=head)
            data = json.loads(json.dumps(template))
            data["installation"] = {"id": 7}
            data["repository"].update(name=REPO, full_name=f"{OWNER}/{REPO}")
            data["repository"]["owner"]["login"] = OWNER
            data["number"] = data["pull_request"]["number"] = number
            data["pull_request"]["base"]["sha"], data["pull_request"]["head"]["sha"] = base, head
            body = json.dumps(data).encode()
            headers = {
                "X-GitHub-Event": "pull_request",
                "X-GitHub-Delivery": f"bench-{number}-{time.time_ns()}",
                "X-Hub-Signature-256": sign(SECRET, body),
                "Content-Type": "application/json",
            }
            done.clear()
            sent = time.perf_counter()
            resp = httpx.post(f"{url}/api/github/webhooks", content=body, headers=headers)
            assert resp.status_code == 202, resp.text
            if not done.wait(60):
                raise SystemExit(f"round {number}: no comment within 60 s")
            latencies.append(posted[number] - sent)
            followed.append(
                _wait_idle(fake, None if args.embedded else Redis.from_url(REDIS_URL)) - sent
            )  # suggestions follow the comment; each PR starts alone
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(10)
        fake.stop()
    fake.assert_clean()
    if not args.embedded:
        from rq import Queue
        from rq.registry import FinishedJobRegistry

        redis = Redis.from_url(REDIS_URL)
        queue = Queue("toolchoice", connection=redis)
        jobs = sorted(
            (j for j in (queue.fetch_job(i) for i in FinishedJobRegistry(queue=queue).get_job_ids()) if j),
            key=lambda j: j.enqueued_at,
        )
        waits = [(j.started_at - j.enqueued_at).total_seconds() for j in jobs if j.started_at and j.enqueued_at]
        runs_s = [(j.ended_at - j.started_at).total_seconds() for j in jobs if j.ended_at and j.started_at]
        print("queue wait, s: " + " ".join(f"{x:.2f}" for x in waits))
        print("job run (in the worker), s: " + " ".join(f"{x:.2f}" for x in runs_s))
        redis.flushdb()
    runs = [r for r in fake.check_runs(OWNER, REPO) if r["status"] == "completed"]
    mode = "embedded (no Redis)" if args.embedded else "Redis + RQ worker"
    print(f"{args.tools}-tool definition file, {args.rounds} PRs, {mode}, load average {os.getloadavg()[0]:.1f}")
    print("delivery -> comment posted, s: " + " ".join(f"{x:.2f}" for x in latencies))
    print(f"first {latencies[0]:.2f}  median {statistics.median(latencies):.2f}  max {max(latencies):.2f}")
    print("delivery -> last GitHub call (suggestions review included), s: " + " ".join(f"{x:.2f}" for x in followed))
    print(f"check runs completed: {len(runs)}; comments: {len(fake.comments(OWNER, REPO))}")


if __name__ == "__main__":
    main()
