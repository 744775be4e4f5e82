"""The pre-commit hook of .pre-commit-hooks.yaml, run by pre-commit itself on a temporary repository's staged
files. The hook is declared as a local `system` hook with the same id, files, types and arguments, its
`toolchoice` entry pointing at this checkout (a `python` hook would install the package from an index)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from git_work import GitWork

ROOT = Path(__file__).resolve().parent.parent
GOOD_TOOL = {
    "name": "get_weather",
    "description": "Returns the current weather for a city. Use this when the user asks about the weather.",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "City name, e.g. Paris."}},
        "required": ["city"],
    },
}
# No description (TC101, an error) and a required parameter that is not declared (TC005, an error).
BAD_TOOL = {"name": "delete_everything", "inputSchema": {"type": "object", "required": ["scope"]}}

pytestmark = pytest.mark.skipif(importlib.util.find_spec("pre_commit") is None, reason="pre-commit is not installed")


def _hook_config() -> str:
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "toolchoice" and hook["entry"].startswith("toolchoice lint")
    local = dict(hook, language="system", entry=hook["entry"].replace("toolchoice", f"{sys.executable} -m app.cli", 1))
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": [local]}]})


def _pre_commit(work: GitWork, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PRE_COMMIT_HOME": str(home), "HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--color", "never"],
        cwd=work.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_hook_reports_staged_definition_files_only(tmp_path: Path) -> None:
    work = GitWork(tmp_path / "repo")
    work.commit({".pre-commit-config.yaml": _hook_config(), "README.md": "# hello\n"})
    home = tmp_path / "pre-commit-home"

    # A data file no `paths` glob selects is not a definition file, however broken it looks.
    work.write({"package.json": json.dumps({"tools": [BAD_TOOL]})})
    work.git("add", "package.json")
    skipped = _pre_commit(work, home)
    assert skipped.returncode == 0, skipped.stdout + skipped.stderr

    work.write({"mcp/tools.json": json.dumps({"tools": [GOOD_TOOL, BAD_TOOL]}, indent=2)})
    work.git("add", "mcp/tools.json")
    failed = _pre_commit(work, home)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "mcp/tools.json" in failed.stdout and "TC101" in failed.stdout and "TC005" in failed.stdout
    assert "package.json" not in failed.stdout

    work.write({"mcp/tools.json": json.dumps({"tools": [GOOD_TOOL]}, indent=2)})
    work.git("add", "mcp/tools.json")
    passed = _pre_commit(work, home)
    assert passed.returncode == 0, passed.stdout + passed.stderr
