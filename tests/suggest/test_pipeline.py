"""run_review on the fake GitHub: verified suggestions for the changed tools only, the caveat, re-runs, off."""

from __future__ import annotations

import pytest
from fakes.github_api import FakeGitHub

from app.github.client import GitHubApp
from app.github.definitions import GitHubSource
from app.github.publisher import STICKY_MARKER, Publisher
from app.github.suggestions import SUGGESTION_MARKER
from app.review.models import Outcome, Target
from app.review.reviewer import AuditReviewer
from app.review.run import run_review

from .conftest import APP_ID, DEMO, INSTALLATION_ID

pytestmark = pytest.mark.corpus

OWNER, REPO, PATH = "octo", "desk", "mcp/tools.json"


def _seed(fake: FakeGitHub, *, config: str | None = None) -> tuple[str, str]:
    """Base: the demo's 'before' tools; head: three of them edited (still with description findings)."""
    repo = fake.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    before = (DEMO / "before.json").read_text(encoding="utf-8")
    after = before
    for old, new in (("Search tickets.", "Search the tickets."), ("Delete a ticket.", "Delete one ticket."),
                     ("Send a message.", "Send one message.")):
        after = after.replace(f'"{old}"', f'"{new}"', 1)
    extra = {".github/toolchoice.yml": config} if config is not None else {}
    base = repo.commit({PATH: before, **extra})
    head = repo.commit({PATH: after, **extra}, parent=base)
    repo.open_pull(9, base=base, head=head)
    return base, head


def _review(fake: FakeGitHub, private_key: tuple[str, str], base: str, head: str) -> Outcome:
    gh = GitHubApp(app_id=APP_ID, private_key=private_key[0], base_url=fake.url).for_installation(INSTALLATION_ID)
    target = Target(owner=OWNER, repo=REPO, head_sha=head, number=9, base_sha=base)
    return run_review(
        target,
        source=GitHubSource(gh, owner=OWNER, repo=REPO),
        sink=Publisher(gh, owner=OWNER, repo=REPO),
        reviewer=AuditReviewer(),
    )


def test_a_pr_with_description_findings_gets_a_review_with_verified_suggestions(
    fake_github: FakeGitHub, private_key: tuple[str, str]
) -> None:
    base, head = _seed(fake_github)
    assert _review(fake_github, private_key, base, head) == Outcome.PUBLISHED
    [review] = fake_github.reviews(OWNER, REPO, 9)
    assert review["event"] == "COMMENT" and review["commit_id"] == head
    n = len(review["comments"])
    assert review["body"].startswith(f"ToolChoice suggests {n} description edit{'' if n == 1 else 's'}, "), review
    tools = set()
    for c in review["comments"]:
        assert c["path"] == PATH and c["body"].startswith(SUGGESTION_MARKER) and "```suggestion" in c["body"]
        tools.add(c["body"].split("for `", 1)[1].split("`", 1)[0])
    # Only the tools this PR changed are rewritten.
    assert tools and tools <= {"search_tickets", "delete_ticket", "send_message"}
    [comment] = fake_github.comments(OWNER, REPO, 9)
    body = comment["body"]
    assert body.startswith(STICKY_MARKER)
    assert "### Suggested description edits" in body
    assert "is not evidence that a real model improves" in body
    for tool in tools:
        assert f"`{tool}` `description`" in body
    fake_github.assert_clean()


def test_a_re_run_on_the_same_head_posts_no_new_suggestions(
    fake_github: FakeGitHub, private_key: tuple[str, str]
) -> None:
    base, head = _seed(fake_github)
    _review(fake_github, private_key, base, head)
    first = len(fake_github.repo(OWNER, REPO).review_comments)
    assert first
    _review(fake_github, private_key, base, head)
    assert len(fake_github.repo(OWNER, REPO).review_comments) == first
    assert len(fake_github.reviews(OWNER, REPO, 9)) == 1
    [comment] = fake_github.comments(OWNER, REPO, 9)
    assert "already posted on an earlier push" in comment["body"]


def test_suggestions_off_in_the_config(fake_github: FakeGitHub, private_key: tuple[str, str]) -> None:
    base, head = _seed(fake_github, config="suggestions: false\n")
    assert _review(fake_github, private_key, base, head) == Outcome.PUBLISHED
    assert fake_github.reviews(OWNER, REPO, 9) == []
    [comment] = fake_github.comments(OWNER, REPO, 9)
    assert "Suggested description edits" not in comment["body"]
