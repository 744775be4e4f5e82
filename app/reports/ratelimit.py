"""Per-client-address limits for the public audit API: a Redis counter per window, or in memory."""

from __future__ import annotations

import threading
import time
from typing import Protocol

from redis import Redis

REDIS_PREFIX = "toolchoice:rate:audits:"


class RateLimiter(Protocol):
    def allow(self, client: str) -> bool: ...


class RedisRateLimiter:
    """Fixed windows: INCR a key named after the client and the window, expiring with the window."""

    def __init__(self, redis: Redis, *, limit: int, window_seconds: int) -> None:
        self.redis = redis
        self.limit = limit
        self.window = window_seconds

    def allow(self, client: str) -> bool:
        window = int(time.time() // self.window)
        key = f"{REDIS_PREFIX}{client}:{window}"
        pipe = self.redis.pipeline()
        pipe.incr(key)
        pipe.expire(key, self.window, nx=True)
        count, _ = pipe.execute()
        return int(count) <= self.limit


class MemoryRateLimiter:
    """The same fixed windows in one process (embedded mode, no Redis)."""

    def __init__(self, *, limit: int, window_seconds: int) -> None:
        self.limit = limit
        self.window = window_seconds
        self._counts: dict[tuple[str, int], int] = {}
        self._lock = threading.Lock()

    def allow(self, client: str) -> bool:
        window = int(time.time() // self.window)
        with self._lock:
            if len(self._counts) > 10_000:
                self._counts = {k: v for k, v in self._counts.items() if k[1] == window}
            count = self._counts.get((client, window), 0) + 1
            self._counts[(client, window)] = count
        return count <= self.limit
