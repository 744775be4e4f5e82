"""Secrets seeded in a tool set, counted at every output of the command line: how many reach each output
when nothing is redacted (`--no-redact` on a terminal), and how many leak with redaction (the default).

    PYTHONPATH=. python bench/bench_redaction.py

The seeded set (tests/reports/seeded_secrets.py: 37 fake values of 26 kinds, made at run time) sits in
descriptions, enum members, defaults and examples (tests/reports/seeded_secrets.py: tools_in_every_field).
Prints a Markdown table for docs/reliability.md.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from reports.conftest import leaks  # noqa: E402
from reports.seeded_secrets import seeded_secrets, tools_in_every_field  # noqa: E402

from app.cli import app  # noqa: E402
from app.commands import output  # noqa: E402


def run(args: list[str], *, raw: bool) -> str:
    result = CliRunner().invoke(app, [*args, *(["--no-redact"] if raw else [])], catch_exceptions=False)
    return result.stdout


def main() -> None:
    secrets = seeded_secrets()
    output.stdout_is_terminal = lambda: True  # as on a user's terminal, so --no-redact gives the raw count
    for name in output.CI_VARIABLES:
        os.environ.pop(name, None)
    work = Path(tempfile.mkdtemp())
    tools = tools_in_every_field(secrets)
    base, head = work / "base.json", work / "head.json"
    base.write_text(json.dumps({"tools": tools[:-2]}))
    head.write_text(json.dumps({"tools": tools}))
    rows = []
    for fmt in ("text", "md", "json", "sarif"):
        rows.append((f"`audit --format {fmt}`", ["audit", str(head), "--format", fmt]))
    for fmt in ("text", "md", "json", "sarif"):
        rows.append((f"`diff --format {fmt}`", ["diff", str(base), str(head), "--format", fmt]))
    rows += [
        ("`suggest`", ["suggest", str(head)]),
        ("`suggest --format json`", ["suggest", str(head), "--format", "json"]),
    ]
    print(f"{len(secrets)} seeded secrets of {len({s.kind for s in secrets})} kinds\n")
    print("| output | seeded | reach it unredacted | leaked (redacted, the default) |")
    print("|---|---:|---:|---:|")
    for label, args in rows:
        raw, clean = run(args, raw=True), run(args, raw=False)
        print(f"| {label} | {len(secrets)} | {len(leaks(raw, secrets))} | {len(leaks(clean, secrets))} |")


if __name__ == "__main__":
    main()
