"""`toolchoice report FILE.json --html out.html`: the report page rendered offline from a JSON export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from app.audit.results import Comparison
from app.commands.inputs import display_name, read_text
from app.commands.output import Writer
from app.errors import InputError
from app.render.json_export import SCHEMA_VERSION
from app.render.output import Format, render_output


def report_command(
    export_file: Annotated[Path, typer.Argument(help="A JSON export (`toolchoice audit|diff|demo --format json`).")],
    html: Annotated[Path, typer.Option("--html", help="Write the HTML page to this file.")],
) -> None:
    """Render the HTML report page of an audit or a comparison from its JSON export (secrets redacted)."""
    from app.render.html_page import read_export

    name = display_name(export_file)
    text = read_text(export_file)
    try:
        version = json.loads(text).get("schema_version")
    except (json.JSONDecodeError, AttributeError) as exc:
        raise InputError(f"not a ToolChoice JSON export ({exc})", file=name) from None
    if version != SCHEMA_VERSION:
        raise InputError(f"export version {version!r}; this version reads {SCHEMA_VERSION!r}", file=name)
    try:
        result = read_export(text)
    except (ValidationError, ValueError) as exc:
        first = exc.errors()[0] if isinstance(exc, ValidationError) else {"loc": (), "msg": str(exc)}
        where = ".".join(str(p) for p in first["loc"]) or "top level"
        raise InputError(f"not a ToolChoice JSON export ({where}: {first['msg']})", file=name) from None
    kind = "comparison" if isinstance(result, Comparison) else "audit"
    page = render_output(result, Format.HTML)
    Writer(output=html).write(page.text, keep=page.keep)
    Writer().write(f"wrote {html} ({kind}, {result.mode.value})")


def register(app: typer.Typer) -> None:
    app.command("report")(report_command)
