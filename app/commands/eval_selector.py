"""`toolchoice eval-selector`: run a selector on labeled case files and print its accuracy metrics."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from app.audit.evaluation import LabeledCase, evaluate_cases, load_all
from app.audit.models import Mode
from app.audit.selection import Selector
from app.commands.output import Writer, message

LIVE_UNAVAILABLE = "live_model mode is not available in this installation"


def _selector(mode: Mode, *, profile: Path | None, model: str | None, concurrency: int | None) -> Selector:
    if mode == Mode.SYNTHETIC:
        from app.selector_factory import synthetic_selector

        return synthetic_selector(profile)
    try:
        from app.llm.factory import build_live_selector
    except ImportError:
        message(f"toolchoice: error: {LIVE_UNAVAILABLE}")
        raise typer.Exit(2) from None
    selector: Selector = build_live_selector(model=model, concurrency=concurrency)
    return selector


def sample(cases: Sequence[LabeledCase], n: int) -> list[LabeledCase]:
    """`n` of the cases, the same ones on every run and machine: those whose (file name, id) hash lowest,
    kept in their file order. A sample cuts a model's time; it mixes every file in."""
    def rank(case: LabeledCase) -> str:
        return hashlib.sha256(f"{Path(case.file).name}\0{case.id}".encode()).hexdigest()

    chosen = {id(c) for c in sorted(cases, key=rank)[:n]}
    return [c for c in cases if id(c) in chosen]


def eval_selector(
    cases: Annotated[
        list[Path], typer.Argument(help="Labeled case files (corpora/labeled format, or cases naming a server file).")
    ],
    mode: Annotated[Mode, typer.Option("--mode", help="Which selector to evaluate.")] = Mode.SYNTHETIC,
    profile: Annotated[
        Path | None, typer.Option("--profile", help="Synthetic selector profile (default: selectors/synthetic.yml).")
    ] = None,
    servers: Annotated[
        Path | None,
        typer.Option("--servers", help="Folder of server files that cases name (default: ../shared/corpora/servers)."),
    ] = None,
    per_file: Annotated[bool, typer.Option("--per-file", help="Also report the metrics of each file.")] = False,
    output: Annotated[Path | None, typer.Option("--output", help="Write the JSON here instead of stdout.")] = None,
    model: Annotated[str | None, typer.Option("--model", help="live_model: the model name.")] = None,
    concurrency: Annotated[
        int | None,
        typer.Option("--concurrency", min=1, help="live_model: requests in flight (default: profile)."),
    ] = None,
    sample_size: Annotated[
        int | None,
        typer.Option("--sample", min=1, help="Evaluate only this many cases, the same ones every run (by hash)."),
    ] = None,
) -> None:
    """Run a selector on labeled cases; print accuracy (overall, NO_TOOL, tool, per file) as JSON."""
    loaded = load_all(cases, servers_dir=servers)  # bad case files fail before any selector is built
    if sample_size is not None:
        loaded = sample(loaded, sample_size)
    selector = _selector(mode, profile=profile, model=model, concurrency=concurrency)
    report = evaluate_cases(selector, loaded, files=cases, per_file=per_file)
    Writer(output=output).write(report.to_json() + "\n")


def register(app: typer.Typer) -> None:
    app.command("eval-selector")(eval_selector)
