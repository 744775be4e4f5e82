"""`toolchoice audit`, `diff` and `demo`: audits from the command line, no GitHub, Redis or network needed."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from app.audit.engine import audit, audit_pair, selector_generator
from app.audit.gate import Conclusion, evaluate_gate
from app.audit.loader import load_definitions
from app.audit.models import Case, Mode, ToolSet
from app.audit.results import AuditReport, Comparison
from app.audit.rules.ruleset import load_rules
from app.audit.suite.build import build_suite
from app.audit.suite.cases_file import load_cases
from app.commands.inputs import load_cases_file, load_config_file, load_inputs, read_text
from app.commands.output import NoRedactOpt, Writer
from app.config import RepoConfig
from app.render.output import Format, render_output
from app.selector_factory import make_selector

# The demo tool set ships inside the package so `toolchoice demo` works from a wheel.
DEMO_DIR = Path(__file__).resolve().parents[1] / "demo"


class OutputFormat(StrEnum):
    TEXT = "text"
    MD = "md"
    JSON = "json"
    SARIF = "sarif"


FormatOpt = Annotated[OutputFormat, typer.Option("--format", "-f", help="Output format.")]
ConfigOpt = Annotated[
    Path | None, typer.Option("--config", help="A ToolChoice config file (.github/toolchoice.yml format).")
]
CasesOpt = Annotated[
    list[Path] | None, typer.Option("--cases", help="A YAML/JSON file of user-defined cases (repeatable).")
]
FailUnderOpt = Annotated[
    float | None,
    typer.Option("--fail-under", min=0, max=100, help="Exit 1 when the (head's) overall score is below this."),
]
ModeOpt = Annotated[Mode | None, typer.Option("--mode", help="synthetic (default) or live_model.")]
ModelOpt = Annotated[str | None, typer.Option("--model", help="live_model: the model to ask.")]
ConcurrencyOpt = Annotated[int | None, typer.Option("--concurrency", min=1, max=64, help="live_model: parallel calls.")]
RepeatsOpt = Annotated[
    int, typer.Option("--repeats", min=0, max=10, help="live_model diff: re-runs that must confirm each flip.")
]
EstimateOpt = Annotated[
    bool, typer.Option("--estimate", help="live_model: print the calls and tokens the audit would take; run nothing.")
]
IntentsOpt = Annotated[int, typer.Option("--intents", min=0, max=20, help="Generated intents per tool.")]
OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Write the report to this file.")]
InputFormatOpt = Annotated[str | None, typer.Option("--input-format", help="auto (default), mcp, openai or anthropic.")]


class Settings:
    """The effective settings of one command: config file first, command-line flags over it."""

    def __init__(
        self,
        *,
        config: Path | None,
        cases: list[Path] | None,
        mode: Mode | None,
        model: str | None,
        concurrency: int | None,
        input_format: str | None,
    ) -> None:
        self.config = load_config_file(config) if config else RepoConfig()
        self.mode = mode or self.config.mode
        self.model = model or self.config.model
        self.concurrency = concurrency or self.config.concurrency
        self.input_format = input_format or self.config.format.value
        case_files = list(cases or [])
        if not case_files and self.config.cases and config is not None:
            case_files.append(config.parent / self.config.cases)
        self.user_cases: list[Case] = [c for path in case_files for c in load_cases_file(path)]


def _estimate(settings: Settings, toolsets: list[ToolSet], *, intents: int, repeats: int) -> None:
    from app.llm.factory import estimate_audit

    # The model writes the generated cases in live mode: count the user's cases plus what generation adds,
    # sized like the template suite (same intents per tool and negatives) for every side.
    suite = build_suite(toolsets, user_cases=settings.user_cases, intents_per_tool=intents)
    chars = max(len(json.dumps(ts.to_mcp())) for ts in toolsets)
    tools = sum(len(ts.tools) for ts in toolsets)
    estimate = estimate_audit(
        cases=len(suite.cases) * len(toolsets),
        tools_json_chars=chars,
        repeats=repeats,
        generated_tools=tools if intents else 0,
        per_tool=intents,
    )
    typer.echo(json.dumps(estimate.model_dump(), indent=2, sort_keys=True))


def _finish(
    result: AuditReport | Comparison, *, fmt: OutputFormat, writer: Writer, gate_args: dict, inputs: list[Any]
) -> None:
    """Render (redacted, with the secrets of `inputs` found by their context there), write, apply the gate."""
    rules = load_rules() if fmt == OutputFormat.SARIF else None
    rendered = render_output(result, Format(fmt.value), redact=writer.redact, rules=rules, inputs=inputs)
    writer.write(rendered.text, keep=rendered.keep, inputs=inputs)
    gate = evaluate_gate(result, **gate_args)
    if gate.conclusion == Conclusion.FAILURE:
        for reason in gate.reasons:
            writer.message(f"toolchoice: gate failed: {reason}")
        raise typer.Exit(1)


def audit_command(
    files: Annotated[list[Path], typer.Argument(help="Tool-definition files (JSON/YAML, MCP/OpenAI/Anthropic).")],
    fmt: FormatOpt = OutputFormat.TEXT,
    config: ConfigOpt = None,
    cases: CasesOpt = None,
    fail_under: FailUnderOpt = None,
    mode: ModeOpt = None,
    model: ModelOpt = None,
    concurrency: ConcurrencyOpt = None,
    estimate: EstimateOpt = False,
    intents: IntentsOpt = 5,
    output: OutputOpt = None,
    input_format: InputFormatOpt = None,
    no_redact: NoRedactOpt = False,
) -> None:
    """Audit tool definitions: findings, selection runs on a generated + user suite, scores."""
    writer = Writer(no_redact=no_redact, output=output)
    settings = Settings(
        config=config, cases=cases, mode=mode, model=model, concurrency=concurrency, input_format=input_format
    )
    toolset = load_inputs(files, fmt=settings.input_format, config=settings.config)
    if estimate:
        _estimate(settings, [toolset], intents=intents, repeats=0)
        return
    selector = make_selector(settings.mode, model=settings.model, concurrency=settings.concurrency)
    suite = build_suite(
        [toolset],
        user_cases=settings.user_cases,
        intents_per_tool=intents,
        generator=selector_generator(selector),
    )
    report = audit(toolset, suite=suite, selector=selector, rule_settings=settings.config.rules)
    min_score = fail_under if fail_under is not None else settings.config.thresholds.min_score
    inputs = [toolset, *settings.user_cases]
    _finish(report, fmt=fmt, writer=writer, gate_args={"min_score": min_score}, inputs=inputs)


def diff_command(
    base: Annotated[Path, typer.Argument(help="The 'before' definitions (file or folder).")],
    head: Annotated[Path, typer.Argument(help="The 'after' definitions (file or folder).")],
    fmt: FormatOpt = OutputFormat.TEXT,
    config: ConfigOpt = None,
    cases: CasesOpt = None,
    fail_under: FailUnderOpt = None,
    fail_on_regression: Annotated[
        bool, typer.Option("--fail-on-regression", help="Exit 1 when a scored case regresses.")
    ] = False,
    max_drop: Annotated[
        float | None, typer.Option("--max-drop", help="Exit 1 when the overall score drops by more than this.")
    ] = None,
    mode: ModeOpt = None,
    model: ModelOpt = None,
    concurrency: ConcurrencyOpt = None,
    repeats: RepeatsOpt = 0,
    estimate: EstimateOpt = False,
    intents: IntentsOpt = 5,
    output: OutputOpt = None,
    input_format: InputFormatOpt = None,
    no_redact: NoRedactOpt = False,
) -> None:
    """Before/after: audit BASE and HEAD with the identical frozen suite and compare."""
    writer = Writer(no_redact=no_redact, output=output)
    settings = Settings(
        config=config, cases=cases, mode=mode, model=model, concurrency=concurrency, input_format=input_format
    )
    before = load_inputs([base], fmt=settings.input_format, config=settings.config)
    after = load_inputs([head], fmt=settings.input_format, config=settings.config)
    if estimate:
        _estimate(settings, [before, after], intents=intents, repeats=repeats)
        return
    run_diff(
        before,
        after,
        settings=settings,
        fmt=fmt,
        writer=writer,
        intents=intents,
        repeats=repeats,
        gate_args={
            "min_score": fail_under if fail_under is not None else settings.config.thresholds.min_score,
            "max_drop": max_drop if max_drop is not None else settings.config.thresholds.max_drop,
            "fail_on_regression": fail_on_regression or settings.config.thresholds.fail_on_regression,
        },
        refs=(str(base), str(head)),
    )


def run_diff(
    before: ToolSet,
    after: ToolSet,
    *,
    settings: Settings,
    fmt: OutputFormat,
    writer: Writer,
    intents: int,
    repeats: int,
    gate_args: dict,
    refs: tuple[str, str],
) -> None:
    selector = make_selector(settings.mode, model=settings.model, concurrency=settings.concurrency)
    comparison = audit_pair(
        before,
        after,
        selector=selector,
        user_cases=settings.user_cases,
        rule_settings=settings.config.rules,
        intents_per_tool=intents,
        repeats=repeats,
        base_ref=refs[0],
        head_ref=refs[1],
    )
    inputs = [before, after, *settings.user_cases]
    _finish(comparison, fmt=fmt, writer=writer, gate_args=gate_args, inputs=inputs)


def demo_command(
    fmt: FormatOpt = OutputFormat.TEXT,
    output: OutputOpt = None,
    no_redact: NoRedactOpt = False,
) -> None:
    """A built-in before/after of a helpdesk tool set with hand-written cases: the whole product in one go."""
    writer = Writer(no_redact=no_redact, output=output)
    before = load_definitions("demo/before.json", text=read_text(DEMO_DIR / "before.json"))
    after = load_definitions("demo/after.json", text=read_text(DEMO_DIR / "after.json"))
    settings = Settings(config=None, cases=None, mode=None, model=None, concurrency=None, input_format=None)
    settings.user_cases = load_cases("demo/cases.yaml", text=read_text(DEMO_DIR / "cases.yaml"))
    run_diff(
        before,
        after,
        settings=settings,
        fmt=fmt,
        writer=writer,
        intents=5,
        repeats=0,
        gate_args={},
        refs=("demo/before.json", "demo/after.json"),
    )


def register(app: typer.Typer) -> None:
    app.command("audit")(audit_command)
    app.command("diff")(diff_command)
    app.command("demo")(demo_command)
