"""Reviewing one pull request: config from base, fetch base+head definitions, audit pair, gate, render, publish."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from enum import StrEnum
from functools import cache
from typing import Protocol

from pydantic import BaseModel

from app.audit.loader import load_definitions, merge_toolsets
from app.audit.models import Case, Comparison, Finding, Mode, Severity, ToolSet
from app.audit.optimizer import SuggestionReport
from app.audit.rules.ruleset import RuleSet, load_rules
from app.audit.selection import Selector
from app.audit.suite import load_cases
from app.config import CONFIG_PATH, CommentPolicy, RepoConfig, load_config
from app.errors import ConfigError, DefinitionError, InputError, SelectorError
from app.github.definitions import ChangedFiles, PullRequestInfo, TreeListing
from app.github.events import external_id_for
from app.github.publisher import Annotation, AnnotationLevel, CheckResult, Conclusion

log = logging.getLogger(__name__)

NO_CHANGE_SUMMARY = "No tool definitions changed in this pull request."
_LEVELS = {Severity.ERROR: AnnotationLevel.FAILURE, Severity.WARNING: AnnotationLevel.WARNING}


class Source(Protocol):
    def pull_request(self, number: int) -> PullRequestInfo: ...
    def pull_request_for_head(self, head_sha: str) -> int | None: ...
    def merge_base(self, base_sha: str, head_sha: str) -> str: ...
    def changed_files(self, number: int) -> ChangedFiles: ...
    def tree(self, sha: str) -> TreeListing: ...
    def blob_text(self, blob_sha: str, *, path: str) -> str: ...
    def file_text(self, path: str, sha: str) -> str | None: ...


class Sink(Protocol):
    def start_check(self, head_sha: str, *, external_id: str, summary: str = ...) -> int: ...
    def complete_check(self, check_run_id: int, result: CheckResult) -> None: ...
    def find_sticky(self, number: int) -> int | None: ...
    def check_url(self, check_run_id: int) -> str | None: ...
    def upsert_comment(self, number: int, body: str, *, report_url: str | None = None) -> tuple[int, bool]: ...


class Review(BaseModel):
    """What the audit side produces for publishing: the comment body (no marker), the check result, and the
    stored report's page when one was stored."""

    comment: str
    check: CheckResult
    report_url: str | None = None


class Reviewer(Protocol):
    def review(
        self,
        base: ToolSet,
        head: ToolSet,
        *,
        config: RepoConfig,
        user_cases: Sequence[Case],
        base_ref: str,
        head_ref: str,
        notes: Sequence[str],
        report_url: str | None,
    ) -> Review: ...


class Outcome(StrEnum):
    PUBLISHED = "published"
    NO_CHANGES = "no_changes"
    CONFIG_INVALID = "config_invalid"
    INPUT_INVALID = "input_invalid"
    SUPERSEDED = "superseded"
    SKIPPED = "skipped"


class Target(BaseModel):
    """The plain values a job carries."""

    owner: str
    repo: str
    head_sha: str
    number: int | None = None
    base_sha: str | None = None
    draft: bool = False


class Superseded(Exception):
    """A newer push for the same pull request arrived; this review stops quietly."""


def annotations_for(findings: Sequence[Finding]) -> list[Annotation]:
    """Check-run annotations for findings that have a file and a line."""
    out: list[Annotation] = []
    for f in findings:
        if not f.file or not f.line:
            continue
        where = f" ({f.tool})" if f.tool else ""
        out.append(
            Annotation(
                path=f.file,
                start_line=f.line,
                end_line=max(f.end_line or f.line, f.line),
                annotation_level=_LEVELS.get(f.severity, AnnotationLevel.NOTICE),
                message=f.message,
                title=f"{f.rule_id}{where}",
            )
        )
    return out


def _config_change_note(base: RepoConfig, head_text: str | None) -> str:
    """What the PR's own copy of the config would change (it takes effect only once merged)."""
    if head_text is None:
        return f"This pull request deletes {CONFIG_PATH}; the base branch's copy still applies."
    try:
        head = load_config(CONFIG_PATH, text=head_text)
    except ConfigError as exc:
        return f"This pull request's {CONFIG_PATH} is invalid and would not load: {exc}"
    before, after = base.model_dump(mode="json"), head.model_dump(mode="json")
    changed = sorted(k for k in after if before.get(k) != after.get(k))
    if not changed:
        return f"This pull request edits {CONFIG_PATH} without changing any setting."
    listed = ", ".join(changed)  # plain text: the renderer escapes notes
    return f"This pull request changes {CONFIG_PATH} ({listed}); the base branch's copy applies until it is merged."


def _load_side(
    source: Source, tree: TreeListing, paths: Sequence[str], fmt: str, *, notes: list[str] | None = None
) -> ToolSet:
    """One side's tools. With `notes` (the base side), an unreadable file is skipped with a note, so a PR that
    repairs a broken file is not blocked; on the head side it raises DefinitionError naming file and line."""
    sets = []
    for path in paths:
        if path not in tree.blobs:
            continue
        try:
            sets.append(load_definitions(path, text=source.blob_text(tree.blobs[path], path=path), fmt=fmt))
        except DefinitionError as exc:
            if notes is None:
                raise
            notes.append(f"The base version of {path} could not be read ({exc}); it counts as having no tools.")
    return merge_toolsets(sets) if sets else ToolSet()


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
) -> Outcome:
    """Review one pull request at `target.head_sha` and publish the result. A check run, once started, is
    always completed: with the result, `cancelled` when superseded, or `failure` with the error."""
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
    config_text = source.file_text(CONFIG_PATH, base_sha)
    try:
        config = load_config(CONFIG_PATH, text=config_text or "")
    except ConfigError as exc:
        check_id = sink.start_check(target.head_sha, external_id=external_id)
        on_check_started(check_id)
        summary = f"The repository config on the base branch is invalid, so nothing was reviewed.\n\n{exc}"
        sink.complete_check(
            check_id, CheckResult(conclusion=Conclusion.FAILURE, title=f"Invalid {CONFIG_PATH}", summary=summary)
        )
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
        )
    except Superseded:
        sink.complete_check(
            check_id,
            CheckResult(
                conclusion=Conclusion.CANCELLED,
                title="Superseded by a newer push",
                summary="A newer commit was pushed to this pull request; ToolChoice reviews that one instead.",
            ),
        )
        return Outcome.SUPERSEDED
    except (InputError, SelectorError) as exc:
        sink.complete_check(
            check_id,
            CheckResult(
                conclusion=Conclusion.FAILURE, title="ToolChoice could not review", summary=f"Nothing was judged: {exc}"
            ),
        )
        return Outcome.INPUT_INVALID
    except Exception as exc:
        if will_retry(exc):
            result = CheckResult(
                conclusion=Conclusion.NEUTRAL,
                title="ToolChoice will try again",
                summary=f"The review stopped on a temporary error and will run again shortly: {exc}",
            )
        else:
            result = CheckResult(
                conclusion=Conclusion.FAILURE,
                title="ToolChoice failed",
                summary=f"The review failed with an error: {exc}",
            )
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
) -> Outcome:
    report_url = report_url or sink.check_url(check_id)  # the check run holds the full report text
    changed = source.changed_files(number)
    notes: list[str] = []
    if CONFIG_PATH in changed.paths:
        notes.append(_config_change_note(config, source.file_text(CONFIG_PATH, target.head_sha)))
    if changed.truncated:
        notes.append("GitHub lists only the first 3,000 changed files; definition files past them were not seen.")
    touched = [p for p in changed.paths if config.matches(p)]
    if not touched and not changed.truncated:
        if not still_current():
            raise Superseded
        summary = "\n\n".join([NO_CHANGE_SUMMARY, *notes])
        sink.complete_check(
            check_id, CheckResult(conclusion=Conclusion.SUCCESS, title="No tool definitions changed", summary=summary)
        )
        if comment and (
            config.comment == CommentPolicy.ALWAYS
            or (config.comment == CommentPolicy.ON_CHANGE and sink.find_sticky(number) is not None)
        ):
            sink.upsert_comment(number, f"**ToolChoice**: {summary}", report_url=report_url)
        return Outcome.NO_CHANGES
    merge_base = source.merge_base(base_sha, target.head_sha)
    base_tree, head_tree = source.tree(merge_base), source.tree(target.head_sha)
    for side, tree in (("base", base_tree), ("head", head_tree)):
        if tree.truncated:
            notes.append(f"The {side} tree is too large for one listing; some definition files may be missing.")
    paths = sorted(p for p in set(base_tree.blobs) | set(head_tree.blobs) if config.matches(p))
    fmt = config.format.value
    base = _load_side(source, base_tree, paths, fmt, notes=notes)
    head = _load_side(source, head_tree, paths, fmt)
    user_cases: list[Case] = []
    if config.cases:
        cases_text = source.file_text(config.cases, base_sha)
        if cases_text is None:
            notes.append(f"The cases file {config.cases} does not exist on the base branch; no user cases ran.")
        else:
            user_cases = load_cases(config.cases, text=cases_text)
        if config.cases in changed.paths:
            notes.append(f"This pull request edits {config.cases}; the base branch's cases were used.")
    if not still_current():
        raise Superseded
    review = reviewer.review(
        base,
        head,
        config=config,
        user_cases=user_cases,
        base_ref=merge_base,
        head_ref=target.head_sha,
        notes=notes,
        report_url=report_url,
    )
    if not still_current():
        raise Superseded
    sink.complete_check(check_id, review.check)
    link = review.report_url or report_url
    if comment and config.comment != CommentPolicy.NEVER:
        sink.upsert_comment(number, review.comment, report_url=link)
    if comment and _wants_suggestions(config) and still_current():
        files = {p: source.blob_text(head_tree.blobs[p], path=p) for p in paths if p in head_tree.blobs}
        section = _suggestions(
            reviewer, head, config=config, source=source, number=number, head_sha=target.head_sha, head_files=files
        )
        if section and config.comment != CommentPolicy.NEVER and still_current():
            sink.upsert_comment(number, f"{review.comment}\n\n{section}", report_url=link)
    return Outcome.PUBLISHED


def _wants_suggestions(config: RepoConfig) -> bool:
    """On by default in synthetic mode; in live_model mode only when the config asks (their verification
    reruns call the model again, which costs)."""
    if not config.suggestions:
        return False
    return config.mode == Mode.SYNTHETIC or "suggestions" in config.model_fields_set


def _suggestions(
    reviewer: Reviewer,
    head: ToolSet,
    *,
    config: RepoConfig,
    source: Source,
    number: int,
    head_sha: str,
    head_files: dict[str, str],
) -> str:
    """After the results are out: verified description rewrites for the PR's changed tools, posted as one
    review with suggestion blocks; returns the section for the sticky comment. Never fails the review."""
    make = getattr(reviewer, "suggestions", None)
    if make is None:
        return ""
    try:
        from app.github.review import publish_suggestions
        from app.redact import redact_text

        report = make(head, config=config)
        if report is None or not report.suggestions:
            return ""
        return publish_suggestions(
            report, source=source, number=number, head_sha=head_sha, head_files=head_files, scrub=redact_text
        )
    except Exception:  # the check run and the comment are already published; suggestions are a bonus
        log.exception("suggestions for #%s failed; the review stands without them", number)
        return ""


@cache
def shipped_rules() -> RuleSet:
    """The shipped rules, read once per process (~0.25 s of YAML and schema checks); repositories change
    them through `rules:` settings, never by editing the rule files."""
    return load_rules()


class AuditReviewer:
    """The Reviewer backed by the audit engine and the renderers (imported on first use). The comparison is
    redacted before anything leaves the process; `report_linker` stores it and returns its page's URL."""

    def __init__(self, *, report_linker: Callable[[Comparison], str | None] | None = None) -> None:
        self.report_linker = report_linker
        self._last: tuple[Comparison, Selector] | None = None  # the unredacted comparison, for suggestions

    def suggestions(self, head: ToolSet, *, config: RepoConfig) -> SuggestionReport | None:
        """Verified rewrites of the descriptions of the tools the PR added or changed, using the last
        review's suite, selector and head audit (so nothing is run twice)."""
        if self._last is None:
            return None
        from app.audit.models import Suite
        from app.audit.optimizer_suggest import suggest

        comparison, selector = self._last
        only = sorted({c.tool for c in comparison.tool_changes if c.change in ("added", "changed", "renamed")})
        if not only:
            return None
        suite = Suite(cases=comparison.head.cases)
        return suggest(
            head,
            suite=suite,
            selector=selector,
            rules=shipped_rules(),
            rule_settings=config.rules,
            report=comparison.head,
            only=only,
        )

    def review(
        self,
        base: ToolSet,
        head: ToolSet,
        *,
        config: RepoConfig,
        user_cases: Sequence[Case],
        base_ref: str,
        head_ref: str,
        notes: Sequence[str],
        report_url: str | None,
    ) -> Review:
        from app.audit.engine import audit_pair
        from app.audit.gate import evaluate_gate
        from app.redact import redact_result
        from app.render.check import render_check
        from app.render.markdown import render_comparison
        from app.selector_factory import make_selector

        selector = make_selector(config.mode, model=config.model, concurrency=config.concurrency)
        comparison = audit_pair(
            base,
            head,
            selector=selector,
            user_cases=user_cases,
            rule_settings=config.rules,
            rules=shipped_rules(),
            base_ref=base_ref,
            head_ref=head_ref,
        )
        if notes:
            comparison = comparison.model_copy(update={"notes": [*comparison.notes, *notes]})
        self._last = (comparison, selector)
        comparison = redact_result(comparison)
        fallback_url = report_url
        report_url = (self.report_linker(comparison) if self.report_linker else None) or report_url
        thresholds = config.thresholds
        gate = evaluate_gate(
            comparison,
            min_score=thresholds.min_score,
            max_drop=thresholds.max_drop,
            fail_on_regression=thresholds.fail_on_regression,
        )
        body = render_comparison(comparison, report_url=report_url, max_chars=65000)
        out = render_check(comparison, gate, report_url=report_url)
        check = CheckResult(
            conclusion=Conclusion(gate.conclusion.value),
            title=out.title,
            summary=out.summary,
            text=out.text,
            annotations=annotations_for(comparison.findings_introduced),
            details_url=report_url if report_url != fallback_url else None,
        )
        return Review(comment=body, check=check, report_url=report_url)
