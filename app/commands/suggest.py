"""`toolchoice suggest`: rewritten descriptions as a unified diff with each one's verified effect; `--write`."""

from __future__ import annotations

import json
from collections import defaultdict
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from app.audit.models import Mode
from app.audit.rules.ruleset import load_rules
from app.audit.selection import Selector
from app.audit.suite.build import build_suite
from app.commands.inputs import load_inputs, read_text
from app.commands.options import CasesOpt, CommonOptions, ConfigOpt, InputFormatOpt, IntentsOpt, ModelOpt, ModeOpt
from app.commands.output import NoRedactOpt, Writer, message
from app.errors import InputError, SelectorError
from app.selector_factory import make_selector
from app.suggest.edits import Edit, apply_edits, locate, unified_diff
from app.suggest.models import Rewriter, Suggestion, SuggestionReport
from app.suggest.run import DEFAULT_LIMIT, suggest


class SuggestFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


class FileEdits:
    """The accepted suggestions of one file located in its text, and the ones that could not be."""

    def __init__(self, name: str, suggestions: list[Suggestion]) -> None:
        self.name = name
        self.path = Path(name)
        self.before = read_text(self.path)
        self.edits: list[Edit] = []
        self.failed: list[tuple[Suggestion, str]] = []
        for s in suggestions:
            found = locate(self.before, s)
            if isinstance(found, str):
                self.failed.append((s, found))
            else:
                self.edits.append(found)
        self.after = apply_edits(self.before, self.edits)

    def diff(self) -> str:
        return unified_diff(self.name, self.before, self.after)


def plan_edits(report: SuggestionReport) -> tuple[list[FileEdits], list[tuple[Suggestion, str]]]:
    """Accepted suggestions grouped by file and located; those without a file are returned apart."""
    by_file: dict[str, list[Suggestion]] = defaultdict(list)
    homeless: list[tuple[Suggestion, str]] = []
    for s in report.accepted:
        if s.file:
            by_file[s.file].append(s)
        else:
            homeless.append((s, "the tool has no recorded file"))
    return [FileEdits(name, items) for name, items in sorted(by_file.items())], homeless


def render_text(report: SuggestionReport, files: list[FileEdits], failed: list[tuple[Suggestion, str]]) -> str:
    lines = [f"ToolChoice suggestions — mode: {report.mode.value}, rewriter: {report.rewriter}"]
    lines.extend(f"NOTE: {n}" for n in report.notes)
    lines.append(f"Overall before: {report.overall_before:.1f}")
    if report.combined:
        lines.append(f"All accepted together: {report.combined.summary()}")
    lines.append("")
    lines.append(f"Accepted ({len(report.accepted)}):")
    for s in report.accepted:
        lines.append(_line(s))
    lines.append(f"Rejected ({len(report.rejected)}):")
    for s in report.rejected:
        lines.append(_line(s))
        lines.append(f"      why: {s.reason}")
    if report.skipped:
        lines.append(f"Not rewritten ({len(report.skipped)}):")
        lines.extend(f"  {k.tool}: {k.reason}" for k in report.skipped)
    problems = failed + [p for f in files for p in f.failed]
    if problems:
        lines.append("Accepted but not applicable to the file:")
        lines.extend(f"  {s.tool} {s.field}: {why}" for s, why in problems)
    lines.append("")
    for f in files:
        diff = f.diff()
        if diff:
            lines.append(diff.rstrip("\n"))
    return "\n".join(lines) + "\n"


def _line(s: Suggestion) -> str:
    where = f"{s.file}:{s.lines.start}" if s.file and s.lines else (s.file or "?")
    rules = f" [{', '.join(s.rules)}]" if s.rules else ""
    effect = s.effect.summary() if s.effect else "not rerun"
    return f"  {s.tool} {s.field}{rules} ({where}): {effect}"


def render_json(report: SuggestionReport, files: list[FileEdits]) -> str:
    data = report.model_dump(mode="json")
    data["diffs"] = {f.name: f.diff() for f in files}
    data["not_applicable"] = [
        {"tool": s.tool, "field": s.field, "reason": why} for f in files for s, why in f.failed
    ]
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def _rewriter(mode: Mode, selector: Selector) -> Rewriter | None:
    """None (the synthetic rewriter) in synthetic mode; in live_model mode the model rewrites, on the
    selector's own client, so the rerun uses the same model and settings."""
    if mode == Mode.SYNTHETIC:
        return None
    from app.llm.rewrite import ModelRewriter
    from app.llm.selector import LiveSelector

    if not isinstance(selector, LiveSelector):
        raise SelectorError("live_model suggestions need the live selector")
    return ModelRewriter.for_selector(selector)


def suggest_command(
    files: Annotated[list[Path], typer.Argument(help="Tool-definition files (JSON/YAML, or source files).")],
    write: Annotated[bool, typer.Option("--write", help="Apply the accepted suggestions in place.")] = False,
    fmt: Annotated[SuggestFormat, typer.Option("--format", "-f", help="Output format.")] = SuggestFormat.TEXT,
    max_tools: Annotated[
        int, typer.Option("--max", min=1, max=500, help="Tools rewritten and verified at most (one rerun each).")
    ] = DEFAULT_LIMIT,
    cases: CasesOpt = None,
    config: ConfigOpt = None,
    mode: ModeOpt = None,
    model: ModelOpt = None,
    intents: IntentsOpt = 5,
    input_format: InputFormatOpt = None,
    no_redact: NoRedactOpt = False,
) -> None:
    """Suggest rewritten descriptions, verified by a rerun of the identical suite; print them as a diff.
    `--write` edits the files themselves (never redacted: they are the user's own)."""
    writer = Writer(no_redact=no_redact)
    settings = CommonOptions(config=config, cases=cases, mode=mode, model=model, input_format=input_format).settings()
    toolset = load_inputs(files, fmt=settings.input_format, config=settings.config)
    if not toolset.tools:
        raise InputError("no tools found in the given files", file=", ".join(str(f) for f in files))
    selector = make_selector(settings.mode, model=settings.model, concurrency=settings.concurrency)
    suite = build_suite([toolset], user_cases=settings.user_cases, intents_per_tool=intents)
    report = suggest(
        toolset,
        suite=suite,
        selector=selector,
        rewriter=_rewriter(Mode(settings.mode), selector),
        rules=load_rules(),
        rule_settings=settings.config.rules,
        limit=max_tools,
    )
    planned, failed = plan_edits(report)
    text = render_json(report, planned) if fmt == SuggestFormat.JSON else render_text(report, planned, failed)
    writer.write(text, inputs=[toolset])
    if write:
        for f in planned:
            if f.edits:
                try:
                    f.path.write_text(f.after, encoding="utf-8")
                except OSError as exc:
                    raise InputError(f"cannot write: {exc.strerror}", file=f.name) from None
                message(f"toolchoice: wrote {len(f.edits)} suggestion(s) to {f.name}")


def register(app: typer.Typer) -> None:
    app.command("suggest")(suggest_command)
