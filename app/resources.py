"""The one place that finds the shipped data folders (rules/, selectors/, templates/, schemas) and the cache
directory where results that depend only on their inputs are kept across runs."""

from __future__ import annotations

import os
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


def cache_dir() -> Path | None:
    """Where computed answers are kept across runs (sentence vectors, word forms), or None when caching is off:
    `TOOLCHOICE_CACHE_DIR`, default `~/.cache/toolchoice`; `TOOLCHOICE_NO_CACHE=1` (`--no-cache`) turns it off."""
    if os.environ.get("TOOLCHOICE_NO_CACHE", "").strip() not in ("", "0"):
        return None
    configured = os.environ.get("TOOLCHOICE_CACHE_DIR", "").strip()
    return Path(configured) if configured else Path.home() / ".cache" / "toolchoice"
