"""The one job entry point (plain values in), and the failure paths that complete an abandoned check run."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any

from redis import Redis

from app.audit.gate import Conclusion
from app.github.client import GitHubApiError, GitHubApp
from app.github.definitions import GitHubSource
from app.github.events import ReviewRequest
from app.github.publisher import CheckResult, Publisher
from app.jobs.enqueue import MemoryStore, RedisStore, Store, pr_key
from app.redaction.exits import install_log_redaction
from app.review.models import Outcome, Reviewer, Sink
from app.review.reviewer import AuditReviewer
from app.review.run import run_review
from app.settings import Settings, get_settings

log = logging.getLogger(__name__)


# What the abandoned check run tells people; GitHub shows its Re-run button on a completed ToolChoice run.
RERUN_HINT = "Nothing was judged. Press **Re-run** on this check to review the commit again."
RETRY_HINT = "Nothing was judged yet. ToolChoice tries again shortly; if that fails too, press **Re-run** here."


def default_reviewer(installation_id: int, private: bool) -> Reviewer:
    """The audit engine, storing each redacted comparison as a report page linked from the outputs."""
    from app.reports.service import report_linker

    return AuditReviewer(report_linker=report_linker(installation_id, private=private))


# Tests may swap what reviews (the default is the audit engine with stored reports).
reviewer_factory: Callable[[int, bool], Reviewer] = default_reviewer


class _TrackingSink:
    """The publisher, remembering the started check run so a failure path can complete it."""

    def __init__(self, publisher: Publisher, on_started: Callable[[int], None], on_completed: Callable[[], None]):
        self._publisher = publisher
        self._on_started = on_started
        self._on_completed = on_completed

    def start_check(self, head_sha: str, *, external_id: str, summary: str = "Reviewing tool definitions…") -> int:
        check_id = self._publisher.start_check(head_sha, external_id=external_id, summary=summary)
        self._on_started(check_id)
        return check_id

    def complete_check(self, check_run_id: int, result: CheckResult) -> None:
        self._publisher.complete_check(check_run_id, result)
        self._on_completed()

    def find_sticky(self, number: int) -> int | None:
        return self._publisher.find_sticky(number)

    def check_url(self, check_run_id: int) -> str | None:
        return self._publisher.check_url(check_run_id)

    def upsert_comment(self, number: int, body: str, *, report_url: str | None = None) -> tuple[int, bool]:
        return self._publisher.upsert_comment(number, body, report_url=report_url)


_apps: dict[tuple[str, int, str], GitHubApp] = {}


def github_app(settings: Settings, redis: Redis | None) -> GitHubApp:
    """One GitHubApp per process and settings, so installation tokens are reused until they expire."""
    key = (settings.github_api_url, settings.app_id, settings.redis_url or "")
    app = _apps.get(key)
    if app is None:
        app = _apps[key] = GitHubApp(
            app_id=settings.app_id,
            private_key=settings.private_key_pem(),
            base_url=settings.github_api_url,
            redis=redis,
        )
    return app


def _redis(settings: Settings) -> Redis | None:
    return Redis.from_url(settings.redis_url) if settings.redis_url else None


_memory_store = MemoryStore()


def review(
    request: ReviewRequest,
    *,
    settings: Settings,
    store: Store,
    redis: Redis | None,
    meta: dict[str, Any] | None = None,
    save_meta: Callable[[], None] = lambda: None,
    retries_left: int = 0,
) -> Outcome:
    """Run one review with the given infrastructure. `meta` receives the check run id and its completion."""
    state = meta if meta is not None else {}
    owner, repo, head_sha = request.owner, request.repo, request.head_sha
    gh = github_app(settings, redis).for_installation(request.installation_id)
    details = f"{settings.public_url.rstrip('/')}/" if settings.public_url else None
    publisher = Publisher(gh, owner=owner, repo=repo, details_url=details)
    state.update({"installation_id": request.installation_id, "owner": owner, "repo": repo})

    def started(check_id: int) -> None:
        state["check_run_id"] = check_id
        state["check_completed"] = False
        save_meta()

    def completed() -> None:
        state["check_completed"] = True
        save_meta()

    sink: Sink = _TrackingSink(publisher, started, completed)
    key = pr_key(owner, repo, request.number, head_sha, trigger=request.trigger)

    def still_current() -> bool:
        latest = store.latest(key)
        return latest is None or latest == head_sha

    outcome = run_review(
        request,
        source=GitHubSource(gh, owner=owner, repo=repo),
        sink=sink,
        reviewer=reviewer_factory(request.installation_id, request.private),
        still_current=still_current,
        will_retry=lambda exc: retries_left > 0 and isinstance(exc, GitHubApiError) and exc.transient,
    )
    log.info("review of %s/%s#%s at %s: %s", owner, repo, request.number, head_sha[:7], outcome.value)
    return outcome


def review_job(**values: Any) -> str:
    """RQ entry point: the plain values of a ReviewRequest in, the outcome's name out. Settings come from
    the environment."""
    from rq import get_current_job

    install_log_redaction()  # a job may run in a process that no entry point of ours started
    request = ReviewRequest.model_validate(values)
    settings = get_settings()
    redis = _redis(settings)
    job = get_current_job()
    store: Store = RedisStore(redis) if redis is not None else _memory_store
    meta = job.meta if job is not None else {}
    save = job.save_meta if job is not None else (lambda: None)
    what = f"{request.owner}/{request.repo}#{request.number} at {request.head_sha[:7]}"
    log.info("job for %s (%s)", what, request.trigger or "direct")
    try:
        outcome = review(
            request,
            settings=settings,
            store=store,
            redis=redis,
            meta=meta,
            save_meta=save,
            retries_left=(job.retries_left or 0) if job is not None else 0,
        )
    except Exception as exc:
        transient = isinstance(exc, GitHubApiError) and exc.transient
        if not transient and job is not None:
            job.retries_left = 0  # only transient GitHub failures are retried; a 404 or a bug will not fix itself
        elif job is not None and isinstance(exc, GitHubApiError) and exc.retry_after_s:
            _retry_no_sooner(job, exc.retry_after_s)
        raise
    return outcome.value


def _retry_no_sooner(job: Any, wait_s: float) -> None:
    """Make the job's next retry wait at least `wait_s` (GitHub's Retry-After or rate-limit reset)."""
    intervals = list(job.retry_intervals or [0])
    if not job.retries_left:
        return
    index = max(len(intervals) - job.retries_left, 0)
    intervals[index] = max(int(intervals[index]), math.ceil(wait_s))
    job.retry_intervals = intervals


def complete_abandoned(
    meta: dict[str, Any], reason: str, *, retrying: bool = False, settings: Settings | None = None
) -> bool:
    """Complete a started check run that its job left behind; True when one was completed. `retrying`: the
    queue runs the job again, so the run says so instead of asking for a Re-run."""
    check_id = meta.get("check_run_id")
    if not check_id or meta.get("check_completed"):
        return False
    settings = settings or get_settings()
    gh = github_app(settings, _redis(settings)).for_installation(int(meta["installation_id"]))
    publisher = Publisher(gh, owner=meta["owner"], repo=meta["repo"])
    summary = f"The review stopped before it finished: {reason[:1000]}.\n\n"
    if retrying:
        summary += RETRY_HINT
        result = CheckResult(conclusion=Conclusion.NEUTRAL, title="ToolChoice will try again", summary=summary)
    else:
        summary += RERUN_HINT
        result = CheckResult(conclusion=Conclusion.FAILURE, title="ToolChoice failed", summary=summary)
    publisher.complete_check(int(check_id), result)
    meta["check_completed"] = True
    return True


def _retrying(job: Any) -> bool:
    return bool(job.retries_left and job.retries_left > 0)


def _reason(exc_type: Any, exc_value: Any) -> str:
    if getattr(exc_type, "__name__", "") == "AbandonedJobError":  # found by a worker's registry maintenance
        return "the worker running it stopped (killed, or its machine was lost)"
    return f"{getattr(exc_type, '__name__', 'error')}: {exc_value}"


def on_job_failure(job: Any, connection: Any, exc_type: Any, exc_value: Any, traceback: Any) -> None:
    """RQ on_failure callback (also for a job abandoned by a vanished worker): complete the check run with the
    reason if the job left it in progress."""
    try:
        if complete_abandoned(job.meta, _reason(exc_type, exc_value), retrying=_retrying(job)):
            job.save_meta()
    except Exception:  # the callback must not hide the job's own failure
        log.exception("could not complete the check run of failed job %s", job.id)


def on_work_horse_killed(job: Any, retpid: int, ret_val: int, rusage: Any) -> None:
    """RQ worker hook: the process running the job died (killed, out of memory)."""
    try:
        job.refresh()
        reason = f"the worker process died (exit status {ret_val})"
        if complete_abandoned(job.meta, reason, retrying=_retrying(job)):
            job.save_meta()
    except Exception:
        log.exception("could not complete the check run of job %s after its worker died", job.id)
