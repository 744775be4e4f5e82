"""Writing to the workflow: the job summary, step outputs and annotations (GitHub's workflow commands)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from pathlib import Path


def workflow_message(level: str, message: str) -> str:
    """A `::notice::`, `::warning::` or `::error::` line (GitHub shows it on the run and the pull request)."""
    escaped = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return f"::{level}::{escaped}"


def append_summary(path: Path, markdown: str) -> None:
    """Add `markdown` to the job summary ($GITHUB_STEP_SUMMARY; earlier steps' parts are kept)."""
    with path.open("a", encoding="utf-8") as out:
        out.write(markdown.rstrip("\n") + "\n")


def write_outputs(path: Path, values: Mapping[str, str]) -> None:
    """Step outputs in $GITHUB_OUTPUT's multi-line form, with a delimiter no value contains."""
    with path.open("a", encoding="utf-8") as out:
        for name, value in values.items():
            delimiter = f"toolchoice_{uuid.uuid4().hex}"
            out.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
