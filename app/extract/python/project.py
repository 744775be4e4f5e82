"""What a Python project's files say about its Python version and its exact FastMCP version."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from app.extract.common import nearest

# Folders above a file searched for its project files (src/ layouts, monorepos).
MAX_LEVELS = 8
# The first Python whose compiler strips docstring indentation (CPython 3.13, "What's New": docstrings).
STRIPPING_PYTHON = (3, 13)

_VERSION_FILE = re.compile(r"^\s*(?:cpython-|python-?)?(\d+)\.(\d+)", re.IGNORECASE)
_REQUIRES = re.compile(r"""^\s*requires-python\s*=\s*["']([^"']*)["']""", re.MULTILINE)
_CLAUSE = re.compile(r"(>=|<=|==|~=|!=|>|<)\s*(\d+)(?:\.(\d+|\*))?(\.\d+)?")
_LOCKED = re.compile(r'name\s*=\s*"fastmcp"\s*\nversion\s*=\s*"(\d+)\.(\d+)(?:\.(\d+))?')
_PINNED = re.compile(r"""fastmcp(?:\[[^\]]*\])?\s*===?\s*v?(\d+)\.(\d+)(?:\.(\d+))?""", re.IGNORECASE)


def strips_docstrings(file: Path | None) -> bool | None:
    """True when the project runs on Python 3.13+, False when on an older one, None when its files do not say:
    the nearest folder holding `.python-version` or `pyproject.toml` decides (the choice: python_docstrings.py)."""
    return python_at_least(file, STRIPPING_PYTHON)


def python_at_least(file: Path | None, version: tuple[int, int]) -> bool | None:
    """True when the project of `file` runs on Python `version` or later, False when on an older one, None when
    its files do not say (the nearest folder holding `.python-version` or `pyproject.toml` decides)."""
    if file is None:
        return None
    folder = file.resolve().parent
    for _ in range(MAX_LEVELS):
        found = _python_of(folder, version)
        if found is not None:
            return found[0]
        if folder.parent == folder:
            break
        folder = folder.parent
    return None


@lru_cache(maxsize=1024)
def _python_of(folder: Path, threshold: tuple[int, int]) -> tuple[bool | None] | None:
    """(decision,) when `folder` is a project root, None when it holds neither file."""
    version_file, manifest = folder / ".python-version", folder / "pyproject.toml"
    if version_file.is_file():
        match = _VERSION_FILE.match(_read(version_file))
        if match:
            return ((int(match.group(1)), int(match.group(2))) >= threshold,)
    if manifest.is_file():
        match = _REQUIRES.search(_read(manifest))
        return (_decided(match.group(1), threshold) if match else None,)
    return None


def _decided(spec: str, threshold: tuple[int, int]) -> bool | None:
    """True when every version `spec` allows is `threshold` or later, False when every one is older, else None."""
    for op, major_text, minor_text, patch in _CLAUSE.findall(spec):
        version = (int(major_text), int(minor_text) if minor_text.isdigit() else 0)
        if op in {">=", ">", "~=", "=="} and version >= threshold:
            return True
        if (op == "<" and version <= threshold) or (op in {"<=", "=="} and version < threshold):
            return False
        if op == "~=" and patch and version < threshold:
            return False  # `~=3.11.0` stays on 3.11
    return None


def fastmcp_version(file: Path | None) -> tuple[int, int, int] | None:
    """The exact FastMCP version of the nearest lock file or `==` pin; None when only a range (or nothing) says."""
    if file is None:
        return None
    return nearest(file, _fastmcp_of, levels=MAX_LEVELS)


@lru_cache(maxsize=1024)
def _fastmcp_of(folder: Path) -> tuple[int, int, int] | None:
    for name, pattern in (("uv.lock", _LOCKED), ("poetry.lock", _LOCKED), ("pyproject.toml", _PINNED),
                          ("requirements.txt", _PINNED), ("requirements.in", _PINNED)):
        path = folder / name
        if path.is_file():
            match = pattern.search(_read(path))
            if match:
                return int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)
    return None


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
