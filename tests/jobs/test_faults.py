"""Faults between the App and GitHub, end to end (signed delivery -> web -> Redis -> RQ worker -> fake GitHub):
server errors, primary and secondary rate limits with their waits, late redeliveries of an older push.
Each ends with one sticky comment at most, no check run left in progress, and no pass that was not measured."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime

import pytest
from github.conftest import OWNER, REPO, Rig, repo_files, seed_pull, webhook_payload
from github.toolsets import head_tools, tools_json
from rq.registry import ScheduledJobRegistry

from app.github.publisher import STICKY_MARKER

pytestmark = pytest.mark.corpus

OPENED, SYNC = "pull_request.opened.2", "pull_request.synchronize.1"
EARLIER, LATER = "2026-01-05T10:00:00Z", "2026-01-05T10:05:00Z"
SECONDARY = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."


def assert_settled(rig: Rig, *, comments: int) -> None:
    """No check run is left in progress, and the PR has exactly `comments` sticky comments."""
    runs = rig.fake.check_runs(OWNER, REPO)
    assert runs and all(r["status"] == "completed" for r in runs), [(r["status"], r["conclusion"]) for r in runs]
    sticky = [c for c in rig.fake.comments(OWNER, REPO, 7) if c["body"].startswith(STICKY_MARKER)]
    assert len(sticky) == comments


def newer_push(rig: Rig, head: str) -> str:
    repo = rig.fake.repo(OWNER, REPO)
    newer = repo.commit(repo_files(tools_json(head_tools()[:2])), parent=head)
    repo.push(7, newer)
    return newer


def test_late_delivery_of_an_older_push_is_refused_and_never_cancels_the_newer(rig: Rig) -> None:
    base, head = seed_pull(rig)
    newer = newer_push(rig, head)
    sync = webhook_payload(SYNC, number=7, base=base, head=newer, updated_at=LATER)
    queued = rig.deliver("pull_request", sync)
    late = rig.deliver("pull_request", webhook_payload(OPENED, number=7, base=base, head=head, updated_at=EARLIER))
    assert queued.body["status"] == "queued" and late.status == 202 and late.body["status"] == "stale"
    assert rig.queue().count == 1  # the newer head's job is still queued, no job for the older one
    rig.work()
    assert rig.fake.check_runs(OWNER, REPO, head) == []
    (run,) = rig.fake.check_runs(OWNER, REPO, newer)
    assert run["conclusion"] == "success"
    (comment,) = rig.fake.comments(OWNER, REPO, 7)
    assert newer[:12] in comment["body"] and head[:12] not in comment["body"].split("Base")[0]


def test_late_delivery_while_the_newer_head_is_reviewed_does_not_stop_it(rig: Rig) -> None:
    base, head = seed_pull(rig)
    newer = newer_push(rig, head)
    answers: list[str] = []

    def late_redelivery(_: object) -> None:
        if not answers:  # the newer head's review is reading trees when the older push's delivery arrives
            old = webhook_payload(OPENED, number=7, base=base, head=head, updated_at=EARLIER)
            answers.append(rig.deliver("pull_request", old).body["status"])

    rig.fake.on("git/get-tree", late_redelivery)
    rig.deliver("pull_request", webhook_payload(SYNC, number=7, base=base, head=newer, updated_at=LATER))
    rig.work()
    assert answers == ["stale"]
    (run,) = rig.fake.check_runs(OWNER, REPO, newer)
    assert run["conclusion"] == "success"  # not "cancelled" by the older push
    assert rig.fake.check_runs(OWNER, REPO, head) == []
    assert_settled(rig, comments=1)


def test_a_newer_delivery_still_supersedes_an_older_one(rig: Rig) -> None:
    base, head = seed_pull(rig)
    first = rig.deliver("pull_request", webhook_payload(OPENED, number=7, base=base, head=head, updated_at=EARLIER))
    newer = newer_push(rig, head)
    second = rig.deliver("pull_request", webhook_payload(SYNC, number=7, base=base, head=newer, updated_at=LATER))
    assert second.body["cancelled"] == [first.body["job_id"]]


def test_one_bad_gateway_is_retried_by_the_client_and_the_review_publishes(rig: Rig) -> None:
    base, head = seed_pull(rig)
    rig.fake.fail("git/get-tree", status=502, message="Bad Gateway", times=1)
    rig.deliver("pull_request", webhook_payload(OPENED, number=7, base=base, head=head))
    rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["conclusion"] == "success"
    assert [r.status for r in rig.fake.calls("git/get-tree")][:2] == [502, 200]
    assert_settled(rig, comments=1)


def test_a_secondary_rate_limit_is_waited_out_as_retry_after_asks(rig: Rig) -> None:
    base, head = seed_pull(rig)
    rig.fake.fail("pulls/list-files", status=403, message=SECONDARY, times=1, headers={"Retry-After": "1"})
    rig.deliver("pull_request", webhook_payload(OPENED, number=7, base=base, head=head))
    rig.work()
    first, again = rig.fake.calls("pulls/list-files")[:2]
    assert (first.status, again.status) == (403, 200)
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["conclusion"] == "success"
    assert_settled(rig, comments=1)


def test_a_long_primary_rate_limit_ends_the_attempt_and_retries_after_the_reset(rig: Rig) -> None:
    base, head = seed_pull(rig)
    reset = int(time.time()) + 3600
    limit = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset), "X-RateLimit-Limit": "5000"}
    rig.fake.fail("git/get-tree", status=403, message="API rate limit exceeded for installation", headers=limit)
    rig.deliver("pull_request", webhook_payload(OPENED, number=7, base=base, head=head))
    started = datetime.now(UTC).timestamp()
    rig.work()  # returns at once: the worker does not sleep for an hour inside the job
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["status"] == "completed" and run["conclusion"] == "neutral"  # not a pass: nothing was measured
    assert re.search(r"rate limit .* asks to wait 3[56]\d\d s", run["output"]["summary"])
    registry = ScheduledJobRegistry(queue=rig.queue())
    (jid,) = registry.get_job_ids()
    due = registry.get_scheduled_time(jid).timestamp()
    assert due >= started + 3500  # GitHub's reset, not RQ's first 10 s interval
    assert rig.fake.comments(OWNER, REPO, 7) == []
    rig.fake.heal()
    assert rig.release_retries() == 1
    rig.work()
    runs = rig.fake.check_runs(OWNER, REPO, head)
    assert [r["conclusion"] for r in runs] == ["neutral", "success"]
    assert_settled(rig, comments=1)


@pytest.mark.slow
def test_github_answering_500_throughout_is_retried_later_then_publishes_once(rig: Rig) -> None:
    base, head = seed_pull(rig)
    rig.fake.fail("issues/create-comment", status=500, message="Server Error")
    rig.deliver("pull_request", webhook_payload(OPENED, number=7, base=base, head=head))
    rig.work()  # the client tries 4 times (waits 1, 4, 9 s), then the attempt ends
    assert len(rig.fake.calls("issues/create-comment")) == 4
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    # The result was published before the comment failed; the run then says the review will be tried again.
    assert run["status"] == "completed" and run["conclusion"] == "neutral"
    assert "500" in run["output"]["summary"]
    rig.fake.heal()
    assert rig.release_retries() == 1
    rig.work()
    assert [r["conclusion"] for r in rig.fake.check_runs(OWNER, REPO, head)] == ["neutral", "success"]
    assert_settled(rig, comments=1)
