"""The Reviewer backed by the audit engine: audit the pair, gate it, redact it, render comment and check run.

The comparison is redacted before anything leaves the process; `report_linker` stores it and returns its
page's URL. The unredacted comparison is kept for the suggestions that follow (they edit the real text).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from app.audit.gate import Gate
from app.audit.live_plan import PlanOptions
from app.audit.models import Finding, Mode, Severity, Suite, ToolSet
from app.audit.results import Comparison
from app.audit.rules.ruleset import RuleSet, load_rules
from app.audit.selection import Selector
from app.audit.tool_summary import findings_on_changed_tools
from app.config import RepoConfig
from app.github.publisher import Annotation, AnnotationLevel, CheckResult
from app.review.models import Review, ReviewInput
from app.suggest.models import SuggestionReport

_LEVELS = {Severity.ERROR: AnnotationLevel.FAILURE, Severity.WARNING: AnnotationLevel.WARNING}


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


@cache
def shipped_rules() -> RuleSet:
    """The shipped rules, read once per process (~0.25 s of YAML and schema checks); repositories change
    them through `rules:` settings, never by editing the rule files."""
    return load_rules()


class AuditReviewer:
    """The audit engine and the renderers (imported on first use), as a Reviewer."""

    def __init__(
        self,
        *,
        report_linker: Callable[[Comparison], str | None] | None = None,
        adjust: Callable[[RepoConfig], RepoConfig] | None = None,
        record: Path | None = None,
        replay: Path | None = None,
    ) -> None:
        """`adjust` turns the base branch's config into the one to review with (the Action's inputs over it);
        `record` and `replay` keep a live review's answers in a file, or answer from one."""
        self.report_linker = report_linker
        self.adjust = adjust
        self.record, self.replay = record, replay
        self._last: tuple[Comparison, Selector] | None = None  # the unredacted comparison, for suggestions
        self.redacted: Comparison | None = None  # the last review's comparison as published
        self.gate: Gate | None = None  # and its gate

    def suggestions(self, head: ToolSet, *, config: RepoConfig) -> SuggestionReport | None:
        """Verified rewrites of the descriptions of the tools the PR added or changed, using the last
        review's suite, selector and head audit (so nothing is run twice)."""
        if self._last is None:
            return None
        from app.suggest.run import suggest

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

    def review(self, request: ReviewInput) -> Review:
        from app.audit.engine import audit_pair
        from app.audit.gate import evaluate_gate
        from app.redaction.redact import redact_result
        from app.render.check import render_check
        from app.render.markdown import render_comparison
        from app.selector_factory import LiveRun, make_selector, plan_ranker

        config = self.adjust(request.config) if self.adjust else request.config
        budget = config.live.budget
        asked = config.mode == Mode.LIVE_MODEL or self.record or self.replay  # synthetic mode refuses a recording
        run = LiveRun(max_calls=budget.max_calls, max_cost=budget.max_cost, record=self.record, replay=self.replay)
        live = run if asked else None
        selector = make_selector(config.mode, model=config.model, concurrency=config.concurrency, live=live)
        plan = PlanOptions(
            scope=config.live.scope, sample=config.live.sample, max_calls=budget.max_calls, max_cost=budget.max_cost
        )
        comparison = audit_pair(
            request.base,
            request.head,
            selector=selector,
            user_cases=request.user_cases,
            rule_settings=config.rules,
            rules=shipped_rules(),
            base_ref=request.base_ref,
            head_ref=request.head_ref,
            plan=plan,
            ranker=plan_ranker(config.mode),
            intents_per_tool=5 if config.generate else 0,
            negatives=config.generate,
            successors=config.successor_rules(),
        )
        save = getattr(selector, "save_recording", None)
        if callable(save):
            save()
        if request.notes:
            comparison = comparison.model_copy(update={"notes": [*comparison.notes, *request.notes]})
        self._last = (comparison, selector)
        comparison = redact_result(comparison, inputs=[request.base, request.head, *request.user_cases])
        fallback_url = request.report_url
        report_url = (self.report_linker(comparison) if self.report_linker else None) or fallback_url
        thresholds = config.thresholds
        gate = evaluate_gate(
            comparison,
            min_score=thresholds.min_score,
            max_drop=thresholds.max_drop,
            fail_on_regression=thresholds.fail_on_regression,
            near_ties=thresholds.near_ties,
        )
        self.redacted, self.gate = comparison, gate
        body = render_comparison(comparison, report_url=report_url, max_chars=65000)
        out = render_check(comparison, gate, report_url=report_url)
        check = CheckResult(
            conclusion=gate.conclusion,
            title=out.title,
            summary=out.summary,
            text=out.text,
            # Only where the pull request's own lines are: new findings on the tools it added or changed.
            annotations=annotations_for(findings_on_changed_tools(comparison)),
            details_url=report_url if report_url != fallback_url else None,
        )
        return Review(comment=body, check=check, report_url=report_url)
