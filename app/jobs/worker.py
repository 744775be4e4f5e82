"""The RQ worker process: reviews jobs from Redis, completing the check run of a job whose process died."""

from __future__ import annotations

import gc
import logging
import os
import socket

from redis import Redis
from rq import Queue, Worker

from app.errors import ConfigError
from app.jobs.job import on_work_horse_killed
from app.jobs.vectors import share_vectors
from app.redaction.exits import install_log_redaction
from app.settings import Settings

log = logging.getLogger(__name__)

# A job whose worker vanished (SIGKILL, a lost machine) is found by any worker's maintenance once its heartbeat
# lapses (RQ: the monitoring interval + 60 s); its failure callback completes the check run and RQ retries it.
# Worst case from the death to a completed check run: 70 s + one maintenance interval, about 2 minutes 10 s.
JOB_MONITORING_INTERVAL_S = 10
MAINTENANCE_INTERVAL_S = 60
# An idle worker wakes every WORKER_TTL_S - 15 s (RQ's dequeue timeout), so its maintenance runs on time.
WORKER_TTL_S = 75


def preload() -> None:
    """Import the audit engine and renderers once in the parent, so every forked job starts warm."""
    import app.audit.engine
    import app.audit.gate
    import app.redaction.redact
    import app.render.check
    import app.render.markdown
    import app.reports.service
    import app.selector_factory  # noqa: F401
    from app.audit.models import Tool, ToolSet
    from app.config import RepoConfig
    from app.review.models import ReviewInput
    from app.review.reviewer import AuditReviewer

    # One tiny review fills the lazily built caches (rules, selector profile, compiled templates) that every
    # forked job then inherits instead of rebuilding.
    tools = ToolSet(tools=[Tool(name="warm_up", description="Warm up the review engine before the first job.")])
    AuditReviewer().review(
        ReviewInput(base=tools, head=tools, config=RepoConfig(), base_ref="0" * 40, head_ref="0" * 40)
    )


def build_worker(settings: Settings, *, redis: Redis | None = None, name: str | None = None) -> Worker:
    if not settings.redis_url and redis is None:
        raise ConfigError("the worker needs REDIS_URL (without it `toolchoice serve` runs jobs in-process)")
    connection = redis if redis is not None else Redis.from_url(settings.redis_url or "")
    queue = Queue(settings.queue_name, connection=connection)
    # RQ's default name is a random hex string, which log redaction would mask as a possible secret.
    name = name or f"toolchoice.{socket.gethostname()}.{os.getpid()}"
    return Worker(
        [queue],
        connection=connection,
        name=name,
        work_horse_killed_handler=on_work_horse_killed,
        job_monitoring_interval=JOB_MONITORING_INTERVAL_S,
        maintenance_interval=MAINTENANCE_INTERVAL_S,
        worker_ttl=WORKER_TTL_S,
    )


def run_worker(settings: Settings, *, burst: bool = False, log_level: str = "INFO") -> bool:
    """Work until stopped (or, with `burst`, until the queue is empty). The scheduler runs delayed retries."""
    worker = build_worker(settings)
    install_log_redaction()  # inherited by every forked job
    # Sentence vectors through Redis (one embedding of a text for every worker) and the model loaded here, once,
    # before the jobs are forked.
    share_vectors(worker.connection)
    preload()
    # Long-lived imported objects stay out of the collector (and shared copy-on-write with forked jobs).
    gc.collect()
    gc.freeze()
    log.info("worker %s listening on queue %s", worker.name, settings.queue_name)
    return bool(worker.work(burst=burst, with_scheduler=True, logging_level=log_level.upper()))
