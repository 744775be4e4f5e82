"""Publishing through githubkit to the fake: annotations in batches of 50, sticky comment, limits, tokens."""

from __future__ import annotations

import pytest
from fakes.github_api import FakeGitHub
from redis import Redis

from app.github.client import GitHubApiError, GitHubApp
from app.github.publisher import (
    MAX_COMMENT_CHARS,
    STICKY_MARKER,
    Annotation,
    AnnotationLevel,
    CheckResult,
    Conclusion,
    Publisher,
)

from .conftest import APP_ID, INSTALLATION_ID, OWNER, REPO

pytestmark = pytest.mark.corpus


@pytest.fixture
def app_client(fake_github: FakeGitHub, rsa_keys: tuple[str, str]) -> GitHubApp:
    repo = fake_github.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    sha = repo.commit({"tools.json": "{}"})
    repo.open_pull(3, base=sha, head=sha)
    return GitHubApp(app_id=APP_ID, private_key=rsa_keys[0], base_url=fake_github.url)


def _publisher(app: GitHubApp) -> Publisher:
    return Publisher(app.for_installation(INSTALLATION_ID), owner=OWNER, repo=REPO)


def test_annotations_go_in_batches_of_fifty_and_all_arrive(app_client: GitHubApp, fake_github: FakeGitHub) -> None:
    pub = _publisher(app_client)
    check_id = pub.start_check("c" * 40, external_id=f"{OWNER}/{REPO}#3")
    notes = [
        Annotation(
            path="tools.json",
            start_line=i,
            end_line=i,
            annotation_level=AnnotationLevel.WARNING,
            message=f"finding {i}",
        )
        for i in range(1, 121)
    ]
    pub.complete_check(
        check_id, CheckResult(conclusion=Conclusion.FAILURE, title="t", summary="s", text="x", annotations=notes)
    )
    updates = fake_github.calls("checks/update")
    assert [len(u.body["output"].get("annotations", [])) for u in updates] == [50, 50, 20]
    assert [u.body.get("status") for u in updates] == [None, None, "completed"]
    (run,) = fake_github.check_runs(OWNER, REPO)
    assert run["conclusion"] == "failure" and len(run["annotations"]) == 120


def test_oversized_outputs_are_clipped_to_github_limits(app_client: GitHubApp, fake_github: FakeGitHub) -> None:
    pub = _publisher(app_client)
    check_id = pub.start_check("c" * 40, external_id="x/y#1")
    pub.complete_check(
        check_id,
        CheckResult(conclusion=Conclusion.NEUTRAL, title="line one\nline two", summary="s" * 70_000, text="t" * 70_000),
    )
    (run,) = fake_github.check_runs(OWNER, REPO)
    assert run["output"]["title"] == "line one"
    assert len(run["output"]["summary"]) <= 65535 and run["output"]["summary"].endswith("(truncated)")
    _, created = pub.upsert_comment(3, "b" * 100_000, report_url="https://reports.example/r/1")
    (comment,) = fake_github.comments(OWNER, REPO, 3)
    assert created and len(comment["body"]) <= MAX_COMMENT_CHARS
    assert "https://reports.example/r/1" in comment["body"][-200:]


def test_sticky_comment_is_found_past_the_first_page(app_client: GitHubApp, fake_github: FakeGitHub) -> None:
    repo = fake_github.repo(OWNER, REPO)
    for i in range(150):
        repo.comments.append({"id": 10_000 + i, "issue_number": 3, "body": f"human comment {i}", "edits": 0})
    pub = _publisher(app_client)
    first, created = pub.upsert_comment(3, "v1")
    second, created_again = pub.upsert_comment(3, "v2")
    assert created and not created_again and first == second
    ours = [c for c in fake_github.comments(OWNER, REPO, 3) if c["body"].startswith(STICKY_MARKER)]
    assert len(ours) == 1 and ours[0]["body"].endswith("v2") and ours[0]["edits"] == 1
    pages = [c.query.get("page") for c in fake_github.calls("issues/list-comments")]
    assert ["2"] in pages


def test_installation_token_is_reused_and_the_jwt_is_checked(app_client: GitHubApp, fake_github: FakeGitHub) -> None:
    pub = _publisher(app_client)
    for _ in range(3):
        pub.find_sticky(3)
    assert fake_github.tokens_issued == 1
    (token_call,) = fake_github.calls("apps/create-installation-access-token")
    assert token_call.auth.startswith("Bearer ")  # verified against the App's public key by the fake


def test_tokens_are_shared_through_redis_between_processes(
    fake_github: FakeGitHub, rsa_keys: tuple[str, str], redis_db: Redis
) -> None:
    repo = fake_github.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    sha = repo.commit({"a": "b"})
    repo.open_pull(3, base=sha, head=sha)
    for _ in range(2):  # two GitHubApp objects stand for two worker processes
        app = GitHubApp(app_id=APP_ID, private_key=rsa_keys[0], base_url=fake_github.url, redis=redis_db)
        _publisher(app).find_sticky(3)
    assert fake_github.tokens_issued == 1


def test_errors_say_what_failed_and_whether_to_retry(app_client: GitHubApp, fake_github: FakeGitHub) -> None:
    fake_github.fail("issues/list-comments", status=404, message="Not Found", times=1)
    with pytest.raises(GitHubApiError) as info:
        _publisher(app_client).find_sticky(3)
    assert info.value.status == 404 and not info.value.transient
    assert "list comments of #3" in str(info.value)
