"""Storing and finding reports: redaction before storage, retention by owner, URLs (signed when private)."""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from urllib.parse import urlencode

from pydantic import BaseModel
from redis import Redis

from app.audit.results import AuditReport, Comparison
from app.errors import ConfigError, InfrastructureError
from app.redaction.redact import redact_result
from app.render.json_export import export_json
from app.reports.links import sign, verify
from app.reports.settings import ReportSettings, get_report_settings
from app.reports.store import Clock, LocalReportStore, RedisReportStore, ReportStore, StoredRecord

log = logging.getLogger(__name__)

# 18 random bytes = 144 bits, above the 128 that make ids unguessable.
ID_BYTES = 18
DAY = 86_400


class StoredReport(BaseModel):
    """What a caller gets back: the id, the link to the page, and when the report is deleted."""

    id: str
    url: str
    expires_at: datetime


class ReportService:
    def __init__(
        self,
        store: ReportStore,
        *,
        public_url: str,
        retention_seconds: float,
        anonymous_retention_seconds: float,
        link_secret: str | None = None,
        clock: Clock = time.time,
    ) -> None:
        self.store = store
        self.public_url = public_url.rstrip("/")
        self.retention_seconds = retention_seconds
        self.anonymous_retention_seconds = anonymous_retention_seconds
        self.link_secret = link_secret
        self.clock = clock

    def save(self, result: AuditReport | Comparison, *, installation_id: int | None, private: bool) -> StoredReport:
        """Redact, export and store `result`; anonymous reports (no installation) get the short retention."""
        if private and not self.link_secret:
            raise ConfigError("TOOLCHOICE_LINK_SECRET must be set to store a private repository's report")
        export = export_json(redact_result(result))
        now = self.clock()
        ttl = self.anonymous_retention_seconds if installation_id is None else self.retention_seconds
        record = StoredRecord(
            id=secrets.token_urlsafe(ID_BYTES),
            kind="comparison" if isinstance(result, Comparison) else "audit",
            private=private,
            installation_id=installation_id,
            created_at=now,
            expires_at=now + ttl,
            export=export,
        )
        self.store.put(record)
        self.store.sweep()
        # The id is the report's capability (whoever has it may read a public report): only a prefix is logged.
        log.info("stored report %s… (%s, expires %s)", record.id[:6], record.kind, _iso(record.expires_at))
        return StoredReport(id=record.id, url=self.url_for(record), expires_at=_when(record.expires_at))

    def url_for(self, record: StoredRecord, *, suffix: str = "") -> str:
        url = f"{self.public_url}/reports/{record.id}{suffix}"
        if not record.private:
            return url
        assert self.link_secret is not None
        expires = int(record.expires_at)
        query = urlencode({"expires": expires, "sig": sign(record.id, expires, key=self.link_secret)})
        return f"{url}?{query}"

    def find(self, report_id: str, *, expires: str | None = None, sig: str | None = None) -> StoredRecord | None:
        """The record, or None when it is unknown, expired, or private without a valid signature: callers
        answer 404 for all of them alike so ids cannot be probed."""
        record = self.store.get(report_id)
        if record is None:
            return None
        if record.private and not verify(report_id, expires, sig, key=self.link_secret, now=self.clock()):
            return None
        return record


def _when(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=UTC)


def _iso(ts: float) -> str:
    return _when(ts).isoformat(timespec="seconds")


def build_store(settings: ReportSettings, *, clock: Clock = time.time) -> ReportStore:
    if settings.redis_url:
        return RedisReportStore(Redis.from_url(settings.redis_url), clock=clock)
    return LocalReportStore(settings.reports_dir, clock=clock)


def build_service(
    settings: ReportSettings, *, store: ReportStore | None = None, clock: Clock = time.time
) -> ReportService:
    return ReportService(
        store or build_store(settings, clock=clock),
        public_url=settings.public_url,
        retention_seconds=settings.retention_days * DAY,
        anonymous_retention_seconds=settings.anonymous_retention_days * DAY,
        link_secret=settings.link_secret,
        clock=clock,
    )


@cache
def default_service() -> ReportService:
    """The process's service, built from the environment on first use."""
    return build_service(get_report_settings())


def store_report(result: AuditReport | Comparison, *, installation_id: int | None, private: bool) -> StoredReport:
    """For the pipeline: store a review's comparison and get the link for the check run and the comment."""
    return default_service().save(result, installation_id=installation_id, private=private)


def report_linker(installation_id: int | None, *, private: bool = True) -> Callable[[Comparison], str | None]:
    """For a review job: a function that stores the comparison and returns its page's URL, or None when the
    report cannot be stored (the review is published without a link rather than failing)."""

    def link(comparison: Comparison) -> str | None:
        try:
            return store_report(comparison, installation_id=installation_id, private=private).url
        except (InfrastructureError, ConfigError) as exc:
            log.warning("review published without a report link: %s", exc)
            return None

    return link
