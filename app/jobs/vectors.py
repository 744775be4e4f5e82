"""Sentence vectors shared by the App's workers through Redis, so a text is embedded once for all of them.

A vector is kept under `toolchoice:vector:<sha256 of (what computed it, text)>` (the same key as the on-disk cache,
app/semantic/vector_cache.py), 1,536 bytes of float32, for `VECTOR_TTL_S` after it was last written. Redis being
away costs time, never a review: what cannot be read is computed, what cannot be written is dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import cast

import numpy as np
from redis import Redis
from redis.exceptions import RedisError

from app.jobs.enqueue import KEY_PREFIX
from app.semantic.vector_cache import DIMENSIONS, text_key

log = logging.getLogger(__name__)

# A tool text or request not seen for a month is dropped; a review that meets it again computes it (milliseconds).
VECTOR_TTL_S = 30 * 24 * 3600
_BATCH = 500  # keys per MGET / pipeline


def redis_key(model_key: str, text: str) -> str:
    return f"{KEY_PREFIX}:vector:{text_key(model_key, text).hex()}"


class RedisVectors:
    """A VectorStore in Redis; every Redis error makes a call a no-op."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    @property
    def usable(self) -> bool:
        return True

    def get_many(self, model_key: str, texts: Iterable[str]) -> dict[str, np.ndarray]:
        wanted = list(dict.fromkeys(texts))
        found: dict[str, np.ndarray] = {}
        try:
            for start in range(0, len(wanted), _BATCH):
                chunk = wanted[start : start + _BATCH]
                # redis-py types every reply as `Awaitable[Any] | Any` (sync and async share the commands); a sync
                # client's MGET is a list of bytes or None.
                values = cast(list[bytes | None], self._redis.mget([redis_key(model_key, t) for t in chunk]))
                for text, blob in zip(chunk, values, strict=True):
                    if isinstance(blob, bytes) and len(blob) == DIMENSIONS * 4:
                        found[text] = np.frombuffer(blob, dtype=np.float32)
        except RedisError as exc:
            log.warning("sentence vectors not read from Redis (%s): computing them", type(exc).__name__)
            return {}
        return found

    def put_many(self, model_key: str, vectors: Mapping[str, np.ndarray]) -> None:
        items = list(vectors.items())
        try:
            for start in range(0, len(items), _BATCH):
                pipe = self._redis.pipeline(transaction=False)
                for text, vector in items[start : start + _BATCH]:
                    blob = np.asarray(vector, dtype=np.float32).tobytes()
                    pipe.set(redis_key(model_key, text), blob, ex=VECTOR_TTL_S)
                pipe.execute()
        except RedisError as exc:
            log.warning("sentence vectors not written to Redis (%s)", type(exc).__name__)


def share_vectors(redis: Redis) -> None:
    """Make this process's synthetic selector read and write vectors through Redis, and load its model now, so
    the jobs a worker forks start with both (a review's new texts are then embedded once for every worker)."""
    from app.selector_factory import synthetic_similarity

    similarity = synthetic_similarity()
    if similarity is None:
        return
    similarity.share_through(RedisVectors(redis))
    similarity.load()
