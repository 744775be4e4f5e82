"""`toolchoice lint`: the deterministic findings only, for pre-commit: severities, the gate, config paths."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {
    "tools": [
        {
            "name": "get_weather",
            "description": "Returns the current weather for a city.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
        }
    ]
}
SERVER_PY = '''from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")


@mcp.tool()
def remove_file(path: str) -> str:
    return path
'''


def lint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "lint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )


def test_findings_severities_and_gate(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(json.dumps(TOOLS, indent=2))
    out = lint("tools.json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr  # no error-severity finding
    assert "tools.json:3: warning TC201: get_weather.city has no description" in out.stdout
    assert "1 tool in 1 file" in out.stderr
    assert lint("tools.json", "--fail-on", "warning", cwd=tmp_path).returncode == 1
    data = json.loads(lint("tools.json", "-f", "json", cwd=tmp_path).stdout)
    assert {f["rule_id"] for f in data} >= {"TC201", "TC103"}
    assert data == sorted(data, key=lambda f: (f["file"], f["tool"] or "", f["rule_id"], f["parameter"] or ""))


def test_source_files_and_config_paths(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER_PY)
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "toolchoice.yml").write_text('paths: ["src/**/*.py"]\n')
    out = lint("server.py", cwd=tmp_path)
    assert out.returncode == 1 and "server.py:7: error TC101" in out.stdout  # no docstring, no description
    assert lint("server.py", "--only-config-paths", cwd=tmp_path).stdout == ""  # not under src/
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "server.py").write_text(SERVER_PY)
    assert "TC101" in lint("src/server.py", "--only-config-paths", cwd=tmp_path).stdout


def test_unreadable_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text('{"tools": [}')
    out = lint("tools.json", cwd=tmp_path)
    assert out.returncode == 2 and out.stderr.startswith("toolchoice: error: tools.json:1:")
