"""Reviewing one pull request end to end: config from the base, plan, audit, publish; the check run's life.

A check run, once started, is always completed: with the result, `cancelled` when a newer push supersedes
this one, `neutral` when a temporary error will be retried, or `failure` with the error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from app.audit.gate import Conclusion
from app.config import CONFIG_PATH, RepoConfig, load_config
from app.errors import ConfigError, InputError, SelectorError
from app.github.events import external_id_for
from app.github.publisher import CheckResult
from app.review.models import Outcome, Reviewer, Sink, Source, Superseded, Target
from app.review.plan import ListSides, plan_review
from app.review.publish import post_suggestions, publish_no_changes, publish_review
from app.review.redacting_sink import RedactingSink

log = logging.getLogger(__name__)


def run_review(
    target: Target,
    *,
    source: Source,
    sink: Sink,
    reviewer: Reviewer,
    still_current: Callable[[], bool] = lambda: True,
    on_check_started: Callable[[int], None] = lambda _id: None,
    will_retry: Callable[[BaseException], bool] = lambda _exc: False,
    report_url: str | None = None,
    config_path: str = CONFIG_PATH,
    list_sides: ListSides | None = None,
    raise_errors: bool = False,
) -> Outcome:
    """Review one pull request at `target.head_sha` and publish the result. Everything published passes
    through a RedactingSink: no text reaches GitHub unredacted.

    The App and the Action both run this: the App with GitHub as source and sink, the Action with its checkout
    as source (app/action/git_source.py) and the job summary as sink. The Action also names its config file
    (`config_path`), may list each side's running server (`list_sides`), and has an invalid config or input
    raised after the check is completed (`raise_errors`), so that its step ends with the message."""
    sink = RedactingSink(sink)
    number = target.number if target.number is not None else source.pull_request_for_head(target.head_sha)
    if number is None:
        log.info("no pull request found for %s/%s@%s; nothing to do", target.owner, target.repo, target.head_sha)
        return Outcome.SKIPPED
    base_sha = target.base_sha
    draft = target.draft
    newest = True  # whether target.head_sha is the PR's head now; only the newest head's review is commented
    if base_sha is None:
        info = source.pull_request(number)
        base_sha, draft, newest = info.base_sha, info.draft, info.head_sha == target.head_sha
    if not still_current():
        return Outcome.SUPERSEDED
    external_id = external_id_for(target.owner, target.repo, number)
    config_text = source.file_text(config_path, base_sha)
    try:
        config = load_config(config_path, text=config_text or "")
    except ConfigError as exc:
        check_id = sink.start_check(target.head_sha, external_id=external_id)
        on_check_started(check_id)
        summary = f"The repository config on the base branch is invalid, so nothing was reviewed.\n\n{exc}"
        sink.complete_check(
            check_id, CheckResult(conclusion=Conclusion.FAILURE, title=f"Invalid {config_path}", summary=summary)
        )
        if raise_errors:
            raise
        return Outcome.CONFIG_INVALID
    if draft and not config.drafts:
        log.info("#%s is a draft and the config does not review drafts", number)
        return Outcome.SKIPPED
    check_id = sink.start_check(target.head_sha, external_id=external_id)
    on_check_started(check_id)
    try:
        return _review_started(
            target,
            number,
            base_sha,
            config,
            check_id,
            source=source,
            sink=sink,
            reviewer=reviewer,
            still_current=still_current,
            report_url=report_url,
            comment=newest,
            config_path=config_path,
            list_sides=list_sides,
        )
    except Superseded:
        summary = "A newer commit was pushed to this pull request; ToolChoice reviews that one instead."
        result = CheckResult(conclusion=Conclusion.CANCELLED, title="Superseded by a newer push", summary=summary)
        sink.complete_check(check_id, result)
        return Outcome.SUPERSEDED
    except (InputError, SelectorError) as exc:
        summary = f"Nothing was judged: {exc}"
        sink.complete_check(
            check_id, CheckResult(conclusion=Conclusion.FAILURE, title="ToolChoice could not review", summary=summary)
        )
        if raise_errors:
            raise
        return Outcome.INPUT_INVALID
    except Exception as exc:
        if will_retry(exc):
            result = CheckResult(
                conclusion=Conclusion.NEUTRAL,
                title="ToolChoice will try again",
                summary=f"The review stopped on a temporary error and will run again shortly: {exc}",
            )
        else:
            summary = f"The review failed with an error: {exc}"
            result = CheckResult(conclusion=Conclusion.FAILURE, title="ToolChoice failed", summary=summary)
        sink.complete_check(check_id, result)
        raise


def _review_started(
    target: Target,
    number: int,
    base_sha: str,
    config: RepoConfig,
    check_id: int,
    *,
    source: Source,
    sink: Sink,
    reviewer: Reviewer,
    still_current: Callable[[], bool],
    report_url: str | None,
    comment: bool = True,
    config_path: str = CONFIG_PATH,
    list_sides: ListSides | None = None,
) -> Outcome:
    report_url = report_url or sink.check_url(check_id)  # the check run holds the full report text
    plan = plan_review(
        source, number=number, base_sha=base_sha, head_sha=target.head_sha, config=config, report_url=report_url,
        config_path=config_path, list_sides=list_sides,
    )  # fmt: skip
    if plan.request is None:
        if not still_current():
            raise Superseded
        publish_no_changes(
            sink, check_id, config=config, number=number, notes=plan.notes, comment=comment, report_url=report_url
        )
        return Outcome.NO_CHANGES
    if not still_current():
        raise Superseded
    review = reviewer.review(plan.request)
    if not still_current():
        raise Superseded
    head = plan.request.head

    def follow_up() -> str:
        files = {p: source.blob_text(blob, path=p) for p, blob in plan.head_blobs.items()}
        return post_suggestions(
            reviewer, head, config=config, source=source, number=number, head_sha=target.head_sha, head_files=files
        )

    publish_review(
        review,
        sink,
        check_id,
        config=config,
        number=number,
        comment=comment,
        report_url=report_url,
        follow_up=follow_up,
        still_current=still_current,
    )
    return Outcome.PUBLISHED
