"""The one place that finds the shipped data folders: rules/, selectors/, templates/ (and schemas)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
# In a checkout (or an editable install) the folders stand at the top of the repository; in a wheel
# they are packaged inside app/_data/ (see pyproject.toml).
_CANDIDATES = (_PACKAGE.parent, _PACKAGE / "_data")


@cache
def data_dir(name: str) -> Path:
    """Path of the shipped folder `name` ("rules", "selectors", "templates")."""
    for base in _CANDIDATES:
        path = base / name
        if path.is_dir():
            return path
    raise FileNotFoundError(f"ToolChoice's {name}/ folder is missing from this installation")


def rules_dir() -> Path:
    return data_dir("rules")


def selectors_dir() -> Path:
    return data_dir("selectors")


def templates_dir() -> Path:
    return data_dir("templates")


def schemas_dir() -> Path:
    return _PACKAGE / "schemas"
