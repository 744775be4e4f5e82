"""Every output of the command line, in every format, with 37 seeded secrets of 26 kinds in the input: none leaks.

The seeded values are made at test time (tests/reports/seeded_secrets.py) and placed in descriptions, enum
members, defaults and examples; generated requests then carry them bare into the report, which is where
the command line used to print them verbatim.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from reports.conftest import leaks
from reports.seeded_secrets import Seeded
from typer.testing import CliRunner

from app.audit.loader import load_definitions
from app.cli import app
from app.commands import output as output_module
from app.render.output import Format, render_output
from app.selector_factory import synthetic_selector

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ("text", "md", "json", "sarif")
SHA256 = re.compile(r"\b[0-9a-f]{64}\b")


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **(env or {})},
    )


def test_the_fixture_has_at_least_twelve_kinds_in_every_place(seeded: list[Seeded], seeded_files: tuple) -> None:
    assert len({s.kind for s in seeded}) >= 12
    tools = json.loads(seeded_files[1].read_text())["tools"]
    params = [t["inputSchema"]["properties"]["api_key"] for t in tools]
    assert {"enum", "default", "examples"} <= {k for p in params for k in p}
    assert all(s.text in t["description"] for s, t in zip(seeded, tools, strict=True))


@pytest.mark.parametrize("fmt", FORMATS)
def test_audit_leaks_nothing(fmt: str, seeded: list[Seeded], seeded_files: tuple) -> None:
    out = run("audit", str(seeded_files[1]), "--format", fmt)
    assert leaks(out, seeded) == []
    if fmt in ("json", "sarif"):
        json.loads(out)  # still valid
    if fmt == "json":
        export = json.loads(out)
        assert SHA256.fullmatch(export["suite_hash"]), "our own hashes are kept"
        assert "[REDACTED:" in out


@pytest.mark.parametrize("fmt", FORMATS)
def test_diff_leaks_nothing(fmt: str, seeded: list[Seeded], seeded_files: tuple, tmp_path: Path) -> None:
    base, head = seeded_files
    out = run("diff", str(base), str(head), "--format", fmt)
    assert leaks(out, seeded) == []
    target = tmp_path / f"report.{fmt}"
    run("diff", str(base), str(head), "--format", fmt, "--output", str(target))
    assert leaks(target.read_text(), seeded) == []


def test_an_unredacted_result_would_leak(seeded: list[Seeded], seeded_files: tuple) -> None:
    """The control: the same audit rendered without redaction shows the secrets the tests above count."""
    from app.audit.engine import audit
    from app.audit.suite.build import build_suite

    toolset = load_definitions("head.json", text=seeded_files[1].read_text())
    report = audit(toolset, suite=build_suite([toolset]), selector=synthetic_selector())
    raw = render_output(report, Format.JSON, redact=False).text
    assert len(leaks(raw, seeded)) >= 12
    assert leaks(render_output(report, Format.JSON, inputs=[toolset]).text, seeded) == []


def test_report_page_leaks_nothing(seeded: list[Seeded], seeded_files: tuple, tmp_path: Path) -> None:
    export, page = tmp_path / "export.json", tmp_path / "page.html"
    run("diff", *map(str, seeded_files), "--format", "json", "--output", str(export))
    run("report", str(export), "--html", str(page))
    assert "<svg" in page.read_text() and leaks(page.read_text(), seeded) == []


# Secrets that no detector can see without the context the tool definition gave them ("admin:pw" without
# its "postgres://…@", a short password without its "password:").
CONTEXT_ONLY = {"url-password", "password"}


def test_report_page_of_a_raw_export_masks_all_but_context_only_values(
    seeded: list[Seeded], seeded_files: tuple, tmp_path: Path
) -> None:
    """An export written with --no-redact holds bare values whose context was in the tool definitions,
    which an export does not carry: the page masks every secret a detector can recognise on its own."""
    from app.audit.engine import audit_pair

    before = load_definitions("base.json", text=seeded_files[0].read_text())
    after = load_definitions("head.json", text=seeded_files[1].read_text())
    comparison = audit_pair(before, after, selector=synthetic_selector())
    export, page = tmp_path / "raw.json", tmp_path / "page.html"
    export.write_text(render_output(comparison, Format.JSON, redact=False).text)
    assert len(leaks(export.read_text(), seeded)) >= 12, "the export handed to `report` carries the secrets"
    run("report", str(export), "--html", str(page))
    assert set(leaks(page.read_text(), seeded)) <= CONTEXT_ONLY


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_suggest_leaks_nothing(fmt: str, seeded: list[Seeded], seeded_files: tuple) -> None:
    assert leaks(run("suggest", str(seeded_files[1]), "--format", fmt), seeded) == []


def test_extract_leaks_nothing(seeded: list[Seeded], tmp_path: Path) -> None:
    lines = ["from mcp.server.fastmcp import FastMCP", "from typing import Literal", "mcp = FastMCP('vault')", ""]
    for i, s in enumerate(seeded):
        lines += [
            "@mcp.tool()",
            f"def vault_{i}(api_key: Literal['primary', {s.secret!r}] = {s.secret!r}) -> str:",
            f"    {json.dumps('Checks an API key. ' + s.text)}",
            "    return ''",
            "",
        ]
    server = tmp_path / "server.py"
    server.write_text("\n".join(lines))
    out = run("extract", str(server))
    assert json.loads(out)["tools"] and leaks(out, seeded) == []


def test_errors_on_stderr_are_redacted(seeded: list[Seeded], tmp_path: Path) -> None:
    github = next(s for s in seeded if s.secret.startswith("ghp_"))
    cases = tmp_path / "cases.yml"
    cases.write_text(f"cases:\n  - intent: x\n    expected: t\n    provenance: {github.secret}\n")
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps({"tools": [{"name": "t", "description": "Does one thing well enough."}]}))
    done = cli("audit", str(tools), "--cases", str(cases))
    assert done.returncode == 2 and "provenance must be" in done.stderr  # the message quotes the bad value
    assert github.probe not in done.stderr + done.stdout and "[REDACTED:github-token]" in done.stderr


class TestNoRedact:
    """--no-redact: refused where the output is kept (a file, a pipe, CI), honoured on a user's terminal."""

    def test_refused_when_the_output_is_a_pipe(self, seeded: list[Seeded], seeded_files: tuple) -> None:
        done = cli("audit", str(seeded_files[1]), "--format", "json", "--no-redact")
        assert done.returncode == 2 and done.stdout == ""
        assert "--no-redact refused: the output is not a terminal" in done.stderr

    def test_refused_in_ci_even_on_a_terminal(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(output_module, "stdout_is_terminal", lambda: True)
        with pytest.raises(Exception, match="GITHUB_ACTIONS is set"):
            output_module.Writer(no_redact=True, env={"GITHUB_ACTIONS": "true"})
        with pytest.raises(Exception, match="the output goes to a file"):
            output_module.Writer(no_redact=True, output=Path("x.json"), env={})
        assert output_module.Writer(no_redact=True, env={"CI": "false"}).redact is False

    def test_honoured_on_a_local_terminal(
        self, monkeypatch: pytest.MonkeyPatch, seeded: list[Seeded], seeded_files: tuple
    ) -> None:
        monkeypatch.setattr(output_module, "stdout_is_terminal", lambda: True)
        for name in output_module.CI_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        out = run("audit", str(seeded_files[1]), "--format", "json", "--no-redact")
        assert len(leaks(out, seeded)) >= 12 and "[REDACTED:" not in out
