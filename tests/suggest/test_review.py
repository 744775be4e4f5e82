"""Suggestions posted on the fake GitHub: one review, suggestion blocks on the right lines, fallbacks, re-push."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes.github_api import FakeGitHub

from app.audit.loader import load_definitions
from app.audit.models import Mode
from app.audit.results import SelectorInfo
from app.audit.suite.build import build_suite
from app.audit.suite.cases_file import load_cases
from app.github.client import GitHubApiError, GitHubApp
from app.github.definitions import GitHubSource
from app.github.suggestions import (
    SUGGESTION_MARKER,
    InlineSuggestion,
    ReviewPlan,
    SuggestionPoster,
    fenced,
    hunk_lines,
    publish_suggestions,
    sticky_section,
    suggestion_block,
)
from app.selector_factory import synthetic_selector
from app.suggest.models import Effect, Suggestion, SuggestionReport
from app.suggest.run import suggest

from .conftest import APP_ID, DEMO, INSTALLATION_ID

pytestmark = pytest.mark.corpus  # the fake checks requests against ../shared/github's API description

OWNER, REPO, PATH, NUMBER = "octo", "helpdesk", "mcp/tools.json", 5
GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.fixture
def poster(fake_github: FakeGitHub, private_key: tuple[str, str]) -> SuggestionPoster:
    fake_github.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    app = GitHubApp(app_id=APP_ID, private_key=private_key[0], base_url=fake_github.url)
    return SuggestionPoster(app.for_installation(INSTALLATION_ID), owner=OWNER, repo=REPO)


def _head_text() -> str:
    """The demo tool set with three descriptions edited (three hunks); the other tools are outside them."""
    text = (DEMO / "before.json").read_text(encoding="utf-8")
    for old, new in (("Search tickets.", "Search the tickets."), ("Delete a ticket.", "Delete one ticket."),
                     ("Send a message.", "Send one message.")):
        assert f'"{old}"' in text
        text = text.replace(f'"{old}"', f'"{new}"', 1)
    return text


def _report(head: str) -> SuggestionReport:
    toolset = load_definitions(PATH, text=head)
    cases = load_cases("cases.yaml", text=(DEMO / "cases.yaml").read_text(encoding="utf-8"))
    suite = build_suite([toolset], user_cases=cases)
    return suggest(toolset, suite=suite, selector=synthetic_selector())


def _open_pull(fake: FakeGitHub, head_text: str) -> str:
    repo = fake.repo(OWNER, REPO)
    base = repo.commit({PATH: (DEMO / "before.json").read_text(encoding="utf-8")})
    head = repo.commit({PATH: head_text}, parent=base)
    repo.open_pull(NUMBER, base=base, head=head)
    return head


def test_suggestions_land_on_the_description_lines_inside_hunks(
    fake_github: FakeGitHub, poster: SuggestionPoster
) -> None:
    head_text = _head_text()
    head_sha = _open_pull(fake_github, head_text)
    report = _report(head_text)
    assert report.accepted
    plan, section = poster.publish(NUMBER, head_sha=head_sha, report=report, head_files={PATH: head_text})
    [review] = fake_github.reviews(OWNER, REPO, NUMBER)
    assert review["event"] == "COMMENT" and review["commit_id"] == head_sha
    comments = review["comments"]
    assert comments and len(comments) == len(plan.inline)
    lines = head_text.splitlines()
    hunk = set().union(*hunk_lines(fake_github.repo(OWNER, REPO).changed_files(NUMBER)[0]["patch"]))
    by_tool = {s.tool: s for s in report.accepted if s.field == "description"}
    for c in comments:
        assert c["path"] == PATH and c["side"] == "RIGHT"
        start = c.get("start_line", c["line"])
        assert set(range(start, c["line"] + 1)) <= hunk
        inline = next(i for i in plan.inline if i.body == c["body"])
        s = by_tool[inline.tool]
        assert json.dumps(s.old) in "\n".join(lines[start - 1 : c["line"]])
        assert c["body"].startswith(SUGGESTION_MARKER)
        block = c["body"].split("```suggestion\n", 1)[1].rsplit("\n```", 1)[0]
        assert json.dumps(s.new) in block
        # Applying the block gives a file that loads with the new description.
        patched = "\n".join([*lines[: start - 1], block, *lines[c["line"] :]])
        assert load_definitions(PATH, text=patched).by_name()[s.tool].description == s.new
    # Suggestions outside the hunk went to the sticky comment as diffs, never to the review.
    assert plan.fallback
    inline_tools = {i.tool for i in plan.inline}
    for f in plan.fallback:
        assert f"`{f.tool}`" in section and "```diff" in section
        assert f.tool not in inline_tools
        assert f"-      \"description\": {json.dumps(by_tool[f.tool].old)}" in f.diff
    assert "is not evidence that a real model improves" in section
    fake_github.assert_clean()


def test_a_re_push_posts_no_duplicates(fake_github: FakeGitHub, poster: SuggestionPoster) -> None:
    head_text = _head_text()
    head_sha = _open_pull(fake_github, head_text)
    report = _report(head_text)
    first, _ = poster.publish(NUMBER, head_sha=head_sha, report=report, head_files={PATH: head_text})
    assert first.inline
    posted = len(fake_github.repo(OWNER, REPO).review_comments)
    # A new commit that leaves the suggested lines alone: the same suggestions are not posted again.
    repo = fake_github.repo(OWNER, REPO)
    newer = head_text.replace('"Lists the support agents', '"Lists all support agents', 1)
    new_sha = repo.commit({PATH: newer}, parent=head_sha)
    repo.push(NUMBER, new_sha)
    again = _report(newer)
    second, section = poster.publish(NUMBER, head_sha=new_sha, report=again, head_files={PATH: newer})
    assert second.duplicates >= len(first.inline) - 1
    new_blocks = {suggestion_block(i.body) for i in second.inline}
    old_blocks = {suggestion_block(c["body"]) for c in repo.review_comments[:posted]}
    assert not new_blocks & old_blocks
    assert "already posted" in section


def test_multi_line_yaml_suggestion_uses_start_line(fake_github: FakeGitHub, poster: SuggestionPoster) -> None:
    path = "tools.yaml"
    base_text = (GOLDEN / "tools.yaml").read_text(encoding="utf-8")
    head_text = base_text.replace("Lists invoices of a customer", "Lists the invoices of a customer")
    repo = fake_github.repo(OWNER, REPO)
    base = repo.commit({path: base_text})
    head = repo.commit({path: head_text}, parent=base)
    repo.open_pull(7, base=base, head=head)
    tool = load_definitions(path, text=head_text).by_name()["list_invoices"]
    assert tool.location is not None and tool.location.description_lines is not None
    effect = Effect(own_cases=2, own_passed_before=1, own_passed_after=2, overall_before=70.0, overall_after=71.5,
                    selection_before=60.0, selection_after=62.0, improved=["c1"])
    new = "Lists the invoices of a customer, newest first.\nReturns id, total and status. Use this for invoices."
    s = Suggestion(tool="list_invoices", field="description", old=tool.description, new=new, file=path,
                   lines=tool.location.description_lines, syntax="yaml", rules=["TC103"], effect=effect, accepted=True)
    report = SuggestionReport(mode=Mode.SYNTHETIC, selector=SelectorInfo(mode=Mode.SYNTHETIC, name="synthetic",
                              profile_hash="x"), rewriter="test", suite_hash="h", overall_before=70.0, suggestions=[s])
    _plan, section = poster.publish(7, head_sha=head, report=report, head_files={path: head_text})
    [c] = fake_github.reviews(OWNER, REPO, 7)[0]["comments"]
    # The block replaces the `description: |` line (unchanged) and the two lines of the scalar.
    assert c["start_line"] == tool.location.description_lines.start
    assert c["line"] == tool.location.description_lines.end
    block = c["body"].split("```suggestion\n", 1)[1].rsplit("\n```", 1)[0].split("\n")
    assert block == [
        "    description: |",
        "      Lists the invoices of a customer, newest first.",
        "      Returns id, total and status. Use this for invoices.",
    ]
    assert c["start_side"] == "RIGHT" and c["side"] == "RIGHT"
    shown = c["body"].replace("\\", "")  # as GitHub renders the escaped Markdown
    assert "own cases 1/2 -> 2/2" in shown and "1 case fixed" in shown
    assert "`list_invoices` `description`" in section


def test_the_fake_refuses_a_comment_outside_the_hunks_as_github_does(
    fake_github: FakeGitHub, poster: SuggestionPoster
) -> None:
    head_text = _head_text()
    head_sha = _open_pull(fake_github, head_text)
    far = len(head_text.splitlines()) - 2
    plan = ReviewPlan(inline=[InlineSuggestion(path=PATH, line=far, body="x", tool="t", field="description")])
    with pytest.raises(GitHubApiError) as err:
        poster.post(NUMBER, head_sha=head_sha, plan=plan)
    assert err.value.status == 422


def test_hunk_lines_reads_head_side_numbers() -> None:
    patch = "@@ -1,3 +1,4 @@\n a\n-b\n+c\n+d\n e\n@@ -10,2 +11,2 @@\n x\n+y"
    assert hunk_lines(patch) == [{1, 2, 3, 4}, {11, 12}]
    assert hunk_lines(None) == []


def test_tool_text_cannot_close_the_fence_or_ping_people() -> None:
    text = 'x = "see ```python``` and ````"'
    block = fenced(text, "suggestion")
    assert block.startswith("`````suggestion\n") and block.endswith("\n`````")
    rejected = Suggestion(tool="t`x", field="description", old="a", new="b", reason="rejected: names '@octocat'")
    info = SelectorInfo(mode=Mode.SYNTHETIC, name="synthetic", profile_hash="x")
    report = SuggestionReport(mode=Mode.SYNTHETIC, selector=info, rewriter="r", suite_hash="h", overall_before=1.0,
                              suggestions=[rejected])
    section = sticky_section(report, ReviewPlan())
    assert "@octocat" not in section and "`t'x`" in section


def test_a_failed_review_post_leaves_the_suggestions_in_the_comment(
    fake_github: FakeGitHub, private_key: tuple[str, str]
) -> None:
    head_text = _head_text()
    head_sha = _open_pull(fake_github, head_text)
    report = _report(head_text)
    gh = GitHubApp(app_id=APP_ID, private_key=private_key[0], base_url=fake_github.url).for_installation(
        INSTALLATION_ID
    )
    fake_github.fail("pulls/create-review", status=422, message="Validation Failed")
    section = publish_suggestions(
        report, source=GitHubSource(gh, owner=OWNER, repo=REPO), number=NUMBER, head_sha=head_sha,
        head_files={PATH: head_text},
    )
    assert "Posting the suggestions as a review failed" in section
    assert "```diff" in section and fake_github.reviews(OWNER, REPO, NUMBER) == []
    # Without a GitHub source (an in-memory one), the comment gets them as diffs.
    offline = publish_suggestions(report, source=object(), number=NUMBER, head_sha=head_sha,
                                  head_files={PATH: head_text})
    assert "```diff" in offline and "failed" not in offline


def test_suggestions_that_would_leak_a_secret_are_withheld(
    fake_github: FakeGitHub, private_key: tuple[str, str]
) -> None:
    # A description whose suggestion the rerun accepts, carrying a secret that the suggestion quotes.
    head_text = _head_text().replace('"Returns the SLA report."', '"Returns the SLA report with key SECRET123."', 1)
    assert "SECRET123" in head_text
    head_sha = _open_pull(fake_github, head_text)
    report = _report(head_text)
    assert any("SECRET123" in (s.old or "") for s in report.accepted)

    def scrub(text: str) -> str:
        return text.replace("SECRET123", "[REDACTED:test]")

    gh = GitHubApp(app_id=APP_ID, private_key=private_key[0], base_url=fake_github.url).for_installation(
        INSTALLATION_ID
    )
    section = publish_suggestions(
        report, source=GitHubSource(gh, owner=OWNER, repo=REPO), number=NUMBER, head_sha=head_sha,
        head_files={PATH: head_text}, scrub=scrub,
    )
    assert "SECRET123" not in section and "withheld" in section and "(s)" not in section
    for review in fake_github.reviews(OWNER, REPO, NUMBER):
        assert all("SECRET123" not in c["body"] for c in review["comments"])
