"""Sentence vectors kept across runs on disk, so a text is embedded once per machine, not once per review.

One SQLite file (`vectors.sqlite3` under `TOOLCHOICE_CACHE_DIR`, default `~/.cache/toolchoice`), WAL journal, so
several processes read and write it at once; rows are keyed by sha256 of the model's weights hash and the text, and
hold the float32 vector exactly as the model gave it (a cached vector is the computed one, bit for bit, so results
do not depend on the cache). `TOOLCHOICE_NO_CACHE=1` (the command line's `--no-cache`) turns it off. A cache that
cannot be opened or written (a read-only home, a damaged file) is left alone: vectors are then computed, as
without a cache.

The table `weights` remembers the weights hash of a model file by its path, size and modification time, so a
run whose texts are all cached never reads the 90 MB model at all.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Protocol

import numpy as np

from app.resources import cache_dir as cache_dir  # re-exported: where vectors are kept

DIMENSIONS = 384
FILE_NAME = "vectors.sqlite3"


class VectorStore(Protocol):
    """Where computed vectors are kept by (what computed them, text): this file, or Redis for the App's workers
    (app/jobs/vectors.py). A store never raises: what it cannot read is computed again."""

    @property
    def usable(self) -> bool: ...

    def get_many(self, model_key: str, texts: Iterable[str]) -> dict[str, np.ndarray]: ...

    def put_many(self, model_key: str, vectors: Mapping[str, np.ndarray]) -> None: ...


def text_key(model_key: str, text: str) -> bytes:
    """sha256 of what computed a vector and its text: the key a store keeps the vector under."""
    return hashlib.sha256(f"{model_key}\0{text}".encode("utf-8", "surrogatepass")).digest()


class VectorCache:
    """Vectors by (model weights hash, text) in one SQLite file; every failure makes it a no-op, never an error."""

    def __init__(self, directory: Path) -> None:
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        try:
            directory.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(directory / FILE_NAME, timeout=30, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)")
            db.execute("CREATE TABLE IF NOT EXISTS weights (file TEXT PRIMARY KEY, sha256 TEXT NOT NULL)")
            db.commit()
            self._db = db
        except (OSError, sqlite3.Error):
            self._db = None

    @property
    def usable(self) -> bool:
        return self._db is not None

    def get_many(self, model_key: str, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The cached vectors of `texts` (those found)."""
        wanted = {text_key(model_key, t): t for t in texts}
        if self._db is None or not wanted:
            return {}
        found: dict[str, np.ndarray] = {}
        keys = list(wanted)
        try:
            with self._lock:
                for start in range(0, len(keys), 500):
                    chunk = keys[start : start + 500]
                    marks = ",".join("?" * len(chunk))
                    rows = self._db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({marks})", chunk)
                    for key, blob in rows:
                        vector = np.frombuffer(blob, dtype=np.float32)
                        if vector.shape == (DIMENSIONS,):
                            found[wanted[key]] = vector
        except sqlite3.Error:
            return {}
        return found

    def put_many(self, model_key: str, vectors: Mapping[str, np.ndarray]) -> None:
        if self._db is None or not vectors:
            return
        rows = [(text_key(model_key, t), np.asarray(v, dtype=np.float32).tobytes()) for t, v in vectors.items()]
        try:
            with self._lock:
                self._db.executemany("INSERT OR IGNORE INTO vectors (key, vector) VALUES (?, ?)", rows)
                self._db.commit()
        except sqlite3.Error:
            pass

    def weights_sha256(self, path: Path) -> str | None:
        """The remembered weights hash of the model file at `path`, if its size and time are unchanged."""
        if self._db is None:
            return None
        try:
            with self._lock:
                row = self._db.execute("SELECT sha256 FROM weights WHERE file = ?", (_file_id(path),)).fetchone()
        except (sqlite3.Error, OSError):
            return None
        return str(row[0]) if row else None

    def remember_weights(self, path: Path, sha256: str) -> None:
        if self._db is None:
            return
        try:
            with self._lock:
                row = (_file_id(path), sha256)
                self._db.execute("INSERT OR REPLACE INTO weights (file, sha256) VALUES (?, ?)", row)
                self._db.commit()
        except (sqlite3.Error, OSError):
            pass


def _file_id(path: Path) -> str:
    stat = path.stat()
    return f"{path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}"
