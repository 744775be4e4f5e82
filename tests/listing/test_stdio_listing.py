"""Listing a running MCP server: exactly what it sends, a scrubbed environment, one clear line when it fails."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.listing.stdio import ServerListingError, child_env, list_tools
from tests.listing.raw import raw_tools

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "tests" / "fixtures" / "servers" / "tickets_server.py"
COMMAND = f"{sys.executable} {SERVER}"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=180
    )


def test_the_tools_are_listed_exactly_as_the_server_sends_them() -> None:
    listed = list_tools(COMMAND)
    assert [t["name"] for t in listed.tools] == ["get_ticket", "close_ticket", "search_tickets"]
    assert listed.tools == raw_tools([sys.executable, str(SERVER)])
    # The SDK sends the whole docstring, Args section and indentation included.
    assert "Args:\n        ticket_id: The ticket's id, such as T-1042." in listed.tools[0]["description"]
    assert listed.server.startswith("tickets")
    assert listed.seconds > 0
    assert json.loads(listed.as_json()) == {"tools": listed.tools}


def test_the_server_gets_no_credential_it_was_not_given() -> None:
    environ = {"PATH": "/usr/bin", "HOME": "/home/ci", "GITHUB_TOKEN": "ghp_x", "OPENAI_API_KEY": "sk-x", "DB_URL": "d"}
    assert child_env(environ=environ) == {"PATH": "/usr/bin", "HOME": "/home/ci"}
    assert child_env(["DB_URL"], environ=environ) == {"PATH": "/usr/bin", "HOME": "/home/ci", "DB_URL": "d"}


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        ("--fail-at-start", "failed at initialize: Connection closed; its stderr ended with: tickets: cannot read the "
         "database settings (DB_URL is not set)"),
        ("--noise", "wrote to stdout what is not MCP protocol: 'Starting tickets server on stdio...'"),
    ],
)  # fmt: skip
def test_a_server_that_breaks_is_one_line_naming_the_command_and_the_phase(flags: str, says: str) -> None:
    with pytest.raises(ServerListingError) as caught:
        list_tools(f"{COMMAND} {flags}", timeout_s=30)
    message = str(caught.value)
    assert message.startswith(f"server command {f'{COMMAND} {flags}'!r}")
    assert says in message
    assert "\n" not in message


def test_a_command_that_cannot_run_fails_at_start() -> None:
    with pytest.raises(ServerListingError, match=r"failed at start: cannot run it \(No such file or directory\)"):
        list_tools("/nonexistent/mcp-server --stdio", timeout_s=10)
    with pytest.raises(ServerListingError, match="--server-command is empty"):
        list_tools("   ")


def test_a_server_that_never_answers_is_stopped_at_the_time_limit_and_left_running_nowhere() -> None:
    started = time.perf_counter()
    with pytest.raises(ServerListingError, match=r"failed at initialize: no answer within 2 s"):
        list_tools(f"{COMMAND} --hang", timeout_s=2)
    assert time.perf_counter() - started < 30
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-f", f"{SERVER} --hang"], capture_output=True, text=True)
    assert left.stdout.strip() == "", "the hanging server was left running"


def test_audit_from_a_running_server_says_where_the_tools_came_from() -> None:
    done = cli("audit", "--server-command", COMMAND, "-f", "json")
    assert done.returncode == 0, done.stderr
    assert "3 tools listed by the running server tickets" in done.stderr
    report = json.loads(done.stdout)
    names = sorted(t["tool"] for t in report["tool_scores"]) if "tool_scores" in report else None
    assert names in (None, ["close_ticket", "get_ticket", "search_tickets"])
    assert COMMAND in done.stdout  # the report names the listing as its source


def test_audit_of_a_broken_server_exits_2_with_one_line() -> None:
    done = cli("audit", "--server-command", f"{COMMAND} --fail-at-start")
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "failed at initialize" in lines[0] and "Traceback" not in done.stderr
    both = cli("audit", str(ROOT / "app" / "demo" / "after.json"), "--server-command", COMMAND)
    assert both.returncode == 2 and "not both" in both.stderr


EVERYTHING = "@modelcontextprotocol/server-everything"


@pytest.fixture(scope="module")
def everything(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference server from npm, installed once into a temporary folder (skipped when npm cannot fetch it)."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed")
    folder = tmp_path_factory.mktemp("everything")
    try:
        done = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--silent", EVERYTHING],
            cwd=folder, capture_output=True, text=True, timeout=240,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.skip(f"npm could not install {EVERYTHING} within 240 s")
    binary = folder / "node_modules" / ".bin" / "mcp-server-everything"
    if done.returncode != 0 or not binary.exists():
        pytest.skip(f"npm could not install {EVERYTHING}: {(done.stderr or done.stdout).strip()[-200:]}")
    return binary


@pytest.mark.slow
def test_the_reference_server_from_npm_is_listed_exactly(everything: Path) -> None:
    listed = list_tools(f"{everything} stdio", timeout_s=120)
    assert len(listed.tools) >= 5
    assert {"echo", "get-sum"} <= {t["name"] for t in listed.tools}
    assert listed.tools == raw_tools([str(everything), "stdio"])


def test_snapshots_of_the_running_server_are_read_back_as_the_same_tools(tmp_path: Path) -> None:
    folder = tmp_path / "repo" / "pkg" / "__toolsnaps__"
    folder.mkdir(parents=True)
    (folder / "deleted_tool.snap").write_text('{"name": "deleted_tool", "inputSchema": {"type": "object"}}\n')
    done = cli("snapshots", str(folder), "--server-command", COMMAND)
    assert done.returncode == 0, done.stderr
    assert "wrote 3 snapshots" in done.stderr and "1 stale removed" in done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["close_ticket.snap", "get_ticket.snap", "search_tickets.snap"]
    listed = {t["name"]: t for t in list_tools(COMMAND).tools}
    assert json.loads((folder / "get_ticket.snap").read_text()) == listed["get_ticket"]
    # The default `paths` read snapshots: no config needed.
    audited = cli("audit", str(tmp_path / "repo"), "-f", "json")
    assert audited.returncode == 0, audited.stderr
    assert all(name in audited.stdout for name in listed)
    assert "deleted_tool" not in audited.stdout
