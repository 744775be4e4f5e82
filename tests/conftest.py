"""Shared test fixtures: where ../shared is, and a skip when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def shared_path(*parts: str) -> Path:
    """A path under ../shared, skipping the test (with the reason) when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared corpora are not next to this checkout")
    return path


@pytest.fixture
def shared() -> Path:
    return shared_path()
