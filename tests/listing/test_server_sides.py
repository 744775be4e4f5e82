"""Both sides of a before/after listed by their running servers: the config's `server:` section with flags over it,
install and build in a temporary worktree of each commit, one clear line when a step fails, nothing left behind."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.commands.server import ServerFlags, server_config
from app.config import RepoConfig, ServerConfig, load_config
from app.errors import ConfigError, InputError
from app.listing.stdio import ServerListingError
from app.listing.steps import run_step
from tests.git_work import GitWork

# A server whose one description is made by the build step: listing it proves install and build ran in the worktree.
SERVER = (Path(__file__).resolve().parents[1] / "fixtures" / "servers" / "built_notes_server.py").read_text()
BUILD = "mkdir -p build && cp describe.src build/describe.txt"
COMMAND = f"{sys.executable} server.py"


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def _repo(tmp_path: Path, *, config: str = "") -> GitWork:
    work = GitWork(tmp_path / "repo")
    files = {"server.py": SERVER, "describe.src": "Find notes whose text matches a query.\n", ".gitignore": "build/\n"}
    if config:
        files[".github/toolchoice.yml"] = config
    work.commit(files, "notes server")
    work.commit({"describe.src": "Find notes whose title or text matches a query, newest first.\n"}, "describe")
    return work


def test_flags_go_over_the_config_and_nothing_starts_without_a_command() -> None:
    config = RepoConfig(server=ServerConfig(command="node dist/index.js", env=["DB_URL"], build="npm run build"))
    merged = server_config(ServerFlags(env=["API_KEY"], timeout_s=5), config)
    assert merged is not None
    assert (merged.command, merged.env, merged.timeout_s, merged.build) == (
        "node dist/index.js", ["DB_URL", "API_KEY"], 5, "npm run build"
    )
    assert server_config(ServerFlags(command="uv run srv"), RepoConfig()) == ServerConfig(command="uv run srv")
    assert server_config(ServerFlags(), RepoConfig()) is None
    with pytest.raises(InputError, match="need a server command"):
        server_config(ServerFlags(build="make"), RepoConfig())


def test_the_config_keeps_the_server_inside_the_repository() -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(".github/toolchoice.yml", text="server:\n  command: node x.js\n  cwd: ../elsewhere\n")
    assert "inside the repository" in str(caught.value)
    assert "line 3" in str(caught.value) or ":3" in str(caught.value)


def test_a_step_that_fails_or_hangs_is_one_line_and_leaves_nothing_running(tmp_path: Path) -> None:
    assert run_step("true", step="install", cwd=tmp_path) >= 0
    with pytest.raises(ServerListingError) as caught:
        run_step("echo compiling; echo 'missing module left-pad' >&2; exit 4", step="build", cwd=tmp_path)
    assert str(caught.value) == ("build command \"echo compiling; echo 'missing module left-pad' >&2; exit 4\" failed "
                                 "(exit 4); its output ended with: missing module left-pad")
    marker = tmp_path / "still-running"
    with pytest.raises(ServerListingError, match=r"did not finish within 1 s; its output ended with: waiting"):
        run_step(f"echo waiting; (sleep 3; touch {marker}) & sleep 30", step="install", cwd=tmp_path, timeout_s=1)
    subprocess.run(["sleep", "4"], check=True)
    assert not marker.exists()  # the whole process group was stopped, the background child too


def test_diff_git_lists_each_side_after_building_it_in_a_worktree(tmp_path: Path) -> None:
    work = _repo(tmp_path)
    out = cli(work.root, "diff", "--git", "HEAD~1", "HEAD", "--server-command", COMMAND, "--build-command", BUILD,
              "--format", "json")
    assert out.returncode == 0, out.stderr
    export = json.loads(out.stdout)
    changed = {c["tool"]: c for c in export["comparison"]["tool_changes"]}
    assert set(changed) == {"find_notes"}
    assert "base" in out.stderr and "head" in out.stderr and "tools listed by the running server notes" in out.stderr
    assert "build ('mkdir -p build" in out.stderr
    worktrees = work.git("worktree", "list", "--porcelain")
    assert worktrees.count("worktree ") == 1  # the temporary ones are gone
    assert not (work.root / "build").exists()  # the checkout here was never built in


def test_the_config_at_base_names_the_server(tmp_path: Path) -> None:
    config = f"server:\n  command: {COMMAND}\n  build: {BUILD}\n"
    work = _repo(tmp_path, config=config)
    out = cli(work.root, "diff", "--git", "HEAD~1", "HEAD", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert {c["tool"] for c in json.loads(out.stdout)["comparison"]["tool_changes"]} == {"find_notes"}


def test_a_build_that_fails_names_the_side_and_exits_2(tmp_path: Path) -> None:
    work = _repo(tmp_path)
    out = cli(work.root, "diff", "--git", "HEAD~1", "HEAD", "--server-command", COMMAND)
    assert out.returncode == 2
    line = out.stderr.strip().splitlines()[-1]
    assert "failed at initialize" in line and "describe.txt" in line
    assert "Traceback" not in out.stderr
    assert work.git("worktree", "list", "--porcelain").count("worktree ") == 1


def test_folders_as_sides(tmp_path: Path) -> None:
    for side, text in (("before", "Find notes."), ("after", "Find notes by words in their title.")):
        folder = tmp_path / side
        (folder / "build").mkdir(parents=True)
        (folder / "server.py").write_text(SERVER, encoding="utf-8")
        (folder / "build" / "describe.txt").write_text(text, encoding="utf-8")
    out = cli(tmp_path, "diff", "before", "after", "--server-command", COMMAND, "--format", "json")
    assert out.returncode == 0, out.stderr
    assert {c["tool"] for c in json.loads(out.stdout)["comparison"]["tool_changes"]} == {"find_notes"}
    out = cli(tmp_path, "diff", "before", "after", "--server-command", COMMAND, "--build-command", "make")
    assert out.returncode == 2 and "apply to diff --git" in out.stderr
