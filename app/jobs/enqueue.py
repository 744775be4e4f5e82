"""Queueing reviews: job ids, delivery dedupe, the "latest head" key that supersedes older work, RQ or in-process."""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
from typing import Any, Protocol

from pydantic import BaseModel
from redis import Redis
from rq import Callback, Queue, Retry
from rq.exceptions import DuplicateJobError, InvalidJobOperation, NoSuchJobError
from rq.job import Job, JobStatus

from app.github.events import ReviewRequest

log = logging.getLogger(__name__)

KEY_PREFIX = "toolchoice"
# GitHub lets people redeliver a delivery by hand for days; three days covers what anyone re-sends.
DELIVERY_TTL_S = 3 * 24 * 3600
# The "latest head" of a PR only matters while its jobs are queued or running.
LATEST_TTL_S = 24 * 3600
# Above githubkit's own waits (server errors 1+4+9 s per call, a rate-limit wait) plus the audit itself.
JOB_TIMEOUT_S = 900
# Transient GitHub failures: RQ tries again after these many seconds.
RETRY_INTERVALS_S = (10, 60, 300)
# A finished job's id blocks an identical one for this long, so a burst of redeliveries collapses.
RESULT_TTL_S = 600
FAILURE_TTL_S = 7 * 24 * 3600
JOB_FUNC = "app.jobs.job.review_job"
FAILURE_FUNC = "app.jobs.job.on_job_failure"
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def job_id(request: ReviewRequest, *, rerun: str | None = None) -> str:
    """RQ job id for (repository, PR, base SHA, head SHA); RQ allows letters, digits, `_` and `-` only."""
    key = f"{request.owner}/{request.repo}#{request.number}@{request.base_sha}...{request.head_sha}"
    if rerun:
        key += f"!{rerun}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    readable = _UNSAFE.sub("_", f"{request.owner}-{request.repo}-{request.number or 'sha'}-{request.head_sha[:12]}")
    return f"review-{readable[:80]}-{digest}"


def rerun_key(request: ReviewRequest, delivery_id: str) -> str | None:
    """What makes a job distinct beyond its SHAs: a Re-run press (each one), or a draft turning ready
    (its review was skipped while it was a draft)."""
    if request.trigger.endswith(".rerequested"):
        return delivery_id
    if request.trigger == "pull_request.ready_for_review":
        return "ready"
    return None


def pr_key(owner: str, repo: str, number: int | None, head_sha: str, *, trigger: str = "") -> str:
    """The supersession key: per PR, so a newer push stops older work. A Re-run press is keyed by its head SHA
    (it may be for an older commit and must not stop the review of the newest one), as is a PR not yet known."""
    if number is None or trigger.endswith(".rerequested"):
        return f"{owner}/{repo}@{head_sha}"
    return f"{owner}/{repo}#{number}"


class Submitted(BaseModel):
    job_id: str
    duplicate: bool = False  # an identical job (same PR and SHAs) is already queued or recently done
    redelivery: bool = False  # this delivery id was seen before: nothing was done
    stale: bool = False  # the delivery shows the PR older than one already admitted: nothing was done
    cancelled: list[str] = []


# One round trip for the web request's bookkeeping: claim the delivery id and the body's digest (SET NX EX; a
# signed body seen before under another delivery id is a replay); if both are new and not
# older than the PR state already admitted (its `updated_at`, ARGV[6], "" when unknown), record the PR's latest
# head and the new job id, register the queue in RQ's set of queues (what RQ's enqueue would do in a round trip
# of its own), and return the PR's other pending job ids. Returns {0} for a redelivery, {2} for a stale one.
_ADMIT = """
if ARGV[7] == '1' and redis.call('EXISTS', KEYS[6]) == 1 then return {0} end
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return {0} end
if ARGV[7] == '1' then redis.call('SET', KEYS[6], '1', 'EX', ARGV[1]) end
if ARGV[6] ~= '' then
  local seen = redis.call('GET', KEYS[5])
  if seen and tonumber(seen) > tonumber(ARGV[6]) then return {2} end
  redis.call('SET', KEYS[5], ARGV[6], 'EX', ARGV[4])
end
redis.call('SADD', KEYS[4], ARGV[5])
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[4])
local others = redis.call('SMEMBERS', KEYS[3])
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('EXPIRE', KEYS[3], ARGV[4])
table.insert(others, 1, 1)
return others
"""

ADMITTED, REDELIVERY, STALE = "admitted", "redelivery", "stale"


class Store(Protocol):
    def claim_delivery(self, delivery_id: str) -> bool: ...
    def set_latest(self, key: str, head_sha: str) -> None: ...
    def latest(self, key: str) -> str | None: ...
    def ping(self) -> bool: ...


class RedisStore:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._admit = redis.register_script(_ADMIT)

    def admit(
        self,
        delivery_id: str,
        *,
        key: str,
        head_sha: str,
        jid: str,
        queue: Queue,
        updated_at: float | None = None,
        body_digest: str | None = None,
    ) -> tuple[str, list[str]]:
        """Claim the delivery and, when it is new and not stale, set the latest head; returns (ADMITTED,
        REDELIVERY or STALE; the PR's other jobs)."""
        keys = [
            f"{KEY_PREFIX}:delivery:{delivery_id}",
            f"{KEY_PREFIX}:latest:{key}",
            f"{KEY_PREFIX}:pending:{key}",
            queue.redis_queues_keys,
            f"{KEY_PREFIX}:updated:{key}",
            f"{KEY_PREFIX}:body:{body_digest or '-'}",
        ]
        stamp = "" if updated_at is None else repr(float(updated_at))
        args = [DELIVERY_TTL_S, head_sha, jid, LATEST_TTL_S, queue.key, stamp, "1" if body_digest else "0"]
        result = self._admit(keys=keys, args=args)
        if not result or int(result[0]) == 0:
            return REDELIVERY, []
        if int(result[0]) == 2:
            return STALE, []
        others = [m.decode() if isinstance(m, bytes) else str(m) for m in result[1:]]
        return ADMITTED, sorted(m for m in others if m != jid)

    def release_delivery(self, delivery_id: str, *, body_digest: str | None = None) -> None:
        try:
            self.redis.delete(f"{KEY_PREFIX}:delivery:{delivery_id}", f"{KEY_PREFIX}:body:{body_digest or '-'}")
        except Exception:  # Redis itself is failing; the delivery key expires on its own
            log.warning("could not release delivery %s", delivery_id)

    def claim_delivery(self, delivery_id: str) -> bool:
        """True the first time a delivery id is seen (SET NX with a TTL), False for a redelivery."""
        return bool(self.redis.set(f"{KEY_PREFIX}:delivery:{delivery_id}", b"1", nx=True, ex=DELIVERY_TTL_S))

    def set_latest(self, key: str, head_sha: str) -> None:
        self.redis.set(f"{KEY_PREFIX}:latest:{key}", head_sha, ex=LATEST_TTL_S)

    def latest(self, key: str) -> str | None:
        value: Any = self.redis.get(f"{KEY_PREFIX}:latest:{key}")
        return value.decode() if isinstance(value, bytes) else (str(value) if value is not None else None)

    def ping(self) -> bool:
        try:
            return bool(self.redis.ping())
        except Exception:  # any connection problem means "not reachable" for the health check
            return False


class MemoryStore:
    """The in-process store of the embedded mode (one process, no Redis)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._deliveries: dict[str, float] = {}
        self._latest: dict[str, str] = {}
        self._updated: dict[str, float] = {}

    def not_older(self, key: str, updated_at: float | None) -> bool:
        """False when an admitted delivery showed the PR updated later than `updated_at`; else records it."""
        if updated_at is None:
            return True
        with self._lock:
            if self._updated.get(key, updated_at) > updated_at:
                return False
            self._updated[key] = updated_at
            return True

    def seen(self, delivery_id: str) -> bool:
        with self._lock:
            seen = self._deliveries.get(delivery_id)
            return seen is not None and time.monotonic() - seen < DELIVERY_TTL_S

    def claim_delivery(self, delivery_id: str) -> bool:
        now = time.monotonic()
        with self._lock:
            seen = self._deliveries.get(delivery_id)
            if seen is not None and now - seen < DELIVERY_TTL_S:
                return False
            self._deliveries[delivery_id] = now
            return True

    def set_latest(self, key: str, head_sha: str) -> None:
        with self._lock:
            self._latest[key] = head_sha

    def latest(self, key: str) -> str | None:
        with self._lock:
            return self._latest.get(key)

    def ping(self) -> bool:
        return True


def job_kwargs(request: ReviewRequest) -> dict[str, Any]:
    """The plain values a job takes."""
    return request.model_dump(mode="json")


class JobQueue(Protocol):
    def submit(self, request: ReviewRequest, *, delivery_id: str, body_digest: str | None = None) -> Submitted: ...


class RqJobQueue:
    """Reviews as RQ jobs on Redis; web and workers scale independently."""

    def __init__(self, redis: Redis, *, queue_name: str = "toolchoice") -> None:
        self.redis = redis
        self.store = RedisStore(redis)
        self.queue = Queue(queue_name, connection=redis)

    def _pending_key(self, key: str) -> str:
        return f"{KEY_PREFIX}:pending:{key}"

    def submit(self, request: ReviewRequest, *, delivery_id: str, body_digest: str | None = None) -> Submitted:
        """Queue the review unless the delivery (its id, or its signed body under another id) was seen, or it
        shows the PR older than an admitted one; `body_digest` is the sha256 of the raw body."""
        jid = job_id(request, rerun=rerun_key(request, delivery_id))
        key = pr_key(request.owner, request.repo, request.number, request.head_sha, trigger=request.trigger)
        admitted, others = self.store.admit(
            delivery_id,
            key=key,
            head_sha=request.head_sha,
            jid=jid,
            queue=self.queue,
            updated_at=request.updated_at,
            body_digest=body_digest,
        )
        if admitted != ADMITTED:
            return Submitted(job_id=jid, redelivery=admitted == REDELIVERY, stale=admitted == STALE)
        cancelled = self._cancel(key, others) if others else []
        try:
            self.queue.enqueue(
                JOB_FUNC,
                kwargs=job_kwargs(request),
                job_id=jid,
                unique=True,
                job_timeout=JOB_TIMEOUT_S,
                result_ttl=RESULT_TTL_S,
                failure_ttl=FAILURE_TTL_S,
                retry=Retry(max=len(RETRY_INTERVALS_S), interval=list(RETRY_INTERVALS_S)),
                on_failure=Callback(FAILURE_FUNC),
                meta={"supersession_key": key},
                description=f"review {request.owner}/{request.repo}#{request.number} at {request.head_sha[:7]}",
                # RQ would register the queue through this pipeline; _ADMIT has done it, so it is never sent
                # (with unique=True RQ saves and pushes the job in its own atomic script, not here).
                pipeline=self.redis.pipeline(),
            )
        except DuplicateJobError:
            return Submitted(job_id=jid, duplicate=True, cancelled=cancelled)
        except Exception:
            # Not queued: forget the delivery so that GitHub's redelivery (by hand or API) is not a "duplicate".
            self.store.release_delivery(delivery_id, body_digest=body_digest)
            raise
        return Submitted(job_id=jid, cancelled=cancelled)

    def _cancel(self, key: str, others: list[str]) -> list[str]:
        """Cancel the PR's queued jobs for other heads; running ones stop themselves (cooperative)."""
        cancelled: list[str] = []
        for jid in others:
            try:
                job = Job.fetch(jid, connection=self.redis)
                if job.get_status() in (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED):
                    job.cancel()
                    cancelled.append(jid)
                    log.info("cancelled queued %s: superseded by a newer push", jid)
                    self.redis.srem(self._pending_key(key), jid)
                elif job.get_status() in (JobStatus.FINISHED, JobStatus.FAILED, JobStatus.CANCELED):
                    self.redis.srem(self._pending_key(key), jid)
            except (NoSuchJobError, InvalidJobOperation):
                self.redis.srem(self._pending_key(key), jid)
        return sorted(cancelled)
