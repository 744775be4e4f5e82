"""Report routes: POST /api/audits (anonymous synthetic audits), GET /reports/{id} (HTML) and /reports/{id}.json."""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from redis import Redis
from starlette.concurrency import run_in_threadpool

from app.audit.models import ToolSet
from app.audit.results import AuditReport, Comparison
from app.errors import InputError
from app.redaction.redact import redact_text, redact_value
from app.reports.ratelimit import MemoryRateLimiter, RateLimiter, RedisRateLimiter
from app.reports.service import ReportService, build_service
from app.reports.settings import ReportSettings, get_report_settings
from app.reports.store import StoredRecord

log = logging.getLogger(__name__)

AUDITS_PATH = "/api/audits"
# No script, no outside resource: the page is inline CSS and SVG only.
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Robots-Tag": "noindex, nofollow",
}
NOT_FOUND = "<!doctype html><title>Not found</title><p>No such report (it may have expired).</p>"


def _error(code: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse(status_code=code, content={"error": message, **extra})


async def _read_limited(request: Request, limit: int) -> bytes | None:
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


DEFAULT_MAX_TOOLS = 300


def _load(name: str, value: Any, *, max_tools: int = DEFAULT_MAX_TOOLS) -> ToolSet:
    """Definitions in any format the loader reads: a JSON value, or the text of a JSON/YAML file. Secrets
    are redacted before anything reads them, so no audit, log or report ever holds one."""
    from app.audit.loader import load_definitions

    if isinstance(value, str):
        # File text: JSON or YAML, told apart by its content (the loader decides when there is no extension).
        text, name = redact_text(value), name.removesuffix(".json")
    else:
        text = json.dumps(redact_value(value), indent=2, ensure_ascii=False)
    toolset = load_definitions(name, text=text)
    if not toolset.tools:
        raise InputError("no tool definitions found", file=name)
    if len(toolset.tools) > max_tools:
        raise InputError(f"{len(toolset.tools)} tools; this service audits at most {max_tools} at a time", file=name)
    return toolset


def run_submitted_audit(payload: Any, *, max_tools: int = DEFAULT_MAX_TOOLS) -> AuditReport | Comparison:
    """A synthetic audit of `{"definitions": ...}` or a before/after of `{"base": ..., "head": ...}`."""
    from app.audit.engine import audit, audit_pair
    from app.audit.suite.build import build_suite
    from app.selector_factory import make_selector

    if not isinstance(payload, dict):
        raise InputError('the body must be a JSON object: {"definitions": ...} or {"base": ..., "head": ...}')
    selector = make_selector("synthetic")
    if "definitions" in payload:
        toolset = _load("definitions.json", payload["definitions"], max_tools=max_tools)
        return audit(toolset, suite=build_suite([toolset]), selector=selector)
    if "base" in payload and "head" in payload:
        base = _load("base.json", payload["base"], max_tools=max_tools)
        head = _load("head.json", payload["head"], max_tools=max_tools)
        return audit_pair(base, head, selector=selector, base_ref="base", head_ref="head")
    raise InputError('the body needs "definitions", or "base" and "head"')


def reports_router(
    service: ReportService, *, limiter: RateLimiter, max_body_bytes: int, max_tools: int = DEFAULT_MAX_TOOLS
) -> APIRouter:
    router = APIRouter()

    @router.post(AUDITS_PATH)
    async def submit(request: Request) -> JSONResponse:
        body = await _read_limited(request, max_body_bytes)
        if body is None:
            return _error(413, f"body over {max_body_bytes} bytes")
        client = request.client.host if request.client else "unknown"
        if not await run_in_threadpool(limiter.allow, client):
            return _error(429, "too many audits from this address; try again later")
        try:
            payload = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            return _error(400, f"the body is not JSON: {exc}")
        try:
            stored = await run_in_threadpool(_audit_and_store, payload)
        except InputError as exc:
            return _error(422, str(exc), file=exc.file, line=exc.line)
        return JSONResponse(
            status_code=201,
            content={"id": stored.id, "url": stored.url, "expires_at": stored.expires_at.isoformat()},
        )

    def _audit_and_store(payload: Any) -> Any:
        result = run_submitted_audit(payload, max_tools=max_tools)
        return service.save(result, installation_id=None, private=False)

    def _find(report_id: str, request: Request) -> StoredRecord | None:
        q = request.query_params
        return service.find(report_id, expires=q.get("expires"), sig=q.get("sig"))

    def _headers(record: StoredRecord) -> dict[str, str]:
        cache = "private, no-store" if record.private else "public, max-age=300"
        return {**PAGE_HEADERS, "Cache-Control": cache}

    # Declared before /reports/{report_id}, which would otherwise take "<id>.json" as an id.
    @router.get("/reports/{report_id}.json")
    def report_json(report_id: str, request: Request) -> Response:
        record = _find(report_id, request)
        if record is None:
            return _error(404, "no such report")
        return Response(record.export, media_type="application/json", headers=_headers(record))

    @router.get("/reports/{report_id}")
    def report_page(report_id: str, request: Request) -> HTMLResponse:
        from app.render.html_page import read_export, render_html

        record = _find(report_id, request)
        if record is None:
            return HTMLResponse(NOT_FOUND, status_code=404, headers=PAGE_HEADERS)
        result = read_export(record.export)
        html = render_html(result, report_url=service.url_for(record), expires_at=_when(record.expires_at))
        return HTMLResponse(html, headers=_headers(record))

    return router


def _when(ts: float) -> Any:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ts, tz=UTC)


def report_routes(settings: ReportSettings | None = None) -> APIRouter:
    """The router as the app factory includes it: store and limiter from the environment's settings."""
    settings = settings or get_report_settings()
    service = build_service(settings)
    limiter: RateLimiter
    if settings.redis_url:
        limiter = RedisRateLimiter(
            Redis.from_url(settings.redis_url), limit=settings.rate_limit, window_seconds=settings.rate_window_seconds
        )
    else:
        limiter = MemoryRateLimiter(limit=settings.rate_limit, window_seconds=settings.rate_window_seconds)
    return reports_router(
        service, limiter=limiter, max_body_bytes=settings.max_body_bytes, max_tools=settings.max_tools
    )
