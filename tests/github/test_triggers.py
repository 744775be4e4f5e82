"""Other ways a review starts: fork PRs, the Re-run buttons, drafts, ready_for_review."""

from __future__ import annotations

import pytest

from app.github.events import CHECK_RUN_NAME

from .conftest import INSTALLATION_ID, OWNER, REPO, Rig, repo_files, webhook_payload
from .toolsets import BASE_TOOLS, head_tools, tools_json

pytestmark = pytest.mark.corpus


def _seed(
    rig: Rig, *, number: int = 5, draft: bool = False, fork: str | None = None, config: str | None = None
) -> tuple[str, str]:
    repo = rig.fake.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    base = repo.commit(repo_files(tools_json(BASE_TOOLS), config=config))
    head = repo.commit(repo_files(tools_json(head_tools()), config=config), parent=base)
    repo.open_pull(number, base=base, head=head, draft=draft, fork=fork)
    return base, head


def test_fork_pr_is_reviewed_from_the_base_repository(rig: Rig) -> None:
    base, head = _seed(rig, fork="outsider/tool-server")
    payload = webhook_payload("pull_request.opened.2", number=5, base=base, head=head)
    payload["pull_request"]["head"]["repo"]["full_name"] = "outsider/tool-server"
    payload["pull_request"]["head"]["repo"]["owner"]["login"] = "outsider"
    rig.deliver("pull_request", payload)
    rig.work()
    assert len(rig.fake.comments(OWNER, REPO, 5)) == 1
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["status"] == "completed"
    assert all(r.path.startswith(f"/repos/{OWNER}/{REPO}/") for r in rig.fake.requests if r.path.startswith("/repos"))


def test_rerun_button_reviews_the_same_head_again_and_edits_the_comment(rig: Rig) -> None:
    base, head = _seed(rig)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=5, base=base, head=head))
    rig.work()
    (first,) = rig.fake.check_runs(OWNER, REPO, head)
    edits_before = rig.fake.comments(OWNER, REPO, 5)[0]["edits"]
    rerun = webhook_payload("check_run.rerequested.1")
    rerun["check_run"].update(name=CHECK_RUN_NAME, head_sha=head, external_id=first["external_id"])
    answer = rig.deliver("check_run", rerun)
    assert answer.body["status"] == "queued"
    rig.work()
    runs = rig.fake.check_runs(OWNER, REPO, head)
    assert len(runs) == 2 and all(r["status"] == "completed" for r in runs)
    (comment,) = rig.fake.comments(OWNER, REPO, 5)
    assert comment["edits"] > edits_before


def test_rerun_all_for_a_fork_finds_the_pr_through_the_earlier_check_run(rig: Rig) -> None:
    base, head = _seed(rig, fork="outsider/tool-server")
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=5, base=base, head=head))
    rig.work()
    suite = webhook_payload("check_suite.rerequested.1")
    suite["check_suite"].update(head_sha=head, pull_requests=[])  # what GitHub sends for forks
    rig.deliver("check_suite", suite)
    rig.work()
    assert len(rig.fake.check_runs(OWNER, REPO, head)) == 2
    assert rig.fake.calls("checks/list-for-ref"), "the PR number came from our check run's external_id"
    assert rig.fake.calls("pulls/get"), "the base SHA came from the pull request"


def test_drafts_are_skipped_unless_the_config_says_otherwise(rig: Rig) -> None:
    base, head = _seed(rig, draft=True)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=5, base=base, head=head, draft=True))
    rig.work()
    assert rig.fake.check_runs(OWNER, REPO) == [] and rig.fake.comments(OWNER, REPO) == []
    ready = webhook_payload("pull_request.ready_for_review.2", number=5, base=base, head=head)
    rig.deliver("pull_request", ready)
    rig.work()
    assert len(rig.fake.check_runs(OWNER, REPO, head)) == 1


def test_drafts_are_reviewed_when_configured(rig: Rig) -> None:
    base, head = _seed(rig, draft=True, config="drafts: true\n")
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=5, base=base, head=head, draft=True))
    rig.work()
    assert len(rig.fake.check_runs(OWNER, REPO, head)) == 1


def test_comment_never_posts_only_the_check_run(rig: Rig) -> None:
    base, head = _seed(rig, config="comment: never\n")
    rig.deliver("pull_request", webhook_payload("pull_request.reopened.1", number=5, base=base, head=head))
    rig.work()
    assert rig.fake.comments(OWNER, REPO) == []
    assert rig.fake.check_runs(OWNER, REPO, head)[0]["status"] == "completed"


def test_rerun_of_an_older_commit_leaves_the_comment_to_the_newest(rig: Rig) -> None:
    base, head = _seed(rig)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=5, base=base, head=head))
    rig.work()
    (old_run,) = rig.fake.check_runs(OWNER, REPO, head)
    repo = rig.fake.repo(OWNER, REPO)
    newer = repo.commit(repo_files(tools_json(head_tools()[:2])), parent=head)
    repo.push(5, newer)
    rig.deliver("pull_request", webhook_payload("pull_request.synchronize.1", number=5, base=base, head=newer))
    rig.work()
    edits_before = rig.fake.comments(OWNER, REPO, 5)[0]["edits"]
    rerun = webhook_payload("check_run.rerequested.1")
    rerun["check_run"].update(name=CHECK_RUN_NAME, head_sha=head, external_id=old_run["external_id"])
    rig.deliver("check_run", rerun)
    rig.work()
    assert [r["status"] for r in rig.fake.check_runs(OWNER, REPO, head)] == ["completed", "completed"]
    (comment,) = rig.fake.comments(OWNER, REPO, 5)
    assert comment["edits"] == edits_before and newer[:12] in comment["body"]  # the re-run left it alone
