"""The command line as a user meets it: exit codes, formats, and one-line errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOOD = [
    {
        "name": "get_weather",
        "description": "Returns the current weather for a city. Use this when the user asks about weather.",
        "inputSchema": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name, e.g. Paris."}},
            "required": ["city"],
        },
    },
    {"name": "delete_everything", "inputSchema": {"type": "object"}},
]


def toolchoice(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,  # generous: the machine may be shared; speed is measured in bench/
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )


@pytest.fixture
def work(tmp_path: Path) -> Path:
    (tmp_path / "tools.json").write_text(json.dumps({"tools": GOOD}, indent=2))
    return tmp_path


def test_audit_text_and_json(work: Path) -> None:
    out = toolchoice("audit", "tools.json", cwd=work)
    assert out.returncode == 0, out.stderr
    assert "mode: synthetic" in out.stdout and "Overall" in out.stdout
    out = toolchoice("audit", "tools.json", "--format", "json", cwd=work)
    data = json.loads(out.stdout)
    assert data["mode"] == "synthetic" and data["kind"] == "audit"
    files = {f.get("file") for f in data["report"]["findings"]}
    assert files == {"tools.json"}, "findings name the file as given, never an absolute path"


def test_audit_is_byte_for_byte_deterministic(work: Path) -> None:
    a = toolchoice("audit", "tools.json", "--format", "json", cwd=work).stdout
    b = toolchoice("audit", "tools.json", "--format", "json", cwd=work).stdout
    assert a == b and a


def test_gate_and_usage_exit_codes(work: Path) -> None:
    out = toolchoice("audit", "tools.json", "--fail-under", "99.9", cwd=work)
    assert out.returncode == 1 and "gate failed" in out.stderr
    out = toolchoice("audit", cwd=work)
    assert out.returncode == 2
    out = toolchoice("audit", "tools.json", "--fail-under", "100.5", cwd=work)
    assert out.returncode == 2 and "less than or equal to 100" in out.stderr


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"tools": [\n  {"name": "a",}\n]}', "tools.json:2: invalid JSON"),
        ('{"hello": 1}', "no tool definitions found"),
    ],
)
def test_bad_input_is_one_line_exit_2(work: Path, content: str, expected: str) -> None:
    (work / "tools.json").write_text(content)
    out = toolchoice("audit", "tools.json", cwd=work)
    assert out.returncode == 2
    assert expected in out.stderr and "Traceback" not in out.stderr + out.stdout


@pytest.mark.parametrize(
    ("command", "escape", "problem"),
    [
        ("audit", "\\ud800", "a lone surrogate U+D800"),
        ("lint", "\\u0000", "NUL U+0000"),
        ("diff", "\\uffff", "the Unicode non-character U+FFFF"),
    ],
)
def test_invalid_unicode_is_one_line_exit_2(work: Path, command: str, escape: str, problem: str) -> None:
    bad = json.dumps({"tools": GOOD}, indent=2).replace("City name", f"City {escape}name")
    (work / "bad.json").write_text(bad)
    line = bad[: bad.index(escape)].count("\n") + 1
    args = ("diff", "tools.json", "bad.json") if command == "diff" else (command, "bad.json")
    out = toolchoice(*args, cwd=work)
    assert out.returncode == 2, out.stderr
    expected = f"bad.json:{line}: tools[0].inputSchema.properties.city.description holds {problem}"
    assert expected in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "Traceback" not in out.stderr + out.stdout


def test_missing_file_and_bad_cases(work: Path) -> None:
    out = toolchoice("audit", "nope.json", cwd=work)
    assert out.returncode == 2 and "nope.json" in out.stderr and "Traceback" not in out.stderr
    (work / "cases.yaml").write_text("cases:\n  - intent: x\n")
    out = toolchoice("audit", "tools.json", "--cases", "cases.yaml", cwd=work)
    assert out.returncode == 2 and "cases.yaml:2" in out.stderr


def test_diff_fail_on_regression_and_formats(work: Path) -> None:
    head = [
        dict(
            GOOD[0],
            description="Returns historical climate statistics. Do not use it for the current weather in a city.",
            inputSchema={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["town"]},
        ),
        GOOD[1],
    ]
    (work / "head.json").write_text(json.dumps(head))
    (work / "cases.yaml").write_text("cases:\n  - intent: What's the weather in Paris?\n    expected: get_weather\n")
    out = toolchoice("diff", "tools.json", "head.json", "--cases", "cases.yaml", "--format", "md", cwd=work)
    assert out.returncode == 0, out.stderr
    assert "| Selection accuracy |" in out.stdout and "mode: `synthetic" in out.stdout
    out = toolchoice("diff", "tools.json", "head.json", "--cases", "cases.yaml", "--fail-on-regression", cwd=work)
    assert out.returncode == 1 and "regression" in out.stderr
    out = toolchoice("diff", "tools.json", "head.json", "--format", "sarif", cwd=work)
    assert json.loads(out.stdout)["version"] == "2.1.0"


def test_config_file_applies_rule_overrides(work: Path) -> None:
    (work / "toolchoice.yml").write_text("rules:\n  overrides:\n    TC101: off\n")
    out = toolchoice("audit", "tools.json", "--format", "json", "--config", "toolchoice.yml", cwd=work)
    assert out.returncode == 0, out.stderr
    assert "TC101" not in {f["rule_id"] for f in json.loads(out.stdout)["report"]["findings"]}
    (work / "toolchoice.yml").write_text("mode: sometimes\n")
    out = toolchoice("audit", "tools.json", "--config", "toolchoice.yml", cwd=work)
    assert out.returncode == 2 and "toolchoice.yml:1" in out.stderr and "mode" in out.stderr


def test_live_mode_without_key_fails_loudly(work: Path) -> None:
    out = toolchoice("audit", "tools.json", "--mode", "live_model", "--model", "gpt-test", cwd=work)
    assert out.returncode == 2 and "OPENAI_API_KEY" in out.stderr
    assert "Overall" not in out.stdout


def test_demo_runs(tmp_path: Path) -> None:
    out = toolchoice("demo", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "REGRESSIONS" in out.stdout and "IMPROVEMENTS" in out.stdout and "synthetic" in out.stdout
