"""The options `audit` and `diff` share, declared once, and the effective settings they make.

`@with_common_options` adds the shared options to a command's own parameters (typer reads the signature it
builds) and hands them to the command as one `CommonOptions` value, so no command repeats the list.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, get_type_hints

import typer

from app.audit.live_plan import PlanOptions
from app.audit.models import Case, Mode
from app.commands.inputs import load_cases_file, load_config_file
from app.commands.output import NoRedactOpt
from app.config import RepoConfig
from app.errors import InputError
from app.selector_factory import LiveRun


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
EstimateOpt = Annotated[
    bool, typer.Option("--estimate", help="live_model: print the calls and tokens the audit would take; run nothing.")
]
IntentsOpt = Annotated[int, typer.Option("--intents", min=0, max=20, help="Generated intents per tool.")]
MaxCallsOpt = Annotated[
    int | None,
    typer.Option("--max-calls", min=1, help="live_model: model calls at most (a plan over it keeps its first cases)."),
]
MaxCostOpt = Annotated[
    float | None,
    typer.Option("--max-cost", help="live_model: cost at most, at TOOLCHOICE_PRICE_PER_1K_INPUT/OUTPUT prices."),
]
RecordOpt = Annotated[
    Path | None, typer.Option("--record", help="live_model: write every answer used to this JSON Lines file.")
]
ReplayOpt = Annotated[
    Path | None,
    typer.Option("--replay", help="live_model: answer only from this recording; never call the model."),
]
OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Write the report to this file.")]
InputFormatOpt = Annotated[str | None, typer.Option("--input-format", help="auto (default), mcp, openai or anthropic.")]


@dataclass(frozen=True)
class CommonOptions:
    """The options of every audit command; each field's annotation is its command-line option."""

    fmt: FormatOpt = OutputFormat.TEXT
    config: ConfigOpt = None
    cases: CasesOpt = None
    fail_under: FailUnderOpt = None
    mode: ModeOpt = None
    model: ModelOpt = None
    concurrency: ConcurrencyOpt = None
    estimate: EstimateOpt = False
    intents: IntentsOpt = 5
    output: OutputOpt = None
    input_format: InputFormatOpt = None
    no_redact: NoRedactOpt = False
    max_calls: MaxCallsOpt = None
    max_cost: MaxCostOpt = None
    record: RecordOpt = None
    replay: ReplayOpt = None

    def settings(self, *, repo_config: RepoConfig | None = None, repo_cases: list[Case] | None = None) -> Settings:
        """The effective settings: the --config file (else `repo_config`, else the defaults), flags over it;
        --cases replace the config's cases file (read beside --config, or given as `repo_cases`)."""
        if self.config is not None:
            config = load_config_file(self.config)
            config_cases = [self.config.parent / config.cases] if config.cases else []
            user_cases = [c for path in (self.cases or config_cases) for c in load_cases_file(path)]
        else:
            config = repo_config or RepoConfig()
            from_files = [c for path in self.cases or [] for c in load_cases_file(path)]
            user_cases = from_files if self.cases else list(repo_cases or [])
        if self.max_cost is not None and self.max_cost <= 0:
            raise InputError(f"--max-cost must be more than 0 (got {self.max_cost:g})")
        if self.record is not None and self.replay is not None and self.record.resolve() == self.replay.resolve():
            raise InputError(f"--record and --replay name the same file ({self.record})")
        budget = config.live.budget
        live_run = LiveRun(
            max_calls=self.max_calls if self.max_calls is not None else budget.max_calls,
            max_cost=self.max_cost if self.max_cost is not None else budget.max_cost,
            record=self.record,
            replay=self.replay,
        )
        mode = self.mode or config.mode
        if mode == Mode.SYNTHETIC and (self.max_calls or self.max_cost or self.record or self.replay):
            raise InputError("--max-calls, --max-cost, --record and --replay apply to --mode live_model only")
        plan = PlanOptions(
            scope=config.live.scope, sample=config.live.sample, max_calls=live_run.max_calls, max_cost=live_run.max_cost
        )
        return Settings(
            config=config,
            user_cases=user_cases,
            mode=mode,
            model=self.model or config.model,
            concurrency=self.concurrency or config.concurrency,
            input_format=self.input_format or config.format.value,
            live_run=live_run if mode == Mode.LIVE_MODEL else LiveRun(),
            plan=plan,
        )


@dataclass
class Settings:
    """The effective settings of one command: config file first, command-line flags over it."""

    config: RepoConfig
    user_cases: list[Case]
    mode: Mode
    model: str | None
    concurrency: int | None
    input_format: str
    live_run: LiveRun = field(default_factory=LiveRun)
    plan: PlanOptions = field(default_factory=PlanOptions)


_HINTS = get_type_hints(CommonOptions, include_extras=True)
_COMMON = [
    inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default, annotation=_HINTS[f.name])
    for f in fields(CommonOptions)
]


def with_common_options(command: Callable[..., None]) -> Callable[..., None]:
    """`command(own options…, *, common: CommonOptions)` as a typer command taking the common options too."""
    own = [p for p in inspect.signature(command, eval_str=True).parameters.values() if p.name != "common"]
    names = [p.name for p in _COMMON]

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> None:
        common = CommonOptions(**{name: kwargs.pop(name) for name in names})
        command(common=common, **kwargs)

    parameters = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own] + _COMMON
    wrapper.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in parameters}
    del wrapper.__wrapped__  # typer must read the signature above, not the command's own
    return wrapper

