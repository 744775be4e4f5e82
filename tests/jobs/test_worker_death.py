"""A real `toolchoice worker` killed mid-review (its job process, or the whole worker) still completes the check
run, saying why and what happens next, and the review then runs normally."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from github.conftest import OWNER, REPO, Rig, repo_files, seed_pull, webhook_payload
from github.toolsets import head_tools, tools_json
from rq.registry import StartedJobRegistry

from app.jobs.worker import JOB_MONITORING_INTERVAL_S

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the job process through /proc (Linux)"),
]


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _worker(*, burst: bool) -> subprocess.Popen:
    args = [sys.executable, "-m", "app.cli", "worker", "--log-level", "warning", *(["--burst"] if burst else [])]
    # A session of its own, so the whole worker (parent and job process) can be killed at once.
    return subprocess.Popen(args, cwd=ROOT, env=dict(os.environ), start_new_session=True)


def _wait(proc: subprocess.Popen, timeout: float = 120) -> int:
    try:
        return proc.wait(timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _published_normally(rig: Rig, head: str) -> None:
    runs = rig.fake.check_runs(OWNER, REPO, head)
    assert all(r["status"] == "completed" for r in rig.fake.check_runs(OWNER, REPO))
    assert runs[-1]["conclusion"] == "success"
    (comment,) = rig.fake.comments(OWNER, REPO, 9)
    assert head[:12] in comment["body"]


def test_killed_job_process_completes_its_check_run_and_the_retry_reviews(rig: Rig) -> None:
    base, head = seed_pull(rig, number=9)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=9, base=base, head=head))
    worker = _worker(burst=True)
    killed: list[int] = []

    def kill_job_process(_: object) -> None:
        if not killed:  # the job is reading the trees: its process (RQ's work horse) dies now
            for pid in _children(worker.pid):
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

    rig.fake.on("git/get-tree", kill_job_process)
    assert _wait(worker) == 0
    assert killed, "the job never reached the trees"
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["status"] == "completed" and run["conclusion"] == "neutral"
    assert "worker process died" in run["output"]["summary"] and "Re-run" in run["output"]["summary"]
    assert rig.fake.comments(OWNER, REPO, 9) == []
    assert rig.release_retries() == 1
    assert _wait(_worker(burst=True)) == 0
    _published_normally(rig, head)


def test_sigkilled_worker_is_found_by_maintenance_its_check_completed_and_the_next_push_reviewed(rig: Rig) -> None:
    base, head = seed_pull(rig, number=9)
    worker = _worker(burst=False)
    reached: list[float] = []
    rig.fake.on("git/get-tree", lambda _: reached.append(time.monotonic()))
    rig.fake.fail("git/get-tree", status=502, message="held up")  # keeps the job inside its review
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=9, base=base, head=head))
    deadline = time.monotonic() + 60
    while not reached and time.monotonic() < deadline:
        time.sleep(0.05)
    assert reached, "the job never reached the trees"
    os.killpg(worker.pid, signal.SIGKILL)  # the worker and its job process, with no chance to clean up
    _wait(worker)
    rig.fake.heal()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["status"] == "in_progress"  # nothing of the dead worker could complete it
    # A live worker's maintenance once the dead one's heartbeat has lapsed (monitoring interval + RQ's 60 s).
    lapsed = time.time() + JOB_MONITORING_INTERVAL_S + 61
    StartedJobRegistry(queue=rig.queue()).cleanup(timestamp=lapsed)
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["status"] == "completed" and run["conclusion"] == "neutral"
    assert "worker running it stopped" in run["output"]["summary"]
    assert rig.release_retries() == 1
    assert _wait(_worker(burst=True)) == 0
    _published_normally(rig, head)
    repo = rig.fake.repo(OWNER, REPO)
    newer = repo.commit(repo_files(tools_json(head_tools()[:2])), parent=head)
    repo.push(9, newer)
    sync = webhook_payload("pull_request.synchronize.1", number=9, base=base, head=newer)
    assert rig.deliver("pull_request", sync).body["status"] == "queued"
    assert _wait(_worker(burst=True)) == 0
    _published_normally(rig, newer)
