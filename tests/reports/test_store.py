"""Report storage: unguessable ids, retention by owner, signed links for private reports, both backends."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from redis import Redis

from app.audit.results import Comparison
from app.errors import ConfigError
from app.render.json_export import load_export
from app.reports.links import sign, verify
from app.reports.service import DAY, ReportService
from app.reports.store import REDIS_PREFIX, LocalReportStore, RedisReportStore, ReportStore


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _service(store: ReportStore, clock: Clock, *, secret: str | None = "k" * 32) -> ReportService:
    return ReportService(
        store,
        public_url="https://tc.example/",
        retention_seconds=90 * DAY,
        anonymous_retention_seconds=7 * DAY,
        link_secret=secret,
        clock=clock,
    )


@pytest.fixture(params=["redis", "local"])
def store_and_clock(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[ReportStore, Clock]:
    clock = Clock()
    if request.param == "redis":
        redis: Redis = request.getfixturevalue("redis_db")
        return RedisReportStore(redis, clock=clock), clock
    return LocalReportStore(tmp_path / "reports", clock=clock), clock


def test_ids_are_unguessable_and_urls_point_at_the_page(
    store_and_clock: tuple[ReportStore, Clock], demo_comparison: Comparison
) -> None:
    store, clock = store_and_clock
    service = _service(store, clock)
    ids = {service.save(demo_comparison, installation_id=None, private=False).id for _ in range(5)}
    assert len(ids) == 5
    for report_id in ids:
        # token_urlsafe: 6 bits a character
        assert len(report_id) * 6 >= 128
    stored = service.save(demo_comparison, installation_id=None, private=False)
    assert stored.url == f"https://tc.example/reports/{stored.id}"


def test_retention_anonymous_7_days_installation_90(
    store_and_clock: tuple[ReportStore, Clock], demo_comparison: Comparison
) -> None:
    store, clock = store_and_clock
    service = _service(store, clock)
    anonymous = service.save(demo_comparison, installation_id=None, private=False)
    installed = service.save(demo_comparison, installation_id=42, private=False)
    assert anonymous.expires_at.timestamp() == clock.now + 7 * DAY
    assert installed.expires_at.timestamp() == clock.now + 90 * DAY
    clock.now += 7 * DAY + 1
    assert service.find(anonymous.id) is None
    record = service.find(installed.id)
    assert record is not None and record.installation_id == 42
    clock.now += 83 * DAY
    assert service.find(installed.id) is None


def test_stored_export_reads_back(store_and_clock: tuple[ReportStore, Clock], demo_comparison: Comparison) -> None:
    store, clock = store_and_clock
    service = _service(store, clock)
    record = service.find(service.save(demo_comparison, installation_id=None, private=False).id)
    assert record is not None
    export = load_export(record.export)
    assert export.kind == "comparison" and export.mode == "synthetic"
    assert export.comparison is not None
    assert export.comparison.head.overall == demo_comparison.head.overall
    assert export.suite_hash == demo_comparison.suite_hash


def test_redis_key_carries_a_ttl(redis_db: Redis, demo_comparison: Comparison) -> None:
    clock = Clock()
    service = _service(RedisReportStore(redis_db, clock=clock), clock)
    stored = service.save(demo_comparison, installation_id=None, private=False)
    ttl_ms = redis_db.pttl(REDIS_PREFIX + stored.id)
    assert math.isclose(ttl_ms / 1000, 7 * DAY, abs_tol=5)


def test_private_reports_need_a_valid_signature(
    store_and_clock: tuple[ReportStore, Clock], demo_comparison: Comparison
) -> None:
    store, clock = store_and_clock
    service = _service(store, clock)
    stored = service.save(demo_comparison, installation_id=7, private=True)
    assert "?expires=" in stored.url and "&sig=" in stored.url
    expires = str(int(stored.expires_at.timestamp()))
    good = sign(stored.id, int(expires), key="k" * 32)
    assert service.find(stored.id, expires=expires, sig=good) is not None
    assert service.find(stored.id) is None
    assert service.find(stored.id, expires=expires, sig="0" * 64) is None
    assert service.find(stored.id, expires=str(int(expires) + 1), sig=good) is None
    other_key = sign(stored.id, int(expires), key="x" * 32)
    assert service.find(stored.id, expires=expires, sig=other_key) is None


def test_a_signature_past_its_expiry_is_refused() -> None:
    sig = sign("abc", 1000, key="key")
    assert verify("abc", "1000", sig, key="key", now=999)
    assert not verify("abc", "1000", sig, key="key", now=1000)
    assert not verify("abc", "1000", sig, key=None, now=0)
    assert not verify("abc", "-5", sig, key="key", now=0)


def test_private_report_without_a_link_secret_is_a_config_error(tmp_path: Path, demo_comparison: Comparison) -> None:
    clock = Clock()
    service = _service(LocalReportStore(tmp_path, clock=clock), clock, secret=None)
    with pytest.raises(ConfigError, match="TOOLCHOICE_LINK_SECRET"):
        service.save(demo_comparison, installation_id=1, private=True)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("bad", ["../../etc/passwd", "short", "a" * 200, "x/y" * 10])
def test_ids_that_are_not_ours_never_reach_a_path_or_key(tmp_path: Path, bad: str) -> None:
    store = LocalReportStore(tmp_path)
    assert store.get(bad) is None
    store.delete(bad)


def test_local_files_are_owner_only(tmp_path: Path, demo_comparison: Comparison) -> None:
    clock = Clock()
    service = _service(LocalReportStore(tmp_path / "r", clock=clock), clock)
    stored = service.save(demo_comparison, installation_id=None, private=False)
    path = tmp_path / "r" / f"{stored.id}.json"
    assert path.stat().st_mode & 0o777 == 0o600


def test_redis_rate_limit_counts_per_address_and_expires(redis_db: Redis) -> None:
    from app.reports.ratelimit import REDIS_PREFIX as RATE_PREFIX
    from app.reports.ratelimit import RedisRateLimiter

    limiter = RedisRateLimiter(redis_db, limit=2, window_seconds=60)
    assert [limiter.allow("10.0.0.1") for _ in range(3)] == [True, True, False]
    assert limiter.allow("10.0.0.2")
    keys = list(redis_db.scan_iter(RATE_PREFIX + "*"))
    assert len(keys) == 2
    assert all(0 < redis_db.ttl(k) <= 60 for k in keys)


def test_report_linker_stores_and_links_or_degrades_to_no_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, demo_comparison: Comparison, caplog: pytest.LogCaptureFixture
) -> None:
    from app.reports.service import default_service, report_linker
    from app.reports.settings import get_report_settings

    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("TOOLCHOICE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("PUBLIC_URL", "https://tc.example")
    monkeypatch.setenv("TOOLCHOICE_LINK_SECRET", "x" * 32)
    get_report_settings.cache_clear()
    default_service.cache_clear()
    try:
        url = report_linker(11, private=True)(demo_comparison)
        assert url is not None and url.startswith("https://tc.example/reports/") and "&sig=" in url
        monkeypatch.delenv("TOOLCHOICE_LINK_SECRET")
        get_report_settings.cache_clear()
        default_service.cache_clear()
        assert report_linker(11, private=True)(demo_comparison) is None
        assert "without a report link" in caplog.text
        assert len(list((tmp_path / "reports").iterdir())) == 1
    finally:
        get_report_settings.cache_clear()
        default_service.cache_clear()
