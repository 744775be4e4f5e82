"""Load with bookkeeping: 1,000 signed deliveries at 100/s on loopback, then a burst of deliveries to refuse.

`toolchoice serve` runs as its own process on a Redis server of this benchmark's own (a free port, a temporary
folder), so no other Redis user is touched. 250 pull requests get four deliveries each, sent phase by phase:
opened at head A, synchronize to head B (supersedes A), a second delivery for head B (a new delivery id and
body: collapses into B's job), then for half the PRs GitHub's redelivery of the opened delivery (same id) and
for the other half a late delivery of head A with an older `updated_at` (stale). Afterwards every RQ job is
read back: exactly one per (PR, head SHA), A cancelled, B queued. Then forged, unsigned, replayed (the signed
bytes under a new delivery id) and oversized (26 MB) deliveries: all must be refused and queue nothing.

    PYTHONPATH=. python bench/bench_load.py [--prs 250] [--rate 100]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx
from bench_webhook import SECRET, _cpu_seconds, _free_port, _payload, _request, _run
from redis import Redis
from rq.job import Job

ROOT = Path(__file__).resolve().parent.parent
EARLY, LATE = "2026-01-05T10:00:00Z", "2026-01-05T10:05:00Z"
OVERSIZED_BYTES = 26 * 1024 * 1024


def _pr_body(template: dict, number: int, head: str, updated_at: str, action: str | None = None) -> bytes:
    data = json.loads(json.dumps(template))
    data["installation"] = {"id": 1}
    data["number"] = data["pull_request"]["number"] = number
    data["pull_request"]["head"]["sha"] = head
    data["pull_request"]["updated_at"] = updated_at
    data["pull_request"]["state"] = "open"
    data["pull_request"]["draft"] = False
    if action:
        data["action"] = action
    return json.dumps(data).encode()


def _plan(prs: int) -> tuple[list[bytes], dict[tuple[int, str], str], list[bytes]]:
    """The timed deliveries (phase by phase), what each (PR, head) must end as, and signed bodies to replay."""
    opened, sync = _payload("pull_request.opened.2"), _payload("pull_request.synchronize.1")
    heads = {n: (uuid.uuid4().hex + "0" * 8, uuid.uuid4().hex + "1" * 8) for n in range(1, prs + 1)}
    phases: list[list[bytes]] = [[], [], [], []]
    first: dict[int, tuple[str, bytes]] = {}
    replayable: list[bytes] = []
    for n, (a, b) in heads.items():
        delivery, body = str(uuid.uuid4()), _pr_body(opened, n, a, EARLY)
        first[n] = (delivery, body)
        phases[0].append(_request("pull_request", body, delivery))
        sync_body = _pr_body(sync, n, b, LATE)
        replayable.append(sync_body)
        phases[1].append(_request("pull_request", sync_body, str(uuid.uuid4())))
        again = _pr_body(opened, n, b, LATE, action="reopened")
        phases[2].append(_request("pull_request", again, str(uuid.uuid4())))
        if n % 2:
            phases[3].append(_request("pull_request", body, delivery))  # GitHub's redelivery: the same id
        else:
            late = _pr_body(opened, n, a, EARLY, action="reopened")
            phases[3].append(_request("pull_request", late, str(uuid.uuid4())))
    expected = {(n, a): "canceled" for n, (a, _) in heads.items()}
    expected.update({(n, b): "queued" for n, (_, b) in heads.items()})
    return [raw for phase in phases for raw in phase], expected, replayable


def _jobs(redis: Redis) -> Counter[tuple[int, str, str]]:
    """Every RQ job as (PR number, head SHA, status), read back from Redis."""
    out: Counter[tuple[int, str, str]] = Counter()
    for key in redis.scan_iter("rq:job:*", count=1000):
        if redis.type(key) != b"hash":
            continue
        job = redis.hgetall(key)
        if b"data" not in job:
            continue
        loaded = Job.fetch(key.decode().removeprefix("rq:job:"), connection=redis)
        kwargs = loaded.kwargs
        out[(int(kwargs["number"]), str(kwargs["head_sha"]), loaded.get_status().value)] += 1
    return out


def _start_redis(folder: Path) -> tuple[subprocess.Popen, str]:
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit("needs redis-server on PATH (the benchmark runs a Redis of its own)")
    port = _free_port()
    args = [server, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder), "--save", ""]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 10
    while True:
        try:
            Redis.from_url(url).ping()
            return proc, url
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _refusals(url: str, replayable: list[bytes]) -> dict[str, Counter[str]]:
    """Deliveries that must be refused, each kind sent in sequence; their HTTP answers and anything queued."""
    opened = _payload("pull_request.opened.2")
    body = _pr_body(opened, 99_999, "f" * 40, LATE)
    headers = {"X-GitHub-Event": "pull_request", "Content-Type": "application/json"}
    answers: dict[str, Counter[str]] = {}
    with httpx.Client(base_url=url, timeout=60) as client:

        def post(kind: str, content: bytes, extra: dict[str, str]) -> None:
            hdrs = {**headers, "X-GitHub-Delivery": str(uuid.uuid4()), **extra}
            resp = client.post("/api/github/webhooks", content=content, headers=hdrs)
            status = resp.json().get("status") if resp.status_code == 202 else "refused"
            answers.setdefault(kind, Counter())[f"{resp.status_code} {status}"] += 1

        for _ in range(100):
            post("forged", body, {"X-Hub-Signature-256": "sha256=" + uuid.uuid4().hex * 2})
        for _ in range(100):
            post("unsigned", body, {})
        from githubkit.webhooks import sign

        for raw in replayable[:100]:
            post("replayed", raw, {"X-Hub-Signature-256": sign(SECRET, raw)})
        big = body[:-1] + b', "padding": "' + b"x" * OVERSIZED_BYTES + b'"}'
        for _ in range(5):
            post("oversized", big, {"X-Hub-Signature-256": sign(SECRET, big)})
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prs", type=int, default=250, help="pull requests; four deliveries each")
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-load-"))
    redis_proc, redis_url = _start_redis(folder)
    redis = Redis.from_url(redis_url)
    port = _free_port()
    env = {
        **os.environ,
        "APP_ID": "1",
        "PRIVATE_KEY": "unused-by-the-web-service",
        "WEBHOOK_SECRET": SECRET,
        "REDIS_URL": redis_url,
        "GITHUB_API_URL": "http://127.0.0.1:9",
    }
    cmd = [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--log-level", "warning"]
    server = subprocess.Popen(cmd, cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the web service did not start")
            time.sleep(0.1)
        requests, expected, replayable = _plan(args.prs)
        cpu_before, load_before = _cpu_seconds(server.pid), os.getloadavg()[0]
        latencies, statuses = asyncio.run(_run(port, args.rate, requests, args.connections))
        cpu = _cpu_seconds(server.pid) - cpu_before
        jobs_after_load = _jobs(redis)
        refused = _refusals(url, replayable)
        jobs_after_refusals = _jobs(redis)
        rss_kb = int(
            next(x for x in Path(f"/proc/{server.pid}/status").read_text().splitlines() if x.startswith("VmHWM"))
            .split()[1]
        )
    finally:
        server.terminate()
        server.wait(10)
        redis_proc.terminate()
        redis_proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    ms = sorted(x * 1000 for x in latencies)

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, round(p / 100 * len(ms)) - 1)]

    per_pair = Counter((n, sha) for (n, sha, _), k in jobs_after_load.items() for _ in range(k))
    status_of = {(n, sha): st for (n, sha, st) in jobs_after_load}
    doubled = sum(1 for v in per_pair.values() if v > 1)
    missing = sum(1 for pair in expected if pair not in per_pair)
    unexpected = sum(1 for pair in per_pair if pair not in expected)
    wrong = sum(1 for pair, st in expected.items() if status_of.get(pair) != st)
    acked = sum(v for k, v in statuses.items() if k.startswith("202 "))
    print(f"deliveries sent: {len(ms)} at {args.rate:g}/s ({args.prs} PRs x 4), acknowledged 202: {acked}")
    print(f"ack latency ms: p50 {statistics.median(ms):.1f}  p95 {pct(95):.1f}  p99 {pct(99):.1f}  max {ms[-1]:.1f}")
    print(f"answers: {dict(sorted(statuses.items()))}")
    print(
        f"web process: {cpu * 1000 / len(ms):.2f} ms CPU per delivery, peak RSS {rss_kb / 1024:.0f} MB; "
        f"load average before/after {load_before:.1f}/{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        f"jobs: {sum(per_pair.values())} for {len(expected)} (PR, head) pairs; doubled {doubled}, missing {missing}, "
        f"unexpected {unexpected}, wrong status {wrong}"
    )
    for kind, answer in refused.items():
        print(f"refusals, {kind}: {sum(answer.values())} sent, answers {dict(sorted(answer.items()))}")
    print(f"jobs added by the refused deliveries: {sum(jobs_after_refusals.values()) - sum(jobs_after_load.values())}")


if __name__ == "__main__":
    main()
