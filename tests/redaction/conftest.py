"""Seeded secrets in every field of a tool set, written to files the command line reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reports.seeded_secrets import Seeded, seeded_secrets, tools_in_every_field


@pytest.fixture(scope="session")
def seeded() -> list[Seeded]:
    return seeded_secrets()


@pytest.fixture(scope="session")
def seeded_files(tmp_path_factory: pytest.TempPathFactory, seeded: list[Seeded]) -> tuple[Path, Path]:
    """(base, head): head carries every seeded secret; base the same tools minus the last two."""
    root = tmp_path_factory.mktemp("seeded")
    tools = tools_in_every_field(seeded)
    base, head = root / "base.json", root / "head.json"
    base.write_text(json.dumps({"tools": tools[:-2]}, indent=2), encoding="utf-8")
    head.write_text(json.dumps({"tools": tools}, indent=2), encoding="utf-8")
    return base, head
