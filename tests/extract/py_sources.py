"""Small helpers of the Python extraction tests: sources written to a folder, a tool's listing, the messages."""

from __future__ import annotations

import textwrap
from pathlib import Path

from app.audit.models import ToolSet


def write_sources(folder: Path, files: dict[str, str]) -> Path:
    for name, body in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(body).lstrip("\n"))
    return folder


def listed(tools: ToolSet, name: str) -> dict[str, object]:
    return next(t.to_mcp() for t in tools.tools if t.name == name)


def messages(tools: ToolSet) -> list[str]:
    return [f.message for f in tools.load_findings]
