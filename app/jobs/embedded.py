"""The embedded mode: with no REDIS_URL, `serve` runs reviews in a background thread of the web process."""

from __future__ import annotations

import logging
import queue
import threading
import time

from app.github.events import ReviewRequest
from app.jobs.enqueue import RESULT_TTL_S, MemoryStore, Submitted, job_id, pr_key, rerun_key
from app.jobs.job import review
from app.settings import Settings

log = logging.getLogger(__name__)


class EmbeddedJobQueue:
    """One worker thread and an in-memory store: a one-command trial, not for production (no retries, jobs in
    the queue are lost when the process stops)."""

    def __init__(self, settings: Settings, *, store: MemoryStore | None = None) -> None:
        self.settings = settings
        self.store = store or MemoryStore()
        self._queue: queue.Queue[tuple[str, ReviewRequest] | None] = queue.Queue()
        self._lock = threading.Lock()
        self._pending: dict[str, set[str]] = {}
        self._cancelled: set[str] = set()
        self._seen: dict[str, float] = {}
        self._thread = threading.Thread(target=self._run, name="toolchoice-embedded-worker", daemon=True)
        self._started = False

    def start(self) -> None:
        if not self._started:
            self._thread.start()
            self._started = True

    def stop(self, timeout: float = 5.0) -> None:
        if self._started:
            self._queue.put(None)
            self._thread.join(timeout)

    def submit(self, request: ReviewRequest, *, delivery_id: str, body_digest: str | None = None) -> Submitted:
        jid = job_id(request, rerun=rerun_key(request, delivery_id))
        key = pr_key(request.owner, request.repo, request.number, request.head_sha, trigger=request.trigger)
        if body_digest is not None and self.store.seen(f"body:{body_digest}"):
            return Submitted(job_id=jid, redelivery=True)
        if not self.store.claim_delivery(delivery_id):
            return Submitted(job_id=jid, redelivery=True)
        if body_digest is not None:
            self.store.claim_delivery(f"body:{body_digest}")
        if not self.store.not_older(key, request.updated_at):
            return Submitted(job_id=jid, stale=True)
        with self._lock:
            self.store.set_latest(key, request.head_sha)
            older = sorted(self._pending.get(key, set()) - {jid})
            self._cancelled.update(older)
            self._pending[key] = {jid}
            now = time.monotonic()
            if now - self._seen.get(jid, -RESULT_TTL_S) < RESULT_TTL_S:
                return Submitted(job_id=jid, duplicate=True, cancelled=older)
            if len(self._seen) > 10_000:
                self._seen = {k: t for k, t in self._seen.items() if now - t < RESULT_TTL_S}
            self._seen[jid] = now
        self._queue.put((jid, request))
        return Submitted(job_id=jid, cancelled=older)

    def join(self) -> None:
        """Wait until every submitted job has run (tests and benchmarks)."""
        self._queue.join()

    def _run(self) -> None:
        from app.jobs.worker import preload

        preload()  # the first review should not pay for the engine's imports
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                jid, request = item
                with self._lock:
                    if jid in self._cancelled:
                        self._cancelled.discard(jid)
                        log.info("skipped %s: superseded by a newer push", jid)
                        continue
                try:
                    review(request, settings=self.settings, store=self.store, redis=None)
                except Exception:
                    log.exception("review job %s failed", jid)
            finally:
                self._queue.task_done()
