"""Reading the CLI's inputs from disk: definition files, source files and folders, cases, config."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from app.audit.loader import load_definitions, merge_toolsets
from app.audit.models import Case, ToolSet
from app.config import RepoConfig, load_config
from app.errors import DefinitionError, InputError

DATA_SUFFIXES = (".json", ".yaml", ".yml")
# Files never read as inputs when a folder is walked.
SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv", "venv", "dist", "build", ".tox"}


def display_name(path: Path) -> str:
    """A path as shown in findings: relative to the working directory when it is inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", file=display_name(path)) from None
    except IsADirectoryError:
        raise InputError("is a folder, expected a file", file=display_name(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", file=display_name(path)) from None
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror}", file=display_name(path)) from None


def _is_source(path: Path) -> bool:
    try:
        from app.extract import is_source_file
    except ImportError:
        return False
    return bool(is_source_file(path))


def load_file(path: Path, *, fmt: str = "auto") -> ToolSet:
    """One file: a data file through the loader, a source file through static extraction."""
    if _is_source(path):
        from app.extract import extract_file

        return extract_file(path, display_name=display_name(path))
    return load_definitions(display_name(path), text=read_text(path), fmt=fmt)


def load_inputs(paths: Sequence[Path], *, fmt: str = "auto", config: RepoConfig | None = None) -> ToolSet:
    """All tools of `paths`; a folder contributes the files its config `paths` globs select."""
    sets: list[ToolSet] = []
    for path in paths:
        if path.is_dir():
            files = _walk(path, config or RepoConfig())
            if not files:
                raise DefinitionError(
                    "no tool-definition files found in this folder (see the config's `paths` globs)",
                    file=display_name(path),
                )
            sets.extend(load_file(f, fmt=fmt) for f in files)
        elif not path.exists():
            raise InputError("no such file or folder", file=display_name(path))
        else:
            sets.append(load_file(path, fmt=fmt))
    return merge_toolsets(sets)


def _walk(root: Path, config: RepoConfig) -> list[Path]:
    found = []
    for path in sorted(root.rglob("*")):
        if any(part in SKIP_DIRS for part in path.relative_to(root).parts) or not path.is_file():
            continue
        relative = path.relative_to(root).as_posix()
        if config.matches(relative):
            found.append(path)
    return found


def load_cases_file(path: Path) -> list[Case]:
    from app.audit.suite.cases_file import load_cases  # the suite's modules load word forms: only when needed

    return load_cases(display_name(path), text=read_text(path))


def load_config_file(path: Path) -> RepoConfig:
    return load_config(display_name(path), text=read_text(path))
