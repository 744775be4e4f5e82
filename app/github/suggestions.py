"""Posting verified description suggestions on a pull request: one review with ```suggestion blocks.

Each accepted suggestion becomes a review comment on the exact lines of the description in the head
commit's file (multi-line `start_line`/`line`, side RIGHT), so the author commits it with one click.
GitHub answers 422 to a comment on a line outside the PR diff's hunks, so those suggestions go into the
sticky comment as a ```diff block instead (suggestion_plan.py decides). At most `max_comments` per review. On
a re-push, a suggestion whose block already exists on the PR (current or outdated) is not posted again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from githubkit import GitHub

from app.audit.text import counted
from app.github.client import GitHubApiError, call, paginate
from app.github.definitions import GitHubSource
from app.github.suggestion_plan import (
    DEFAULT_MAX_SUGGESTIONS,
    SUGGESTION_MARKER,
    Fallback,
    InlineSuggestion,
    ReviewPlan,
    fenced,
    hunk_lines,
    plan_review,
    sticky_section,
    suggestion_block,
    suggestion_body,
)
from app.render.environment import md
from app.suggest.models import SuggestionReport

__all__ = [
    "DEFAULT_MAX_SUGGESTIONS",
    "SUGGESTION_MARKER",
    "Fallback",
    "InlineSuggestion",
    "ReviewPlan",
    "SuggestionPoster",
    "fenced",
    "hunk_lines",
    "plan_review",
    "publish_suggestions",
    "sticky_section",
    "suggestion_block",
    "suggestion_body",
    "without_secrets",
]

log = logging.getLogger(__name__)

def _unchanged(text: str) -> str:
    return text


@runtime_checkable
class PostsSuggestions(Protocol):
    """A review Source that is not a GitHubSource but may still post the suggestion review (the Action's)."""

    def suggestion_poster(self) -> SuggestionPoster | None: ...


class SuggestionPoster:
    """Reads the PR's patches and existing review comments, and posts one review (event COMMENT)."""

    def __init__(self, gh: GitHub[Any], *, owner: str, repo: str) -> None:
        self._gh = gh
        self.owner = owner
        self.repo = repo

    @classmethod
    def for_source(cls, source: object) -> SuggestionPoster | None:
        """A poster on the same installation client and repository as a GitHubSource, or the one a source that
        posts suggestions gives (the Action's checkout, with the run's token); None for other sources (tests'
        in-memory ones, a run that may not write), which then get the suggestions in the comment only."""
        if isinstance(source, PostsSuggestions):
            return source.suggestion_poster()
        if not isinstance(source, GitHubSource):
            return None
        return cls(source._gh, owner=source.owner, repo=source.repo)  # same package: one client per review

    def patches(self, number: int) -> dict[str, str | None]:
        files = paginate(f"list files of #{number}", self._gh.rest.pulls.list_files, self.owner, self.repo, number)
        return {str(item["filename"]): item.get("patch") for item in files}

    def existing(self, number: int) -> list[dict[str, Any]]:
        """Our earlier suggestion comments on this PR (recognised by the marker)."""
        what = f"list review comments of #{number}"
        comments = paginate(what, self._gh.rest.pulls.list_review_comments, self.owner, self.repo, number)
        return [c for c in comments if str(c.get("body") or "").startswith(SUGGESTION_MARKER)]

    def post(self, number: int, *, head_sha: str, plan: ReviewPlan) -> int | None:
        """One review with all inline suggestions; None when there is nothing to post."""
        if not plan.inline:
            return None
        count = len(plan.inline)
        data = {
            "commit_id": head_sha,
            "event": "COMMENT",
            "body": f"ToolChoice suggests {counted(count, 'description edit')}, each verified by a rerun "
            "(see the comment).",
            "comments": [i.api_comment() for i in plan.inline],
        }
        what = f"post suggestions on #{number}"
        resp = call(what, self._gh.rest.pulls.create_review, self.owner, self.repo, number, data=data)
        return int(resp.json()["id"])

    def publish(
        self,
        number: int,
        *,
        head_sha: str,
        report: SuggestionReport,
        head_files: Mapping[str, str],
        max_comments: int = DEFAULT_MAX_SUGGESTIONS,
        scrub: Callable[[str], str] = _unchanged,
    ) -> tuple[ReviewPlan, str]:
        """Plan against the PR's hunks and earlier comments, post the review; returns the plan and the
        sticky-comment section. A comment that `scrub` (secret redaction) would change is not posted."""
        plan = plan_review(
            report.suggestions,
            head_files=head_files,
            patches=self.patches(number),
            existing=self.existing(number),
            max_comments=max_comments,
        )
        kept = [i for i in plan.inline if scrub(i.body) == i.body]
        plan = plan.model_copy(update={"inline": kept, "withheld": plan.withheld + len(plan.inline) - len(kept)})
        self.post(number, head_sha=head_sha, plan=plan)
        return plan, scrub(sticky_section(report, plan))


def without_secrets(report: SuggestionReport, scrub: Callable[[str], str]) -> SuggestionReport:
    """The report without suggestions whose old or new text `scrub` would change (it looks like a secret)."""
    kept = [s for s in report.suggestions if scrub(s.old or "") == (s.old or "") and scrub(s.new) == s.new]
    dropped = len(report.suggestions) - len(kept)
    if not dropped:
        return report
    note = f"{counted(dropped, 'suggestion')} withheld: the description looks like it holds a secret."
    return report.model_copy(update={"suggestions": kept, "notes": [*report.notes, note]})


def publish_suggestions(
    report: SuggestionReport,
    *,
    source: object,
    number: int,
    head_sha: str,
    head_files: Mapping[str, str],
    max_comments: int = DEFAULT_MAX_SUGGESTIONS,
    scrub: Callable[[str], str] = _unchanged,
) -> str:
    """Post the accepted suggestions as one review when `source` reaches GitHub; return the sticky-comment
    section (every suggestion with its verified effect; diffs for those that could not be posted). With
    `scrub` (the redactor), nothing that looks like a secret leaves: such suggestions are withheld and the
    section is scrubbed."""
    report = without_secrets(report, scrub)
    if not report.suggestions:
        return ""
    poster = SuggestionPoster.for_source(source)
    failed = ""
    if poster is not None:
        try:
            _, section = poster.publish(
                number, head_sha=head_sha, report=report, head_files=head_files, max_comments=max_comments,
                scrub=scrub,
            )
            return section
        except GitHubApiError as exc:
            # The review itself is done (check run completed); the suggestions then go into the comment.
            log.warning("posting suggestions on #%s failed: %s", number, exc)
            failed = f"\n_Posting the suggestions as a review failed ({md(str(exc), 200)}); they are shown as diffs._\n"
    plan = plan_review(report.suggestions, head_files=head_files, patches={}, max_comments=0)
    return scrub(sticky_section(report, plan) + failed)
