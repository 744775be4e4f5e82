"""`toolchoice extract PATH...`: print the tools that source files define, as an MCP `tools/list` result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from app.audit.models import ToolSet
from app.commands.output import NoRedactOpt, Writer, message
from app.errors import ToolChoiceError
from app.extract import ExtractionSummary, extract_paths_summarized

LOCATIONS_KEY = "x-toolchoice-locations"
FINDINGS_KEY = "x-toolchoice-findings"
SUMMARY_KEY = "x-toolchoice-summary"


def listing(tools: ToolSet, *, side_tables: bool = True, summary: ExtractionSummary | None = None) -> dict[str, Any]:
    """`{"tools": [...]}` exactly as a client receives it, plus the locations, findings and summary beside it."""
    out: dict[str, Any] = {"tools": tools.to_mcp()}
    if not side_tables:
        return out
    locations: dict[str, Any] = {}
    for tool in tools.tools:
        key, n = tool.name, 1
        while key in locations:  # the same name defined twice: `name (2)`
            n += 1
            key = f"{tool.name} ({n})"
        locations[key] = tool.location.model_dump(mode="json", exclude_none=True) if tool.location else None
    out[LOCATIONS_KEY] = locations
    out[FINDINGS_KEY] = [f.model_dump(mode="json", exclude_none=True) for f in tools.load_findings]
    if summary is not None:
        out[SUMMARY_KEY] = {**summary.model_dump(mode="json"), "line": summary.line()}
    return out


def extract_command(
    paths: Annotated[
        list[Path],
        typer.Argument(metavar="PATH", help="Source files or folders (Python, TypeScript, JavaScript, Go)."),
    ],
    glob: Annotated[
        list[str] | None,
        typer.Option("--glob", "-g", metavar="GLOB", help="Read only files whose relative path matches; repeatable."),
    ] = None,
    root: Annotated[
        Path | None, typer.Option("--root", metavar="DIR", help="Folder that --glob paths are relative to.")
    ] = None,
    language: Annotated[
        list[str] | None,
        typer.Option(
            "--language", "-l", metavar="GLOB=LANGUAGE",
            help="Language of files whose extension does not say it; repeatable.",
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write the JSON to this file.")
    ] = None,
    tools_only: Annotated[
        bool, typer.Option("--tools-only", help="Print only {\"tools\": [...]}, without locations and findings.")
    ] = False,
    no_redact: NoRedactOpt = False,
) -> None:
    """Read tool definitions from source code without running it; print them as a `tools/list` result."""
    writer = Writer(no_redact=no_redact, output=output)
    languages: dict[str, str] = {}
    for item in language or []:
        pattern, sep, lang = item.rpartition("=")
        if not sep or not pattern or not lang:
            message(f"toolchoice: error: --language {item!r}: expected GLOB=LANGUAGE, e.g. 'bin/*=python'")
            raise typer.Exit(2)
        languages[pattern] = lang
    try:
        tools, summary = extract_paths_summarized(paths, root=root, globs=glob or None, languages=languages or None)
    except ToolChoiceError as exc:
        message(f"toolchoice: error: {exc}")
        raise typer.Exit(2) from None
    for finding in tools.load_findings:
        message(f"{finding.file}:{finding.line}: {finding.rule_id} {finding.message}")
    message(summary.line())
    data = listing(tools, side_tables=not tools_only, summary=summary)
    try:
        writer.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n", inputs=[data])
    except ToolChoiceError as exc:
        message(f"toolchoice: error: {exc}")
        raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    app.command("extract")(extract_command)
