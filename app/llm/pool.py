"""Bounded concurrent map: results in input order; the first exception cancels what has not started."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from typing import TypeVar

from app.llm.warmup import build_response_models

In = TypeVar("In")
Out = TypeVar("Out")


def map_bounded(fn: Callable[[In], Out], items: Sequence[In], *, bound: int) -> list[Out]:
    """[fn(x) for x in items] with at most `bound` running at once; raises the first failure seen."""
    if bound <= 1 or len(items) <= 1:
        return [fn(x) for x in items]
    build_response_models()  # before the threads: the SDK's models are not safe to build concurrently
    with ThreadPoolExecutor(max_workers=min(bound, len(items))) as pool:
        futures = [pool.submit(fn, x) for x in items]
        done, _ = wait(futures, return_when=FIRST_EXCEPTION)
        for future in futures:
            if future in done and future.exception() is not None:
                for other in futures:
                    other.cancel()
                raise future.exception()  # type: ignore[misc]
        return [f.result() for f in futures]
