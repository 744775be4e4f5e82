"""`toolchoice lint`: the deterministic findings only (rules and input checks), no selection runs, no suite;
fast enough for a pre-commit hook on the staged definition files."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from app.audit.models import Finding, Severity
from app.audit.rules.engine import evaluate
from app.audit.rules.ruleset import load_rules
from app.commands.inputs import load_config_file, load_inputs
from app.commands.options import ConfigOpt, InputFormatOpt
from app.commands.output import Writer
from app.commands.server import (
    ServerCommandOpt,
    ServerEnvOpt,
    ServerFlags,
    ServerTimeoutOpt,
    list_in,
    server_config,
)
from app.config import CONFIG_PATH, RepoConfig
from app.errors import InputError

# Most severe first: `--fail-on warning` fails on errors and warnings.
SEVERITY_ORDER = (Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.HINT)


class LintFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


def lint_config(config: Path | None) -> RepoConfig:
    """--config, else the repository config of the folder the command runs in (a hook runs at the root)."""
    if config is not None:
        return load_config_file(config)
    default = Path(CONFIG_PATH)
    return load_config_file(default) if default.is_file() else RepoConfig()


def finding_line(f: Finding) -> str:
    where = f"{f.file}:{f.line}" if f.file and f.line else (f.file or "-")
    return f"{where}: {f.severity.value} {f.rule_id}: {f.message}"


def lint_command(
    files: Annotated[list[Path] | None, typer.Argument(help="Tool-definition files (data or source).")] = None,
    config: ConfigOpt = None,
    only_config_paths: Annotated[
        bool,
        typer.Option(
            "--only-config-paths",
            help=f"Skip the files the config's `paths` do not select ({CONFIG_PATH} here, or --config).",
        ),
    ] = False,
    fail_on: Annotated[
        Severity, typer.Option("--fail-on", help="Exit 1 on a finding of this severity or worse.")
    ] = Severity.ERROR,
    fmt: Annotated[LintFormat, typer.Option("--format", "-f", help="Output format.")] = LintFormat.TEXT,
    input_format: InputFormatOpt = None,
    server_command: ServerCommandOpt = None,
    server_env: ServerEnvOpt = None,
    server_timeout: ServerTimeoutOpt = None,
) -> None:
    """Static findings only: the rules over the given files, no selection runs (for pre-commit)."""
    writer = Writer(no_redact=False)
    settings = lint_config(config)
    if files and server_command is not None:
        raise InputError("give definition files or --server-command, not both")
    server = None if files else server_config(ServerFlags(server_command, server_env or [], server_timeout), settings)
    if server is not None:
        toolset = list_in(Path.cwd(), server, label="here", say=writer.message, prepare=False)
        selected: list[Path] = []
    else:
        if not files:
            raise InputError("lint needs definition files or --server-command")
        selected = [f for f in files if not only_config_paths or settings.matches(f.as_posix().removeprefix("./"))]
        if not selected:
            if fmt == LintFormat.JSON:
                writer.write("[]")
            return
        toolset = load_inputs(selected, fmt=input_format or settings.format.value, config=settings)
    results = evaluate(toolset, rules=load_rules(), settings=settings.rules)
    findings = sorted([*toolset.load_findings, *results.findings], key=Finding.sort_key)
    if fmt == LintFormat.JSON:
        data = [f.model_dump(mode="json") for f in findings]
        writer.write(json.dumps(data, indent=2, sort_keys=True), inputs=[toolset])
    else:
        if findings:
            writer.write("\n".join(finding_line(f) for f in findings), inputs=[toolset])
        counts = {s: sum(f.severity == s for f in findings) for s in SEVERITY_ORDER}
        summary = ", ".join(f"{n} {s.value}" for s, n in counts.items() if n) or "no findings"
        tools = _count(len(toolset.tools), "tool")
        read = _count(len(selected), "file") if server is None else "the running server's tools/list"
        writer.message(f"toolchoice lint: {tools} in {read}: {summary}")
    worst = SEVERITY_ORDER[: SEVERITY_ORDER.index(fail_on) + 1]
    if any(f.severity in worst for f in findings):
        raise typer.Exit(1)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def register(app: typer.Typer) -> None:
    app.command("lint")(lint_command)
