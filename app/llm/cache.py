"""The answer cache of model calls: Redis when REDIS_URL is set, else files; keyed by a hash of the call."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Protocol

import redis

from app.audit.models import sha256_of
from app.errors import InfrastructureError

# Redis keys are namespaced so the cache can share a database with the job queue.
REDIS_PREFIX = "toolchoice:llm:"
# A month: long enough to reuse a PR's base audit across its pushes, short enough to bound growth.
REDIS_TTL_S = 30 * 24 * 3600


class Cache(Protocol):
    """Stores one completed model call (answer text, model, tokens, latency) under its key."""

    def get(self, key: str) -> dict[str, Any] | None: ...

    def set(self, key: str, value: dict[str, Any]) -> None: ...


def call_key(
    *,
    endpoint: str,
    model: str,
    settings: dict[str, Any],
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]] | None,
    response: dict[str, Any],
) -> str:
    """The hash of everything that shapes an answer: endpoint, model, settings, messages, tools, schema."""
    return sha256_of(
        {
            "endpoint": endpoint,
            "model": model,
            "settings": settings,
            "messages": messages,
            "tools": tools,
            "response": response,
        }
    )


class FileCache:
    """One JSON file per call under `root/<first two hex digits>/<key>.json`, written atomically."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._made: set[Path] = set()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            value = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return None
        return value if isinstance(value, dict) else None

    def set(self, key: str, value: dict[str, Any]) -> None:
        path = self._path(key)
        try:
            if path.parent not in self._made:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._made.add(path.parent)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(value, fh, sort_keys=True)
            os.replace(tmp, path)
        except OSError as exc:
            raise InfrastructureError(f"cannot write the model cache in {self.root}: {exc.strerror}") from exc


class RedisCache:
    """Entries as JSON strings under REDIS_PREFIX + key, expiring after `ttl_s`."""

    def __init__(self, client: Any, *, ttl_s: int = REDIS_TTL_S) -> None:
        self.client = client
        self.ttl_s = ttl_s

    @classmethod
    def from_url(cls, url: str) -> RedisCache:
        return cls(redis.Redis.from_url(url))

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            raw = self.client.get(REDIS_PREFIX + key)
        except redis.RedisError as exc:
            raise InfrastructureError(f"the model cache in Redis failed: {exc}") from exc
        if raw is None:
            return None
        try:
            value = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            return None
        return value if isinstance(value, dict) else None

    def set(self, key: str, value: dict[str, Any]) -> None:
        try:
            self.client.set(REDIS_PREFIX + key, json.dumps(value, sort_keys=True), ex=self.ttl_s)
        except redis.RedisError as exc:
            raise InfrastructureError(f"the model cache in Redis failed: {exc}") from exc


class MemoryCache:
    """A dict; for one process (the benchmark, a library user who wants no files)."""

    def __init__(self) -> None:
        self.entries: dict[str, dict[str, Any]] = {}

    def get(self, key: str) -> dict[str, Any] | None:
        return self.entries.get(key)

    def set(self, key: str, value: dict[str, Any]) -> None:
        self.entries[key] = value
