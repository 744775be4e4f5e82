"""`toolchoice audit`, `diff` and `demo`: audits from the command line, no GitHub, Redis or network needed.

The audit engine, the suite and the renderers are imported when a command runs: every command of the
command line loads this module, and they take about a second to import."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from app.audit.gate import Conclusion, evaluate_gate
from app.audit.live_plan import Scope
from app.audit.loader import load_definitions
from app.audit.models import Mode, ToolSet
from app.audit.results import AuditReport, Comparison
from app.audit.rules.ruleset import load_rules
from app.commands.inputs import load_inputs, read_text
from app.commands.options import (
    CommonOptions,
    FormatOpt,
    OutputFormat,
    OutputOpt,
    Settings,
    with_common_options,
)
from app.commands.output import NoRedactOpt, Writer
from app.commands.pair import Pair, compare_pair, diff_gate_args, git_pair
from app.commands.server import (
    BuildOpt,
    InstallOpt,
    ServerCommandOpt,
    ServerEnvOpt,
    ServerFlags,
    ServerTimeoutOpt,
    list_in,
    server_config,
)
from app.errors import InputError
from app.selector_factory import make_selector

# The demo tool set ships inside the package so `toolchoice demo` works from a wheel.
DEMO_DIR = Path(__file__).resolve().parents[1] / "demo"


RepeatsOpt = Annotated[
    int, typer.Option("--repeats", min=0, max=10, help="live_model diff: re-runs that must confirm each flip.")
]
ScopeOpt = Annotated[
    Scope | None,
    typer.Option(
        "--scope",
        help="live_model diff: targeted (default: ask only where the change can matter, plus a sample) or all.",
    ),
]
SampleOpt = Annotated[
    int | None,
    typer.Option("--sample", min=0, max=1000, help="live_model diff: cases drawn from those away from the change."),
]
GitOpt = Annotated[
    bool,
    typer.Option(
        "--git",
        help="BASE and HEAD are git revisions of the repository here (HEAD defaults to HEAD): the config and cases "
        "come from BASE, the definition files from the merge base and HEAD, read without a checkout.",
    ),
]


def _estimate(settings: Settings, toolsets: list[ToolSet], *, intents: int, repeats: int) -> None:
    """Print what a live run would ask and cost, before anything is spent: a diff's plan (targeted by default),
    or every case of an audit with the model writing the cases."""
    from app.commands.estimate import estimate_json

    typer.echo(estimate_json(settings, toolsets, intents=intents, repeats=repeats))


def _finish(
    result: AuditReport | Comparison, *, fmt: OutputFormat, writer: Writer, gate_args: dict, inputs: list[Any]
) -> None:
    """Render (redacted, with the secrets of `inputs` found by their context there), write, apply the gate."""
    from app.render.output import Format, render_output

    rules = load_rules() if fmt == OutputFormat.SARIF else None
    rendered = render_output(result, Format(fmt.value), redact=writer.redact, rules=rules, inputs=inputs)
    writer.write(rendered.text, keep=rendered.keep, inputs=inputs)
    gate = evaluate_gate(result, **gate_args)
    if gate.conclusion == Conclusion.FAILURE:
        for reason in gate.reasons:
            writer.message(f"toolchoice: gate failed: {reason}")
        raise typer.Exit(1)


@with_common_options
def audit_command(
    files: Annotated[
        list[Path] | None, typer.Argument(help="Tool-definition files (JSON/YAML, MCP/OpenAI/Anthropic).")
    ] = None,
    *,
    server_command: ServerCommandOpt = None,
    server_env: ServerEnvOpt = None,
    server_timeout: ServerTimeoutOpt = None,
    common: CommonOptions,
) -> None:
    """Audit tool definitions: findings, selection runs on a generated + user suite, scores."""
    from app.audit.engine import audit, selector_generator
    from app.audit.suite.build import build_suite

    writer = Writer(no_redact=common.no_redact, output=common.output)
    settings = common.settings()
    flags = ServerFlags(server_command, server_env or [], server_timeout)
    if server_command is not None and files:
        raise InputError("give definition files or --server-command, not both")
    server = None if files else server_config(flags, settings.config)
    if files:
        toolset = load_inputs(files, fmt=settings.input_format, config=settings.config)
    elif server is not None:
        toolset = list_in(Path.cwd(), server, label="here", say=writer.message, prepare=False)
    else:
        raise InputError("audit needs definition files or --server-command")
    if common.estimate:
        _estimate(settings, [toolset], intents=common.intents, repeats=0)
        return
    selector = make_selector(
        settings.mode, model=settings.model, concurrency=settings.concurrency, live=settings.live_run
    )
    suite = build_suite(
        [toolset],
        user_cases=settings.user_cases,
        intents_per_tool=common.intents if settings.config.generate else 0,
        negatives=settings.config.generate,
        generator=selector_generator(selector),
    )
    report = audit(toolset, suite=suite, selector=selector, rule_settings=settings.config.rules)
    save = getattr(selector, "save_recording", None)
    if callable(save):
        save()
    min_score = common.fail_under if common.fail_under is not None else settings.config.thresholds.min_score
    inputs = [toolset, *settings.user_cases]
    _finish(report, fmt=common.fmt, writer=writer, gate_args={"min_score": min_score}, inputs=inputs)


@with_common_options
def diff_command(
    base: Annotated[str, typer.Argument(help="The 'before': a file or folder (with --git: a revision).")],
    head: Annotated[
        str | None, typer.Argument(help="The 'after': a file or folder (with --git: a revision, default HEAD).")
    ] = None,
    *,
    git: GitOpt = False,
    fail_on_regression: Annotated[
        bool, typer.Option("--fail-on-regression", help="Exit 1 when a scored case regresses.")
    ] = False,
    max_drop: Annotated[
        float | None, typer.Option("--max-drop", help="Exit 1 when the overall score drops by more than this.")
    ] = None,
    repeats: RepeatsOpt = 0,
    scope: ScopeOpt = None,
    sample: SampleOpt = None,
    server_command: ServerCommandOpt = None,
    server_env: ServerEnvOpt = None,
    server_timeout: ServerTimeoutOpt = None,
    install_command: InstallOpt = None,
    build_command: BuildOpt = None,
    common: CommonOptions,
) -> None:
    """Before/after: audit BASE and HEAD with the identical frozen suite and compare."""
    writer = Writer(no_redact=common.no_redact, output=common.output)
    flags = ServerFlags(server_command, server_env or [], server_timeout, install_command, build_command)
    if (install_command or build_command) and not git:
        raise InputError("--install-command and --build-command apply to diff --git (BASE and HEAD folders are used "
                         "as they are)")
    if git:
        pair = git_pair(Path.cwd(), base, head or "HEAD", common=common, server=flags, say=writer.message)
    elif head is None:
        raise InputError("diff needs BASE and HEAD (files or folders), or --git BASE_REF [HEAD_REF]")
    else:
        settings = common.settings()
        server = server_config(flags, settings.config)
        if server is not None:  # BASE and HEAD are folders, each with the server ready to start
            before, after = (
                list_in(_folder(side), server, label=side, say=writer.message, prepare=False) for side in (base, head)
            )
        else:
            before = load_inputs([Path(base)], fmt=settings.input_format, config=settings.config)
            after = load_inputs([Path(head)], fmt=settings.input_format, config=settings.config)
        pair = Pair(before=before, after=after, settings=settings, refs=(base, head))
    if scope is not None or sample is not None:
        if pair.settings.mode != Mode.LIVE_MODEL:
            raise InputError("--scope and --sample apply to --mode live_model only")
        plan = pair.settings.plan
        update = {"scope": scope or plan.scope, "sample": plan.sample if sample is None else sample}
        pair.settings.plan = plan.model_copy(update=update)
    if common.estimate:
        _estimate(pair.settings, [pair.before, pair.after], intents=common.intents, repeats=repeats)
        return
    comparison = compare_pair(pair, intents=common.intents, repeats=repeats)
    gate_args = diff_gate_args(
        pair.settings.config, fail_under=common.fail_under, max_drop=max_drop, fail_on_regression=fail_on_regression
    )
    inputs = [pair.before, pair.after, *pair.settings.user_cases]
    _finish(comparison, fmt=common.fmt, writer=writer, gate_args=gate_args, inputs=inputs)


def _folder(side: str) -> Path:
    path = Path(side)
    if not path.is_dir():
        raise InputError("with --server-command, BASE and HEAD are folders to start the server in", file=side)
    return path


def demo_command(
    fmt: FormatOpt = OutputFormat.TEXT,
    output: OutputOpt = None,
    no_redact: NoRedactOpt = False,
) -> None:
    """A built-in before/after of a helpdesk tool set with hand-written cases: the whole product in one go."""
    from app.audit.suite.cases_file import load_cases

    writer = Writer(no_redact=no_redact, output=output)
    before = load_definitions("demo/before.json", text=read_text(DEMO_DIR / "before.json"))
    after = load_definitions("demo/after.json", text=read_text(DEMO_DIR / "after.json"))
    cases = load_cases("demo/cases.yaml", text=read_text(DEMO_DIR / "cases.yaml"))
    settings = CommonOptions().settings(repo_cases=cases)
    pair = Pair(before=before, after=after, settings=settings, refs=("demo/before.json", "demo/after.json"))
    _finish(compare_pair(pair), fmt=fmt, writer=writer, gate_args={}, inputs=[before, after, *cases])


def register(app: typer.Typer) -> None:
    app.command("audit")(audit_command)
    app.command("diff")(diff_command)
    app.command("demo")(demo_command)
