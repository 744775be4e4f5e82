"""`toolchoice diff --git BASE [HEAD]`: both sides read from the object store the way the App reads a pull
request, formats and gates as `diff`, and one-line errors for a folder outside git, an unknown ref, no files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from git_work import GitWork
from test_cli import toolchoice

from app.action.context import PullRequestEvent
from app.action.git_source import GitSource
from app.commands.git_repo import GitRepo
from app.commands.git_sides import load_git_sides
from app.config import load_config
from app.review.plan import plan_review

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "app" / "demo"
SERVER_PY = '''from mcp.server.fastmcp import FastMCP

mcp = FastMCP("hosts")


@mcp.tool()
def ping_host(host: str) -> str:
    """Pings a host and returns the round-trip time in milliseconds."""
    return host
'''
CONFIG = 'paths: ["mcp/tools.json", "src/**/*.py"]\n'


@pytest.fixture
def repo(tmp_path: Path) -> GitWork:
    """main: the demo's 'before' tools and a config; feature: the 'after' tools and a Python server."""
    work = GitWork(tmp_path / "repo")
    work.commit(
        {
            "mcp/tools.json": (DEMO / "before.json").read_text(),
            ".github/toolchoice.yml": CONFIG,
            "README.md": "# server\n",
        }
    )
    work.branch("feature")
    work.commit({"mcp/tools.json": (DEMO / "after.json").read_text(), "src/server.py": SERVER_PY})
    return work


def _source(git: GitRepo, base: str, head: str) -> GitSource:
    """The App's Source over the local repository, as the Action reads its pull request."""
    event = PullRequestEvent(number=1, base_sha=base, head_sha=head, base_repo="o/r", head_repo="o/r")
    return GitSource(git, event)


def test_sides_are_the_ones_the_app_reads(repo: GitWork) -> None:
    git = GitRepo(repo.root)
    base, head = git.commit("main"), git.commit("feature")
    sides = load_git_sides(git, "main", "feature")
    config = load_config(".github/toolchoice.yml", text=CONFIG)
    source = _source(git, base, head)
    plan = plan_review(source, number=1, base_sha=base, head_sha=head, config=config, report_url=None)
    assert plan.request is not None
    assert sides.base.model_dump() == plan.request.base.model_dump()
    assert sides.head.model_dump() == plan.request.head.model_dump()
    assert (sides.merge_base, sides.head_sha) == (plan.request.base_ref, plan.request.head_ref)
    # The source file is read statically on the head side (the App reads it the same way now).
    assert "ping_host" in sides.head.names() and "ping_host" not in sides.base.names()
    assert sides.changed == ["mcp/tools.json", "src/server.py"]


def test_reads_commits_not_the_working_tree(repo: GitWork) -> None:
    repo.write({"src/server.py": SERVER_PY.replace("ping_host", "changed_on_disk"), "mcp/tools.json": "not json"})
    sides = load_git_sides(GitRepo(repo.root / "src"), "main")  # from a subfolder; HEAD is feature
    assert "ping_host" in sides.head.names() and "changed_on_disk" not in sides.head.names()


def test_config_and_cases_come_from_the_base(repo: GitWork) -> None:
    repo.commit({".github/toolchoice.yml": 'paths: ["src/**/*.py"]\ncases: cases.yml\n'})
    sides = load_git_sides(GitRepo(repo.root), "main")
    assert sides.config.paths == ["mcp/tools.json", "src/**/*.py"]  # main's config applies
    assert any("changes .github/toolchoice.yml" in note for note in sides.notes)


@pytest.mark.slow
def test_formats_and_gates_match_diff(repo: GitWork) -> None:
    text = toolchoice("diff", "--git", "main", cwd=repo.root)
    assert text.returncode == 0, text.stderr
    assert "ping_host" in text.stdout and "Overall" in text.stdout
    out = toolchoice("diff", "--git", "main", "feature", "-f", "json", cwd=repo.root)
    data = json.loads(out.stdout)
    assert data["kind"] == "comparison"
    assert data["comparison"]["base_ref"] == GitRepo(repo.root).merge_base("main", "feature")
    added = [c["tool"] for c in data["comparison"]["tool_changes"] if c["change"] == "added"]
    assert added == ["ping_host"]
    md = toolchoice("diff", "--git", "main", "-f", "md", cwd=repo.root)
    assert md.stdout.startswith("### ToolChoice") and "(merge base)" in md.stdout
    sarif = json.loads(toolchoice("diff", "--git", "main", "-f", "sarif", cwd=repo.root).stdout)
    assert sarif["version"] == "2.1.0"
    assert {"mcp/tools.json", "src/server.py"} <= {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]
    }
    gated = toolchoice("diff", "--git", "main", "--fail-on-regression", cwd=repo.root)
    assert gated.returncode == 1 and "gate failed" in gated.stderr


def test_errors_are_one_line(repo: GitWork, tmp_path: Path) -> None:
    outside = tmp_path / "plain"
    outside.mkdir()
    cases = {
        "not a git repository": toolchoice("diff", "--git", "main", cwd=outside),
        "unknown revision 'nope'": toolchoice("diff", "--git", "nope", cwd=repo.root),
        "diff needs BASE and HEAD": toolchoice("diff", "main", cwd=repo.root),
    }
    for expected, out in cases.items():
        assert out.returncode == 2, (expected, out.stderr)
        assert expected in out.stderr and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1


def test_no_definition_files_says_what_was_looked_for(tmp_path: Path) -> None:
    work = GitWork(tmp_path / "empty")
    work.commit({"README.md": "# nothing here\n"})
    work.branch("feature")
    work.commit({"notes.txt": "still nothing\n"})
    out = toolchoice("diff", "--git", "main", cwd=work.root)
    assert out.returncode == 2
    assert "no tool-definition files" in out.stderr and "**/tools.json" in out.stderr


def test_values_imported_from_another_file_are_read_at_each_commit(tmp_path: Path) -> None:
    work = GitWork(tmp_path / "imports")
    server = SERVER_PY.replace('@mcp.tool()', '@mcp.tool(description=PING)').replace(
        "from mcp.server.fastmcp import FastMCP", "from mcp.server.fastmcp import FastMCP\nfrom .texts import PING"
    )
    work.commit(
        {
            ".github/toolchoice.yml": 'paths: ["src/server.py"]\n',
            "src/server.py": server,
            "src/texts.py": 'PING = "Pings a host and returns the round-trip time."\n',
        }
    )
    work.branch("feature")
    work.commit({"src/texts.py": 'PING = "Sends an ICMP echo to a host and returns the round-trip time."\n'})
    work.write({"src/texts.py": 'PING = "only in the working tree"\n'})
    sides = load_git_sides(GitRepo(work.root), "main")
    assert [t.description for t in sides.base.tools] == ["Pings a host and returns the round-trip time."]
    [head_tool] = sides.head.tools
    assert head_tool.description == "Sends an ICMP echo to a host and returns the round-trip time."
    # Only the imported file changed, not a definition file: the tools still differ, so the Action reviews it.
    assert sides.changed == [] and sides.definitions_changed()


def test_unreadable_registrations_are_said_on_the_pr_and_in_the_cli(repo: GitWork) -> None:
    loop = "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n"
    loop += "for s in specs():\n    mcp.tool(name=s.n)(s.f)\n"
    repo.commit({"src/server.py": loop})
    git = GitRepo(repo.root)
    base, head = git.commit("main"), git.commit("feature")
    config = load_config(".github/toolchoice.yml", text=CONFIG)
    source = _source(git, base, head)
    plan = plan_review(source, number=1, base_sha=base, head_sha=head, config=config, report_url=None)
    assert plan.request is not None
    assert any(n.startswith("Head: No tool could be read from the 1 line that looks like tool") for n in plan.notes)
    sides = load_git_sides(git, "main", "feature")
    assert any("No tool could be read" in n for n in sides.notes)
