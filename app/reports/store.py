"""Where stored reports live: Redis (keys expire by TTL) or a local folder (expiry checked on read and swept)."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ValidationError
from redis import Redis
from redis.exceptions import RedisError

from app.errors import InfrastructureError

log = logging.getLogger(__name__)

REDIS_PREFIX = "toolchoice:report:"
# Ids are secrets.token_urlsafe output; anything else is refused before it reaches a key or a path.
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{22,64}$")

Clock = Callable[[], float]


class StoredRecord(BaseModel):
    """One stored report: its redacted JSON export and what the service needs to serve it."""

    id: str
    kind: str  # "audit" or "comparison"
    private: bool = False
    installation_id: int | None = None
    created_at: float
    expires_at: float
    export: str

    def expired(self, now: float) -> bool:
        return now >= self.expires_at


class ReportStore(Protocol):
    def put(self, record: StoredRecord) -> None: ...
    def get(self, report_id: str) -> StoredRecord | None: ...
    def delete(self, report_id: str) -> None: ...
    def sweep(self) -> int: ...


def valid_id(report_id: str) -> bool:
    return bool(ID_PATTERN.match(report_id))


class RedisReportStore:
    """One string key per report, set with the report's expiry as its TTL: Redis deletes it, nothing is kept."""

    def __init__(self, redis: Redis, *, clock: Clock = time.time) -> None:
        self.redis = redis
        self.clock = clock

    def put(self, record: StoredRecord) -> None:
        ttl_ms = max(1, int((record.expires_at - self.clock()) * 1000))
        try:
            self.redis.set(REDIS_PREFIX + record.id, record.model_dump_json(), px=ttl_ms)
        except RedisError as exc:
            raise InfrastructureError(f"cannot store the report in Redis: {exc}") from None

    def get(self, report_id: str) -> StoredRecord | None:
        if not valid_id(report_id):
            return None
        try:
            raw: bytes | None = self.redis.get(REDIS_PREFIX + report_id)  # type: ignore[assignment]
        except RedisError as exc:
            raise InfrastructureError(f"cannot read the report from Redis: {exc}") from None
        if raw is None:
            return None
        return _unexpired(self, StoredRecord.model_validate_json(raw))

    def delete(self, report_id: str) -> None:
        if valid_id(report_id):
            self.redis.delete(REDIS_PREFIX + report_id)

    def sweep(self) -> int:
        """Redis expires keys by itself; nothing to sweep."""
        return 0


def _unexpired(store: RedisReportStore | LocalReportStore, record: StoredRecord) -> StoredRecord | None:
    """The record, or None (and deleted) once it has expired."""
    if record.expired(store.clock()):
        store.delete(record.id)
        return None
    return record


class LocalReportStore:
    """One file per report (`<id>.json`, owner-only), written atomically; expired files are deleted when
    read and by `sweep()` (the service sweeps on every write)."""

    def __init__(self, root: Path, *, clock: Clock = time.time) -> None:
        self.root = root
        self.clock = clock

    def _path(self, report_id: str) -> Path:
        return self.root / f"{report_id}.json"

    def put(self, record: StoredRecord) -> None:
        try:
            self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = self.root / f".{record.id}.tmp"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(record.model_dump_json())
            os.replace(tmp, self._path(record.id))
        except OSError as exc:
            raise InfrastructureError(f"cannot store the report in {self.root}: {exc.strerror}") from None

    def get(self, report_id: str) -> StoredRecord | None:
        if not valid_id(report_id):
            return None
        path = self._path(report_id)
        try:
            record = StoredRecord.model_validate_json(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValidationError) as exc:
            log.warning("report %s: unreadable file, deleted (%s)", report_id, type(exc).__name__)
            self.delete(report_id)
            return None
        return _unexpired(self, record)

    def delete(self, report_id: str) -> None:
        if valid_id(report_id):
            with contextlib.suppress(FileNotFoundError):
                self._path(report_id).unlink()

    def sweep(self) -> int:
        """Delete every expired report file (and stale partial writes); returns how many were deleted."""
        if not self.root.is_dir():
            return 0
        now = self.clock()
        deleted = 0
        for path in self.root.iterdir():
            if path.name.startswith(".") and path.name.endswith(".tmp"):
                if now - path.stat().st_mtime > 3600:
                    path.unlink(missing_ok=True)
                    deleted += 1
                continue
            if path.suffix != ".json":
                continue
            try:
                expired = StoredRecord.model_validate_json(path.read_text(encoding="utf-8")).expired(now)
            except (OSError, ValidationError):
                expired = True
            if expired:
                path.unlink(missing_ok=True)
                deleted += 1
        return deleted
