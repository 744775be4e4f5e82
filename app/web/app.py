"""The web service: app factory wiring the webhook route and the health check to a queue and a store."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from redis import Redis

from app.jobs.embedded import EmbeddedJobQueue
from app.jobs.enqueue import JobQueue, RqJobQueue, Store
from app.redaction.exits import install_log_redaction
from app.settings import Settings
from app.web.reports import report_routes
from app.web.webhooks import webhook_route

log = logging.getLogger(__name__)


def create_app(settings: Settings, *, queue: JobQueue | None = None, store: Store | None = None) -> FastAPI:
    """With REDIS_URL: deliveries become RQ jobs. Without: an in-process worker thread runs them.
    Every log record of the process is redacted from here on."""
    install_log_redaction()
    embedded: EmbeddedJobQueue | None = None
    redis_configured = bool(settings.redis_url)
    if queue is None:
        if settings.redis_url:
            rq_queue = RqJobQueue(Redis.from_url(settings.redis_url), queue_name=settings.queue_name)
            queue, store = rq_queue, store or rq_queue.store
        else:
            embedded = EmbeddedJobQueue(settings)
            queue, store = embedded, store or embedded.store
    if store is None:
        raise ValueError("a store is required when a queue is given")

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # githubkit's schema models are ~100k long-lived objects; a full garbage collection scanning them takes
        # ~100 ms, which would land on some webhook's acknowledgement. Freeze them out of the collector.
        gc.collect()
        gc.freeze()
        if embedded is not None:
            log.warning("no REDIS_URL: running reviews in-process (a trial setup; use Redis and workers in production)")
            embedded.start()
        yield
        if embedded is not None:
            embedded.stop()

    app = FastAPI(title="ToolChoice", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.router.routes.append(webhook_route(secret=settings.webhook_secret, queue=queue))
    app.include_router(report_routes())
    app.state.queue = queue
    app.state.store = store
    health_store = store

    @app.get("/healthz")
    def healthz() -> JSONResponse:
        if not redis_configured:
            return JSONResponse({"status": "ok", "redis": "not configured (embedded mode)"})
        reachable = health_store.ping()
        return JSONResponse(
            {"status": "ok" if reachable else "degraded", "redis": "reachable" if reachable else "unreachable"},
            status_code=200 if reachable else 503,
        )

    return app
