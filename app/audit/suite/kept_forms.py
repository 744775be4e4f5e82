"""lemminflect's answers kept across runs, so a second audit of the same words never loads its tables.

lemminflect reads two compressed tables the first time it is asked anything (about 0.3 s a process). Its answers
depend only on the word and lemminflect's version, so they are kept in one SQLite file (`words.sqlite3` under the
cache directory (app/resources.py: `TOOLCHOICE_CACHE_DIR`, default `~/.cache/toolchoice`; off with
`TOOLCHOICE_NO_CACHE=1`)), keyed by that version. A run reads every kept answer of its version once, asks
lemminflect only about words it has not seen, and writes those at exit. A kept answer is the computed one, so
results never depend on the cache; a file that cannot be opened or written leaves the run as without a cache.
"""

from __future__ import annotations

import atexit
import json
import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from app.resources import cache_dir

FILE_NAME = "words.sqlite3"
# Answers are loaded whole: a kept table past this many rows of one version is not read (a run then asks
# lemminflect), so a cache that grew without bound never slows a run down.
MAX_ROWS = 400_000

_lock = threading.Lock()
_pending: dict[str, str] = {}
_registered: list[bool] = []


@cache
def _version() -> str:
    try:
        return version("lemminflect")
    except PackageNotFoundError:  # pragma: no cover - lemminflect is a dependency
        return "unknown"


@cache
def _kept() -> dict[str, Any]:
    """Every kept answer of this lemminflect version, by key; {} without a usable cache."""
    path = _path()
    if path is None or not path.exists():
        return {}
    try:
        with closing(sqlite3.connect(path, timeout=30)) as db:
            (count,) = db.execute("SELECT count(*) FROM answers WHERE version = ?", (_version(),)).fetchone()
            if count > MAX_ROWS:
                return {}
            rows = db.execute("SELECT key, value FROM answers WHERE version = ?", (_version(),)).fetchall()
        return {key: json.loads(value) for key, value in rows}
    except (sqlite3.Error, OSError, ValueError):
        return {}


def _path() -> Any:
    directory = cache_dir()
    return None if directory is None else directory / FILE_NAME


def kept(kind: str, compute: Callable[..., Any], *args: str) -> Any:
    """compute(*args), or its kept answer (as JSON gives it back: lists, not tuples; the caller converts)."""
    key = "\0".join((kind, *args))
    known = _kept()
    if key in known:
        return known[key]
    answer = compute(*args)
    if _path() is not None:
        with _lock:
            if not _registered:
                _registered.append(True)
                atexit.register(flush)
            _pending[key] = json.dumps(answer)
    return answer


def flush() -> None:
    """Write the answers computed in this run; every failure is ignored (they are computed again next time)."""
    path = _path()
    with _lock:
        rows = [(_version(), key, value) for key, value in sorted(_pending.items())]
        _pending.clear()
    if path is None or not rows:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with closing(sqlite3.connect(path, timeout=30)) as db, db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS answers (version TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,"
                " PRIMARY KEY (version, key))"
            )
            db.executemany("INSERT OR IGNORE INTO answers (version, key, value) VALUES (?, ?, ?)", rows)
    except (sqlite3.Error, OSError):
        pass
