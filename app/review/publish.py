"""Publishing a review: the check run's result, the sticky comment as the config asks, then suggestions.

The suggestions follow the results: verified description rewrites for the PR's changed tools, posted as
one GitHub review with suggestion blocks, and a section appended to the sticky comment. They never fail
the review (the check run and the comment are already out).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from app.audit.gate import Conclusion
from app.audit.models import Mode, ToolSet
from app.config import CommentPolicy, RepoConfig
from app.github.publisher import CheckResult
from app.review.models import NO_CHANGE_SUMMARY, Review, Reviewer, Sink, Source

log = logging.getLogger(__name__)


def publish_no_changes(
    sink: Sink,
    check_id: int,
    *,
    config: RepoConfig,
    number: int,
    notes: list[str],
    comment: bool,
    report_url: str | None,
) -> None:
    """A success check run; the comment only when the config says so (always, or to update an earlier one)."""
    summary = "\n\n".join([NO_CHANGE_SUMMARY, *notes])
    sink.complete_check(
        check_id, CheckResult(conclusion=Conclusion.SUCCESS, title="No tool definitions changed", summary=summary)
    )
    if comment and (
        config.comment == CommentPolicy.ALWAYS
        or (config.comment == CommentPolicy.ON_CHANGE and sink.find_sticky(number) is not None)
    ):
        sink.upsert_comment(number, f"**ToolChoice**: {summary}", report_url=report_url)


def publish_review(
    review: Review,
    sink: Sink,
    check_id: int,
    *,
    config: RepoConfig,
    number: int,
    comment: bool,
    report_url: str | None,
    follow_up: Callable[[], str],
    still_current: Callable[[], bool],
) -> None:
    """The check result, the sticky comment, then (when wanted and still current) the suggestions section
    that `follow_up` posts and returns."""
    sink.complete_check(check_id, review.check)
    if not comment:
        return
    link = review.report_url or report_url
    commenting = config.comment != CommentPolicy.NEVER
    if commenting:
        sink.upsert_comment(number, review.comment, report_url=link)
    if wants_suggestions(config) and still_current():
        section = follow_up()  # the suggestion review is posted even when the config wants no comment
        if section and commenting and still_current():
            sink.upsert_comment(number, f"{review.comment}\n\n{section}", report_url=link)


def wants_suggestions(config: RepoConfig) -> bool:
    """On by default in synthetic mode; in live_model mode only when the config asks (their verification
    reruns call the model again, which costs)."""
    if not config.suggestions:
        return False
    return config.mode == Mode.SYNTHETIC or "suggestions" in config.model_fields_set


def post_suggestions(
    reviewer: Reviewer,
    head: ToolSet,
    *,
    config: RepoConfig,
    source: Source,
    number: int,
    head_sha: str,
    head_files: dict[str, str],
) -> str:
    """Verified rewrites for the PR's changed tools, posted as one review with suggestion blocks; returns the
    section for the sticky comment ("" when there is none or anything fails)."""
    make = getattr(reviewer, "suggestions", None)
    if make is None:
        return ""
    try:
        from app.github.suggestions import publish_suggestions
        from app.redaction.exits import scrub

        report = make(head, config=config)
        if report is None or not report.suggestions:
            return ""
        return publish_suggestions(
            report, source=source, number=number, head_sha=head_sha, head_files=head_files, scrub=scrub
        )
    except Exception:  # the check run and the comment are already published; suggestions are a bonus
        log.exception("suggestions for #%s failed; the review stands without them", number)
        return ""
