"""Labeled cases that name a server file (tests/fixtures/natural format) instead of inlining their tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from app.audit.evaluation import load_cases
from app.audit.server_tools import find_servers_dir
from app.commands.eval_selector import register
from app.errors import CasesError
from tests.conftest import ROOT, shared_path

NATURAL = ROOT / "tests" / "fixtures" / "natural" / "natural.dev.json"
TOOLS = [
    {"name": "git_checkout", "description": "Switch branches.", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "git_log", "description": "Show the commit log.", "inputSchema": {"type": "object", "properties": {}}},
]


def _write(folder: Path, cases: list[dict[str, object]]) -> Path:
    path = folder / "cases.json"
    lines = ",\n".join(json.dumps(c) for c in cases)
    path.write_text('{"cases": [\n' + lines + "\n]}\n", encoding="utf-8")
    return path


def _servers(folder: Path) -> Path:
    servers = folder / "servers"
    servers.mkdir()
    (servers / "git.json").write_text(json.dumps({"tools": TOOLS}), encoding="utf-8")
    return servers


def test_a_case_takes_its_server_files_tools(tmp_path: Path) -> None:
    servers = _servers(tmp_path)
    path = _write(tmp_path, [
        {"id": "n-1", "server": "git", "intent": "switch to main", "expected": "git_checkout"},
        {"id": "n-2", "server": "git", "intent": "bake bread", "expected": "NO_TOOL"},
    ])  # fmt: skip
    cases = load_cases(path, servers_dir=servers)
    assert [c.expected for c in cases] == ["git_checkout", "NO_TOOL"]
    assert [t["name"] for t in cases[0].tools] == ["git_checkout", "git_log"]
    assert cases[0].tools == cases[1].tools


def test_a_missing_server_file_names_the_case_file_and_line(tmp_path: Path) -> None:
    servers = _servers(tmp_path)
    path = _write(tmp_path, [
        {"id": "n-1", "server": "git", "intent": "log", "expected": "git_log"},
        {"id": "n-2", "server": "nope", "intent": "x", "expected": "NO_TOOL"},
    ])  # fmt: skip
    with pytest.raises(CasesError) as err:
        load_cases(path, servers_dir=servers)
    assert err.value.line == 3
    assert "'n-2'" in str(err.value) and "nope.json does not exist" in str(err.value)


def test_no_servers_folder_says_how_to_give_one(tmp_path: Path) -> None:
    path = _write(tmp_path, [{"id": "n-1", "server": "git", "intent": "log", "expected": "git_log"}])
    assert find_servers_dir(path) is None
    with pytest.raises(CasesError, match="--servers"):
        load_cases(path)


def test_an_expected_tool_the_server_lacks_is_an_error(tmp_path: Path) -> None:
    servers = _servers(tmp_path)
    path = _write(tmp_path, [{"id": "n-1", "server": "git", "intent": "push", "expected": "git_push"}])
    with pytest.raises(CasesError, match="git_push"):
        load_cases(path, servers_dir=servers)


def test_a_server_name_with_folders_is_refused(tmp_path: Path) -> None:
    servers = _servers(tmp_path)
    path = _write(tmp_path, [{"id": "n-1", "server": "../git", "intent": "log", "expected": "git_log"}])
    with pytest.raises(CasesError, match="without folders"):
        load_cases(path, servers_dir=servers)


def test_eval_selector_reads_them_with_servers_option(tmp_path: Path) -> None:
    servers = _servers(tmp_path)
    path = _write(tmp_path, [{"id": "n-1", "server": "git", "intent": "show the commit log", "expected": "git_log"}])
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Test entry point."""

    register(app)
    result = CliRunner().invoke(app, ["eval-selector", str(path), "--servers", str(servers)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["overall"]["cases"] == 1
    result = CliRunner().invoke(app, ["eval-selector", str(path)])
    # app.cli turns an InputError into one line and exit code 2; here it arrives as the exception.
    assert isinstance(result.exception, CasesError)
    assert "--servers" in str(result.exception) and result.exception.line == 2


@pytest.mark.corpus
def test_the_natural_dev_set_loads_from_the_shared_servers() -> None:
    shared_path("corpora", "servers")
    cases = load_cases(NATURAL)
    assert len(cases) == 140
    assert sum(c.expected == "NO_TOOL" for c in cases) == 28
    assert all(c.tools for c in cases)
