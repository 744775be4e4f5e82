"""`toolchoice cases write`: the generated suite as a cases file a person reads, edits and commits.

Written once (by the synthetic generator, or with `--mode live_model` by the model, its cases validated by a
separate call), then owned by the repository: read back as `user_defined` cases, and with `generate: false` in
the config later reviews run exactly these and write no requests anew, so a model writes them once, not on
every push.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from app.audit.models import Mode
from app.commands.inputs import load_inputs
from app.commands.options import ConfigOpt, IntentsOpt, ModelOpt, ModeOpt
from app.commands.output import message
from app.errors import InputError

cases_app = typer.Typer(help="The suite as a file the repository owns.", no_args_is_help=True)


@cases_app.command("write")
def write_command(
    out: Annotated[Path, typer.Argument(help="The cases file to write (YAML).")],
    files: Annotated[list[Path], typer.Argument(help="Tool-definition files (JSON/YAML, MCP/OpenAI/Anthropic).")],
    *,
    config: ConfigOpt = None,
    mode: ModeOpt = None,
    model: ModelOpt = None,
    intents: IntentsOpt = 5,
    force: Annotated[bool, typer.Option("--force", help="Replace OUT when it exists.")] = False,
) -> None:
    """Write the generated requests for FILES to OUT: commit it, set `cases: OUT` and `generate: false`."""
    from app.audit.suite.build import build_suite
    from app.audit.suite.cases_file import dump_cases
    from app.commands.options import CommonOptions
    from app.selector_factory import make_selector

    if out.exists() and not force:
        raise InputError(f"{out} exists; pass --force to replace it")
    settings = CommonOptions(config=config, mode=mode, model=model).settings()
    toolset = load_inputs(files, fmt=settings.input_format, config=settings.config)
    generator = None
    by = f"the synthetic generator ({intents} requests per tool, validated by a separate scorer)"
    if settings.mode == Mode.LIVE_MODEL:
        from app.audit.engine import selector_generator

        selector = make_selector(settings.mode, model=settings.model, concurrency=settings.concurrency)
        generator = selector_generator(selector)
        by = f"the model {selector.info.name} ({intents} requests per tool, each validated by a separate call)"
    suite = build_suite([toolset], intents_per_tool=intents, generator=generator)
    sources = ", ".join(str(f) for f in files)
    header = "\n".join(
        [
            f"Written by `toolchoice cases write` from {sources}, by {by}.",
            "These cases are now yours: read them, fix a request that reads wrong, delete one that asks the wrong",
            "thing, add your own. Reviews read them as user_defined cases; a confidence under 0.7 keeps a case",
            "exploratory (shown, not scored). In .github/toolchoice.yml:",
            f"  cases: {out.as_posix()}",
            "  generate: false   # run these cases only; write no requests anew on each push",
        ]
    )
    out.write_text(dump_cases(list(suite.cases), header=header), encoding="utf-8")
    scored = sum(1 for c in suite.cases if c.scored)
    message(f"toolchoice: wrote {len(suite.cases)} cases ({scored} scored) for {len(toolset.tools)} tools to {out}")


def register(app: typer.Typer) -> None:
    app.add_typer(cases_app, name="cases")
