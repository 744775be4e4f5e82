"""`toolchoice rules`: list the rules (id, dimension, severity, target, rationale) as text or JSON."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from app.audit.rules.ruleset import RuleSet, load_rules


class ListFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


def render_text(rules: RuleSet) -> str:
    rows = [(r.id, r.dimension.value, r.severity.value, r.target.value, r.rationale) for r in rules.rules]
    widths = [max(len(row[i]) for row in rows) for i in range(4)] if rows else [0] * 4
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:4])) + "  " + row[4] for row in rows]
    lines.append(f"{len(rows)} rules, hash {rules.hash[:12]}")
    return "\n".join(lines)


def render_json(rules: RuleSet) -> str:
    data = {
        "hash": rules.hash,
        "rules": [
            {
                "id": r.id,
                "dimension": r.dimension.value,
                "severity": r.severity.value,
                "target": r.target.value,
                "function": r.then.function,
                "options": r.then.options,
                "message": r.message,
                "rationale": r.rationale,
                "recommendation": r.recommendation,
            }
            for r in rules.rules
        ],
    }
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)


def rules_command(
    output_format: Annotated[ListFormat, typer.Option("--format", "-f", help="Output format.")] = ListFormat.TEXT,
    rules_dir: Annotated[
        Path | None, typer.Option("--rules-dir", help="Another rules folder (with its schema.json) to list and check.")
    ] = None,
) -> None:
    """List the rules: id, dimension, severity, target and why each matters."""
    rules = load_rules(rules_dir)
    typer.echo(render_json(rules) if output_format == ListFormat.JSON else render_text(rules))


def register(app: typer.Typer) -> None:
    app.command("rules")(rules_command)
