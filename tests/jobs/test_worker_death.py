"""A real `toolchoice worker` whose job process is killed mid-review still completes the check run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from github.conftest import INSTALLATION_ID, OWNER, REPO, Rig, repo_files, webhook_payload
from github.toolsets import BASE_TOOLS, head_tools, tools_json

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.corpus, pytest.mark.slow]


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


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the job process through /proc (Linux)")
def test_killed_job_process_completes_its_check_run(rig: Rig) -> None:
    repo = rig.fake.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    base = repo.commit(repo_files(tools_json(BASE_TOOLS)))
    head = repo.commit(repo_files(tools_json(head_tools())), parent=base)
    repo.open_pull(9, base=base, head=head)
    assert (
        rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=9, base=base, head=head)).status
        == 202
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "worker", "--burst", "--log-level", "warning"], cwd=ROOT, env=dict(os.environ)
    )
    killed: list[int] = []

    def kill_job_process(_: object) -> None:
        if not killed:  # the job is reading the trees: its process (RQ's work horse) dies now
            for pid in _children(worker.pid):
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

    rig.fake.on("git/get-tree", kill_job_process)
    try:
        assert worker.wait(120) == 0
    finally:
        if worker.poll() is None:
            worker.kill()
    assert killed, "the job never reached the trees"
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["status"] == "completed" and run["conclusion"] == "failure"
    assert "worker process died" in run["output"]["summary"]
    assert rig.fake.comments(OWNER, REPO, 9) == []
