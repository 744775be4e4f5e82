"""The Action as a workflow runs it: action.yml's review step run by bash with GitHub's own `pull_request`
payload (GITHUB_EVENT_PATH), a temporary repository with real commits, and the fake GitHub API (every request
checked against GitHub's OpenAPI description) for the sticky comment."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import shared_path
from fakes.github_api import FakeGitHub
from git_work import GitWork

from app.commands.options import CommonOptions
from app.commands.pair import compare_pair, git_pair
from app.github.publisher import STICKY_MARKER, sticky_body
from app.redaction.redact import redact_result
from app.render.markdown import render_comparison

pytestmark = pytest.mark.corpus

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "app" / "demo"
OWNER, REPO, NUMBER = "octo-org", "tool-server", 7
RUN_URL = f"https://github.com/{OWNER}/{REPO}/actions/runs/4242"
# The PR tries to plant a module the Action would import if it ran code from the checkout.
PLANTED = "import pathlib\npathlib.Path('PLANTED_RAN').write_text('ran')\n"


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    github = FakeGitHub(shared_path("github", "rest-api-subset.openapi.json")).start()
    github.repo(OWNER, REPO)
    yield github
    github.stop()
    github.assert_clean()


@dataclass
class Workflow:
    """One repository and the files a runner gives a step: event payload, summary, outputs, temp folder."""

    repo: GitWork
    runner_temp: Path
    fake: FakeGitHub
    base: str
    head: str = ""
    head_repo: str = f"{OWNER}/{REPO}"
    event_name: str = "pull_request"
    extra_env: dict[str, str] = field(default_factory=dict)

    def event(self) -> Path:
        data = json.loads(shared_path("github", "webhooks", "pull_request.opened.1.json").read_text())
        data["number"] = data["pull_request"]["number"] = NUMBER
        pr = data["pull_request"]
        pr["base"]["sha"], pr["head"]["sha"] = self.base, self.head
        pr["base"]["repo"]["full_name"], pr["head"]["repo"]["full_name"] = f"{OWNER}/{REPO}", self.head_repo
        path = self.runner_temp / "event.json"
        path.write_text(json.dumps(data))
        return path

    def run(self, **inputs: str) -> subprocess.CompletedProcess[str]:
        """action.yml's `review` step, its `${{ inputs.* }}` filled from `inputs` over the defaults."""
        action = yaml.safe_load((ROOT / "action.yml").read_text())
        step = next(s for s in action["runs"]["steps"] if s.get("id") == "review")
        values = {k: str(v.get("default", "")) for k, v in action["inputs"].items()} | inputs
        values["github-token"] = inputs.get("github-token", "ghs_workflowtoken")

        def fill(text: str) -> str:
            return re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: values[m[1]], text)

        for name in ("summary.md", "output.txt"):
            (self.runner_temp / name).unlink(missing_ok=True)
        env = {
            "PATH": os.environ["PATH"],
            "HOME": "/nonexistent",
            "RUNNER_TEMP": str(self.runner_temp),
            "GITHUB_EVENT_NAME": self.event_name,
            "GITHUB_EVENT_PATH": str(self.event()),
            "GITHUB_REPOSITORY": f"{OWNER}/{REPO}",
            "GITHUB_WORKSPACE": str(self.repo.root),
            "GITHUB_API_URL": self.fake.url,
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_RUN_ID": "4242",
            "GITHUB_STEP_SUMMARY": str(self.runner_temp / "summary.md"),
            "GITHUB_OUTPUT": str(self.runner_temp / "output.txt"),
            **{k: fill(str(v)) for k, v in step["env"].items()},
            **self.extra_env,
        }
        return subprocess.run(
            ["bash", "-e", "-c", step["run"]], cwd=self.repo.root, env=env, capture_output=True, text=True, timeout=300
        )

    def outputs(self) -> dict[str, str]:
        text = (self.runner_temp / "output.txt").read_text()
        return {m[1]: m[3] for m in re.finditer(r"^([\w-]+)<<(\S+)\n(.*?)\n?\2$", text, re.S | re.M)}

    def summary(self) -> str:
        return (self.runner_temp / "summary.md").read_text()


def _venv_stand_in(runner_temp: Path) -> None:
    """$RUNNER_TEMP/toolchoice/bin/python as the install step would leave it, running this checkout's code.
    It refuses to run without `-I` (isolated mode), which keeps the workspace off the import path."""
    python = runner_temp / "toolchoice" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(
        "#!/bin/sh\n"
        '[ "$1" = "-I" ] && [ "$2" = "-m" ] || { echo "not run in isolated mode" >&2; exit 97; }\n'
        'module="$3"; shift 3\n'
        f'exec "{sys.executable}" -I -c "import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); '
        f'runpy.run_module(sys.argv.pop(1), run_name=\'__main__\', alter_sys=True)" "{ROOT}" "$module" "$@"\n'
    )
    python.chmod(python.stat().st_mode | stat.S_IEXEC)


@pytest.fixture
def flow(tmp_path: Path, fake: FakeGitHub) -> Workflow:
    repo = GitWork(tmp_path / "workspace")
    base = repo.commit({"mcp/tools.json": (DEMO / "before.json").read_text(), "README.md": "# server\n"})
    repo.branch("feature")
    head = repo.commit({"mcp/tools.json": (DEMO / "after.json").read_text(), "app/action/__main__.py": PLANTED})
    runner_temp = tmp_path / "runner"
    _venv_stand_in(runner_temp)
    return Workflow(repo=repo, runner_temp=runner_temp, fake=fake, base=base, head=head)


def _comments(fake: FakeGitHub) -> list[dict[str, Any]]:
    return fake.comments(OWNER, REPO, NUMBER)


def test_comment_is_created_then_updated_in_place(flow: Workflow) -> None:
    first = flow.run()
    assert first.returncode == 0, first.stdout + first.stderr
    [comment] = _comments(flow.fake)
    assert comment["body"].startswith(STICKY_MARKER)
    assert flow.outputs() == {
        "conclusion": "success",
        "comment": "created",
        "comment-id": str(comment["id"]),
        "sarif-file": "",
        "changed-files": "mcp/tools.json",
    }
    first_body = comment["body"]
    # The App's renderer and marker, from the same comparison: App and Action edit one and the same comment.
    pair = git_pair(flow.repo.root, flow.base, flow.head, common=CommonOptions())
    body = render_comparison(redact_result(compare_pair(pair)), report_url=RUN_URL, max_chars=65000)
    # The review as the App renders it, then the suggested edits' section the App would add too.
    review = sticky_body(body, report_url=RUN_URL)
    assert comment["body"].startswith(review.rstrip("\n")) and "### Suggested description edits" in comment["body"]
    assert comment["edits"] == 1  # the section is added to the comment this run created
    assert body in flow.summary()
    assert not (flow.repo.root / "PLANTED_RAN").exists()  # the pull request's own module never ran

    flow.head = flow.repo.commit({"mcp/tools.json": (DEMO / "before.json").read_text().replace("ticket", "case")})
    second = flow.run()
    assert second.returncode == 0, second.stdout + second.stderr
    [updated] = _comments(flow.fake)
    assert (updated["id"], updated["edits"]) == (comment["id"], 3)  # the review, then its suggestions' section
    assert updated["body"] != first_body and flow.head[:12] in updated["body"]
    assert flow.outputs()["comment"] == "updated"
    assert [r.operation_id for r in flow.fake.requests].count("issues/create-comment") == 1


def test_the_apps_comment_is_edited_never_a_second_one(flow: Workflow) -> None:
    flow.fake.repo(OWNER, REPO).comments.append(
        {"id": 5, "issue_number": NUMBER, "body": sticky_body("posted by the App"), "edits": 0}
    )
    assert flow.run().returncode == 0
    [comment] = _comments(flow.fake)
    assert comment["id"] == 5 and comment["edits"] == 2 and "posted by the App" not in comment["body"]


def test_gate_fails_the_step_after_comment_summary_and_sarif(flow: Workflow) -> None:
    out = flow.run(**{"fail-on-regression": "true", "sarif": "true"})
    assert out.returncode == 1
    assert "::error::ToolChoice gate failed:" in out.stdout and "regress" in out.stdout
    outputs = flow.outputs()
    assert outputs["conclusion"] == "failure" and outputs["comment"] == "created"
    sarif = json.loads(Path(outputs["sarif-file"]).read_text())
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"]
    assert "The gate failed" in flow.summary()


def test_suggested_edits_are_posted_as_one_review_with_the_runs_token(flow: Workflow) -> None:
    # GitHub lists the pull request's files with their patch: the same two snapshots as the checkout.
    fake_repo = flow.fake.repo(OWNER, REPO)
    base = fake_repo.commit({"mcp/tools.json": (DEMO / "before.json").read_text()})
    head = fake_repo.commit({"mcp/tools.json": (DEMO / "after.json").read_text()}, parent=base)
    fake_repo.open_pull(NUMBER, base=base, head=head)
    out = flow.run()
    assert out.returncode == 0, out.stdout + out.stderr
    [review] = flow.fake.reviews(OWNER, REPO, NUMBER)
    assert review["event"] == "COMMENT" and review["commit_id"] == flow.head
    assert review["comments"] and all("```suggestion" in c["body"] for c in review["comments"])
    [comment] = _comments(flow.fake)
    assert "### Suggested description edits" in comment["body"]


def test_a_fork_run_posts_no_suggestions(flow: Workflow) -> None:
    flow.head_repo = "someone/tool-server-fork"
    assert flow.run().returncode == 0
    assert not flow.fake.calls("pulls/create-review") and not flow.fake.calls("pulls/list-files")


def test_fork_pull_request_does_not_comment(flow: Workflow) -> None:
    flow.head_repo = "someone/tool-server-fork"
    out = flow.run()
    assert out.returncode == 0
    assert "::notice::" in out.stdout and "fork" in out.stdout
    assert not [r for r in flow.fake.requests if r.operation_id.startswith("issues/")]
    assert "ToolChoice tool-selection review" in flow.summary()


def test_refused_token_is_a_warning_not_a_failure(flow: Workflow) -> None:
    flow.fake.fail("issues/create-comment", status=403, message="Resource not accessible by integration")
    out = flow.run()
    assert out.returncode == 0
    assert "::warning::" in out.stdout and "pull-requests: write" in out.stdout
    assert flow.outputs()["comment"] == "skipped: GitHub refused (403)"


def test_no_definition_change_updates_only_an_existing_comment(flow: Workflow) -> None:
    flow.base = flow.head
    flow.head = flow.repo.commit({"README.md": "# server, documented\n"})
    assert flow.run().returncode == 0
    assert _comments(flow.fake) == []  # on_change: nothing to say on a pull request without definition changes
    flow.fake.repo(OWNER, REPO).comments.append(
        {"id": 9, "issue_number": NUMBER, "body": sticky_body("an earlier review"), "edits": 0}
    )
    assert flow.run().returncode == 0
    [comment] = _comments(flow.fake)
    assert "No tool definitions changed" in comment["body"] and comment["edits"] == 1


def test_a_config_whose_paths_match_no_file_fails_the_step_with_one_line(flow: Workflow) -> None:
    flow.base = flow.repo.commit({"mcp/tools.json": None, "app/action/__main__.py": None})
    flow.head = flow.repo.commit({"README.md": "# server, documented\n"})
    out = flow.run()
    assert out.returncode == 2, out.stdout + out.stderr
    assert "::error::ToolChoice: no tool-definition files at" in out.stdout and "Set `paths:`" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_not_a_pull_request_event_is_a_clear_error(flow: Workflow) -> None:
    flow.event_name = "push"
    out = flow.run()
    assert out.returncode == 2
    assert "::error::ToolChoice:" in out.stdout and "on: pull_request" in out.stdout


def test_invalid_unicode_in_the_head_fails_the_step_with_one_line(flow: Workflow) -> None:
    tools = json.loads((DEMO / "after.json").read_text())
    listed = tools["tools"] if isinstance(tools, dict) else tools
    listed[0]["description"] = "Search \ud800 the catalogue."
    flow.head = flow.repo.commit({"mcp/tools.json": json.dumps(tools, indent=2)})
    out = flow.run()
    assert out.returncode == 2, out.stdout + out.stderr
    assert "::error::" in out.stdout and "mcp/tools.json:" in out.stdout and "lone surrogate U+D800" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr
    assert _comments(flow.fake) == []


NOTES_SERVER = (ROOT / "tests" / "fixtures" / "servers" / "built_notes_server.py").read_text()
NOTES_BUILD = "mkdir -p build && cp describe.src build/describe.txt"


def _server_flow(flow: Workflow) -> None:
    """Base and head of a repository whose tools only its running (built) server knows."""
    flow.base = flow.repo.commit({"server.py": NOTES_SERVER, "describe.src": "Find notes.\n", ".gitignore": "build/\n"})
    flow.head = flow.repo.commit({"describe.src": "Find notes whose title or text matches a query, newest first.\n"})


def test_the_servers_at_both_sides_are_built_and_listed(flow: Workflow) -> None:
    _server_flow(flow)
    out = flow.run(**{"server-command": f"{sys.executable} server.py", "build-command": NOTES_BUILD})
    assert out.returncode == 0, out.stdout + out.stderr
    assert "tools listed by the running server notes" in out.stdout
    [comment] = _comments(flow.fake)
    assert "find_notes" in comment["body"]
    assert flow.repo.git("worktree", "list", "--porcelain").count("worktree ") == 1


def test_no_server_is_started_on_pull_request_target(flow: Workflow) -> None:
    _server_flow(flow)
    flow.event_name = "pull_request_target"
    out = flow.run(**{"server-command": f"{sys.executable} server.py", "build-command": NOTES_BUILD})
    assert out.returncode == 2
    assert "::error::ToolChoice: a server is not started on pull_request_target" in out.stdout
    assert _comments(flow.fake) == []
