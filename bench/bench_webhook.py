"""Webhook acknowledgement under load: N deliveries/s on loopback to `toolchoice serve` with Redis.

Starts the web service as its own process (REDIS_URL on db 1, which it flushes), sends signed deliveries on
a fixed open-loop schedule (pull_request opened/synchronize with fresh SHAs, some redeliveries of an earlier
delivery id, some ignored events), and reports acknowledgement latency percentiles. Then checks nothing was
lost: every review delivery became exactly one RQ job, redeliveries none.

    python bench/bench_webhook.py --rate 100 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
from githubkit.webhooks import sign
from redis import Redis

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "github" / "webhooks"
SECRET = "bench-secret"
REDIS_URL = "redis://127.0.0.1:6379/1"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _payload(name: str) -> dict:
    return json.loads((SHARED / f"{name}.json").read_text(encoding="utf-8"))


def _pr_delivery(template: dict, number: int) -> bytes:
    data = json.loads(json.dumps(template))
    data["installation"] = {"id": 1}
    data["number"] = data["pull_request"]["number"] = number
    data["pull_request"]["head"]["sha"] = uuid.uuid4().hex + "abcdef01"
    return json.dumps(data).encode()


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), to report cost independent of machine load."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _request(event: str, body: bytes, delivery: str) -> bytes:
    head = (
        "POST /api/github/webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nX-GitHub-Event: {event}\r\nX-GitHub-Delivery: {delivery}\r\n"
        f"X-Hub-Signature-256: {sign(SECRET, body)}\r\nUser-Agent: GitHub-Hookshot/bench\r\n\r\n"
    )
    return head.encode() + body


def _plan(rate: float, seconds: float) -> tuple[list[bytes], int]:
    """Every request pre-built and pre-signed, so the sender does almost no work while measuring."""
    opened, sync = _payload("pull_request.opened.2"), _payload("pull_request.synchronize.1")
    ping = json.dumps(_payload("ping.event.1")).encode()
    rng = random.Random(7)
    requests: list[bytes] = []
    reviews: list[tuple[str, bytes]] = []
    expected_jobs = 0
    for i in range(int(rate * seconds)):
        roll = rng.random()
        if roll < 0.05 and reviews:  # a redelivery of an earlier delivery: must not enqueue again
            delivery, body = rng.choice(reviews)
            requests.append(_request("pull_request", body, delivery))
        elif roll < 0.15:
            requests.append(_request("ping", ping, str(uuid.uuid4())))
        else:
            body = _pr_delivery(opened if roll < 0.6 else sync, 1000 + i)  # one PR each: no supersession
            delivery = str(uuid.uuid4())
            reviews.append((delivery, body))
            requests.append(_request("pull_request", body, delivery))
            expected_jobs += 1
    return requests, expected_jobs


async def _run(port: int, rate: float, requests: list[bytes], connections: int) -> tuple[list[float], dict[str, int]]:
    """Open loop: request i is due at start + i/rate; latency counts from when it was due (no coordinated
    omission), over `connections` keep-alive connections."""
    latencies: list[float] = []
    statuses: dict[str, int] = {}
    due: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()

    async def connection() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        while (item := await due.get()) is not None:
            at, raw = item
            writer.write(raw)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = await reader.readexactly(length)
            latencies.append(time.perf_counter() - at)
            key = f"{head.split(b' ')[1].decode()} {json.loads(body).get('status')}"
            statuses[key] = statuses.get(key, 0) + 1
        writer.close()

    workers = [asyncio.create_task(connection()) for _ in range(connections)]
    await asyncio.sleep(0.2)
    start = time.perf_counter() + 0.1
    for i, raw in enumerate(requests):
        at = start + i / rate
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        due.put_nowait((at, raw))
    for _ in workers:
        due.put_nowait(None)
    await asyncio.gather(*workers)
    return latencies, statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--connections", type=int, default=16, help="keep-alive connections (GitHub opens many)")
    args = parser.parse_args()
    redis = Redis.from_url(REDIS_URL)
    redis.flushdb()
    port = _free_port()
    env = {
        **os.environ,
        "APP_ID": "1",
        "PRIVATE_KEY": "unused-by-the-web-service",
        "WEBHOOK_SECRET": SECRET,
        "REDIS_URL": REDIS_URL,
        "GITHUB_API_URL": "http://127.0.0.1:9",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--log-level", "warning"], cwd=ROOT, env=env
    )
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
        requests, expected_jobs = _plan(args.rate, args.seconds)
        cpu_before, load_before = _cpu_seconds(server.pid), os.getloadavg()[0]
        latencies, statuses = asyncio.run(_run(port, args.rate, requests, args.connections))
        cpu = _cpu_seconds(server.pid) - cpu_before
    finally:
        server.terminate()
        server.wait(10)
    queued = redis.llen("rq:queue:toolchoice")
    redis.flushdb()
    ms = sorted(x * 1000 for x in latencies)

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, round(p / 100 * len(ms)) - 1)]

    print(f"deliveries sent: {len(ms)} at {args.rate:g}/s for {args.seconds:g}s")
    print(f"ack latency ms: p50 {statistics.median(ms):.1f}  p95 {pct(95):.1f}  p99 {pct(99):.1f}  max {ms[-1]:.1f}")
    print(f"answers: {dict(sorted(statuses.items()))}")
    print(
        f"web process CPU: {cpu * 1000 / len(ms):.2f} ms per delivery; load average before/after: "
        f"{load_before:.1f}/{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        f"review deliveries {expected_jobs}, jobs in the queue {queued}: "
        + ("none lost, none doubled" if queued == expected_jobs else "MISMATCH")
    )


if __name__ == "__main__":
    main()
