"""POST /api/github/webhooks: verify the signature, dedupe the delivery, route it, enqueue, answer 202."""

from __future__ import annotations

import hashlib
import logging

from redis.exceptions import RedisError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from app.github.events import Disposition, route, signature_valid
from app.jobs.enqueue import JobQueue

log = logging.getLogger(__name__)

WEBHOOK_PATH = "/api/github/webhooks"  # Probot's path
# GitHub caps webhook payloads at 25 MB.
MAX_BODY_BYTES = 25 * 1024 * 1024


def _answer(code: int, **content: object) -> JSONResponse:
    return JSONResponse(status_code=code, content=content)


async def _read_limited(request: Request) -> bytes | None:
    """The raw body, or None when it is over the limit (checked before and while reading)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY_BYTES:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def webhook_route(*, secret: str, queue: JobQueue) -> Route:
    """A plain Starlette route: the webhook needs none of FastAPI's parameter handling, and it is the hot path."""

    async def receive(request: Request) -> JSONResponse:
        body = await _read_limited(request)
        if body is None:
            return _answer(413, error=f"payload over GitHub's {MAX_BODY_BYTES // (1024 * 1024)} MB limit")
        if not signature_valid(secret, body, request.headers.get("x-hub-signature-256")):
            log.warning("rejected a delivery with a missing or wrong signature")
            return _answer(401, error="missing or invalid X-Hub-Signature-256")
        event = request.headers.get("x-github-event")
        delivery = request.headers.get("x-github-delivery")
        if not event or not delivery:
            return _answer(400, error="X-GitHub-Event and X-GitHub-Delivery headers are required")
        # Redis calls block; in the thread pool their waits overlap with other deliveries.
        return await run_in_threadpool(_handle, event, delivery, body)

    def _handle(event: str, delivery: str, body: bytes) -> JSONResponse:
        try:
            routed = route(event, body)
        except ValueError as exc:
            log.warning("delivery %s (%s): unreadable payload: %s", delivery, event, exc)
            return _answer(400, error=f"unreadable payload: {exc}")
        if routed.disposition != Disposition.REVIEW or routed.request is None:
            log.info("delivery %s: %s (%s)", delivery, routed.reason, routed.disposition.value)
            return _answer(202, status=routed.disposition.value, reason=routed.reason)
        try:
            digest = hashlib.sha256(body).hexdigest()
            submitted = queue.submit(routed.request, delivery_id=delivery, body_digest=digest)
        except RedisError as exc:
            log.error("delivery %s: could not queue the review: %s", delivery, exc)
            return _answer(503, error="the review queue is unavailable; redeliver later")
        if submitted.redelivery:
            log.info("delivery %s (%s) already seen (its id or its signed body); nothing done", delivery, event)
            return _answer(202, status="duplicate", delivery=delivery)
        if submitted.stale:
            log.info("delivery %s (%s) is older than the pull request's newest push; nothing done", delivery, event)
            return _answer(202, status="stale", reason=f"{routed.reason}: a newer push of this pull request was seen")
        log.info(
            "delivery %s: %s -> job %s%s",
            delivery,
            routed.reason,
            submitted.job_id,
            " (identical job exists)" if submitted.duplicate else "",
        )
        status = "duplicate_job" if submitted.duplicate else "queued"
        return _answer(202, status=status, job_id=submitted.job_id, cancelled=submitted.cancelled, reason=routed.reason)

    return Route(WEBHOOK_PATH, receive, methods=["POST"])
