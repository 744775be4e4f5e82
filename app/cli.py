"""The `toolchoice` command line: one typer app; each command lives in a module of app/commands/."""

from __future__ import annotations

import importlib
import os
import sys

import typer

from app.commands.output import message, redact_logs
from app.errors import ToolChoiceError

app = typer.Typer(
    name="toolchoice",
    help="Audit LLM tool definitions: deterministic findings, tool-selection runs, scores, before/after.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

# Each module defines `register(app)`; order here is the order of `toolchoice --help`.
COMMAND_MODULES: tuple[str, ...] = (
    "app.commands.audit",
    "app.commands.cases",
    "app.commands.lint",
    "app.commands.rules",
    "app.commands.extract",
    "app.commands.snapshots",
    "app.commands.eval_selector",
    "app.commands.report",
    "app.commands.suggest",
    "app.commands.serve",
    "app.commands.worker",
)

@app.callback()
def _options(
    no_cache: bool = typer.Option(
        False,
        "--no-cache",
        help="Embed every text and look up every word form anew instead of reading what earlier runs kept "
        "(under TOOLCHOICE_CACHE_DIR, default ~/.cache/toolchoice).",
    ),
) -> None:
    """Options before the command: `toolchoice --no-cache audit ...`."""
    if no_cache:
        os.environ["TOOLCHOICE_NO_CACHE"] = "1"


for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    """Entry point: user errors print one line and exit 2, never a traceback."""
    redact_logs()
    try:
        app()
    except ToolChoiceError as exc:
        message(f"toolchoice: error: {exc}")
        sys.exit(2)
    except KeyboardInterrupt:
        typer.echo("toolchoice: interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
