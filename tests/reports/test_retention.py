"""Retention: an anonymous report is gone after its TTL, and nothing else keeps a copy (Redis, files, logs)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from redis import Redis

from app.audit.results import Comparison
from app.reports.service import ReportService
from app.reports.store import LocalReportStore, RedisReportStore

SHORT_TTL = 1.0


def _service(store: RedisReportStore | LocalReportStore, *, clock: Callable[[], float] = time.time) -> ReportService:
    return ReportService(
        store,
        public_url="http://t",
        retention_seconds=3600,
        anonymous_retention_seconds=SHORT_TTL,
        link_secret="s",
        clock=clock,
    )


def _report_texts(comparison: Comparison) -> list[str]:
    """Pieces of the report that would show a copy: user intents and the head's export-only values."""
    return [comparison.regressions[0].intent, comparison.head.runs[0].why, '"schema_version"']


def test_redis_report_is_gone_after_its_ttl(
    redis_db: Redis, demo_comparison: Comparison, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    service = _service(RedisReportStore(redis_db))
    stored = service.save(demo_comparison, installation_id=None, private=False)
    assert service.find(stored.id) is not None
    time.sleep(SHORT_TTL + 0.3)
    assert service.find(stored.id) is None
    # Nothing in the database holds the report any more (a rate-limit counter or nothing at all).
    for key in redis_db.scan_iter("*"):
        value = redis_db.dump(key) or b""
        assert stored.id.encode() not in key and b"schema_version" not in value, key
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for text in _report_texts(demo_comparison):
        assert text not in logged


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_local_report_is_gone_after_its_ttl_and_the_sweep_leaves_no_file(
    tmp_path: Path, demo_comparison: Comparison, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    root = tmp_path / "reports"
    clock = Clock()
    store = LocalReportStore(root, clock=clock)
    service = _service(store, clock=clock)
    read_back = service.save(demo_comparison, installation_id=None, private=False)
    swept = service.save(demo_comparison, installation_id=None, private=False)
    long_lived = service.save(demo_comparison, installation_id=5, private=False)
    assert {p.name for p in root.iterdir()} == {f"{i}.json" for i in (read_back.id, swept.id, long_lived.id)}
    clock.now += SHORT_TTL
    # A read past expiry returns nothing and deletes the file; the sweep deletes the one nobody read.
    assert service.find(read_back.id) is None
    assert not (root / f"{read_back.id}.json").exists()
    assert store.sweep() == 1
    assert [p.name for p in root.iterdir()] == [f"{long_lived.id}.json"]
    assert service.find(long_lived.id) is not None
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for text in _report_texts(demo_comparison):
        assert text not in logged


def test_every_write_sweeps_expired_files(tmp_path: Path, demo_comparison: Comparison) -> None:
    root = tmp_path / "reports"
    clock = Clock()
    service = _service(LocalReportStore(root, clock=clock), clock=clock)
    old = service.save(demo_comparison, installation_id=None, private=False)
    clock.now += SHORT_TTL + 1
    new = service.save(demo_comparison, installation_id=None, private=False)
    assert not (root / f"{old.id}.json").exists()
    assert (root / f"{new.id}.json").exists()


def test_real_time_local_expiry(tmp_path: Path, demo_comparison: Comparison) -> None:
    store = LocalReportStore(tmp_path)
    stored = _service(store).save(demo_comparison, installation_id=None, private=False)
    time.sleep(SHORT_TTL + 0.2)
    assert store.sweep() == 1
    assert list(tmp_path.iterdir()) == []
    assert _service(store).find(stored.id) is None
