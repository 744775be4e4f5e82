"""Job ids, delivery dedupe, and the failure paths that complete a check run left in progress."""

from __future__ import annotations

import re

import pytest
from fakes.github_api import FakeGitHub
from github.conftest import INSTALLATION_ID, OWNER, REPO
from redis import Redis
from rq import Queue

from app.errors import ConfigError
from app.github.events import ReviewRequest
from app.jobs.enqueue import DELIVERY_TTL_S, MemoryStore, RedisStore, job_id, rerun_key
from app.jobs.job import on_job_failure, on_work_horse_killed
from app.jobs.worker import build_worker
from app.settings import get_settings, load_settings

pytestmark = pytest.mark.corpus


def _request(**kw: object) -> ReviewRequest:
    values = {
        "installation_id": 1,
        "owner": "my.org",
        "repo": "tools.v2",
        "number": 3,
        "base_sha": "a" * 40,
        "head_sha": "b" * 40,
        "trigger": "pull_request.opened",
    }
    values.update(kw)
    return ReviewRequest(**values)  # type: ignore[arg-type]


def test_job_ids_use_only_rq_characters_and_follow_the_shas() -> None:
    first = job_id(_request())
    assert re.fullmatch(r"[A-Za-z0-9_-]+", first)
    assert job_id(_request(trigger="pull_request.reopened")) == first  # same SHAs collapse
    assert job_id(_request(head_sha="c" * 40)) != first
    assert job_id(_request(base_sha="d" * 40)) != first
    assert job_id(_request(owner="my_org")) != first  # punctuation does not merge repositories
    rerun = _request(trigger="check_run.rerequested")
    assert job_id(rerun, rerun=rerun_key(rerun, "guid-1")) != job_id(rerun, rerun=rerun_key(rerun, "guid-2"))


def test_delivery_claims_are_set_if_absent_with_a_ttl(redis_db: Redis) -> None:
    store = RedisStore(redis_db)
    assert store.claim_delivery("g1") and not store.claim_delivery("g1") and store.claim_delivery("g2")
    assert 0 < redis_db.ttl("toolchoice:delivery:g1") <= DELIVERY_TTL_S
    memory = MemoryStore()
    assert memory.claim_delivery("g1") and not memory.claim_delivery("g1")


def _started_check(fake: FakeGitHub) -> dict:
    repo = fake.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    repo.check_runs.append(
        {
            "id": 555,
            "name": "ToolChoice",
            "head_sha": "e" * 40,
            "status": "in_progress",
            "conclusion": None,
            "output": {},
            "annotations": [],
            "updates": 0,
        }
    )
    return repo.check_runs[-1]


def _job_with_check(redis: Redis, *, completed: bool = False):
    job = Queue("toolchoice", connection=redis).enqueue("app.jobs.job.review_job", kwargs={})
    job.meta.update(
        check_run_id=555, check_completed=completed, installation_id=INSTALLATION_ID, owner=OWNER, repo=REPO
    )
    job.save_meta()
    return job


def test_failure_callback_completes_a_check_run_left_in_progress(
    app_env: None, fake_github: FakeGitHub, redis_db: Redis
) -> None:
    run = _started_check(fake_github)
    job = _job_with_check(redis_db)
    on_job_failure(job, redis_db, TimeoutError, TimeoutError("job exceeded its timeout"), None)
    assert run["status"] == "completed" and run["conclusion"] == "failure"
    assert "job exceeded its timeout" in run["output"]["summary"]
    assert job.meta["check_completed"] is True


def test_a_dead_worker_process_completes_its_check_run(
    app_env: None, fake_github: FakeGitHub, redis_db: Redis
) -> None:
    run = _started_check(fake_github)
    job = _job_with_check(redis_db)
    on_work_horse_killed(job, 4321, 9, None)
    assert run["status"] == "completed" and "worker process died" in run["output"]["summary"]


def test_failure_paths_leave_a_completed_check_run_alone(
    app_env: None, fake_github: FakeGitHub, redis_db: Redis
) -> None:
    _started_check(fake_github)
    job = _job_with_check(redis_db, completed=True)
    on_job_failure(job, redis_db, RuntimeError, RuntimeError("x"), None)
    assert fake_github.calls("checks/update") == []


def test_worker_needs_redis(app_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_URL")
    get_settings.cache_clear()
    with pytest.raises(ConfigError, match="REDIS_URL"):
        build_worker(load_settings())
