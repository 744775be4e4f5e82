"""Per changed tool, the behavioral evidence of a before/after: scored cases, passes on each side, confusions.

A reviewer of a pull request that edits three tools wants to know, for each of them, how many scored cases
exercised it, how many of those passed before and after, which new findings it got and which tools a
model took it for. `tool_summaries` computes that from the two audits and the tool changes; it reads only
what the comparison already holds (no selector is run).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from app.audit.models import NO_TOOL, Case, Finding
from app.audit.results import AuditReport, Comparison, Run, ToolChange, ToolSummary


def _ran(run: Run | None) -> bool:
    return run is not None and not run.why.startswith("not run")


def _side(cases: Sequence[Case], runs: dict[str, Run]) -> tuple[int | None, int | None]:
    """(ran, passed) over `cases` on one side; (None, None) when none of them ran there."""
    ran = [runs[c.id] for c in cases if _ran(runs.get(c.id))]
    if not ran:
        return None, None
    return len(ran), sum(1 for r in ran if r.passed)


def _confusions(after: AuditReport, scored_ids: set[str]) -> dict[str, Counter[str]]:
    """For each tool, the other tools involved in its head-side confusions, counted in both directions."""
    out: dict[str, Counter[str]] = {}
    for run in after.runs:
        if run.case_id not in scored_ids or not _ran(run) or run.passed:
            continue
        if run.selected in (run.expected, NO_TOOL) or run.expected == NO_TOOL:
            continue
        out.setdefault(run.expected, Counter())[run.selected] += 1
        out.setdefault(run.selected, Counter())[run.expected] += 1
    return out


def tool_summaries(
    before: AuditReport,
    after: AuditReport,
    *,
    changes: Sequence[ToolChange],
    introduced: Sequence[Finding],
) -> list[ToolSummary]:
    """One summary per changed, added, removed or renamed tool, in the order of `changes`."""
    scored = [c for c in after.cases if c.scored]
    by_tool: dict[str, list[Case]] = {}
    for case in scored:
        by_tool.setdefault(case.expected, []).append(case)
    before_runs = {r.case_id: r for r in before.runs}
    after_runs = {r.case_id: r for r in after.runs}
    confusions = _confusions(after, {c.id for c in scored})
    new_findings = Counter(f.tool for f in introduced if f.tool)
    out: list[ToolSummary] = []
    for change in changes:
        cases = by_tool.get(change.tool, []) + (by_tool.get(change.renamed_from, []) if change.renamed_from else [])
        ran_before, passed_before = _side(cases, before_runs)
        ran_after, passed_after = _side(cases, after_runs)
        confused = confusions.get(change.tool, Counter())
        out.append(
            ToolSummary(
                tool=change.tool,
                change=change.change,
                fields=list(change.fields),
                renamed_from=change.renamed_from,
                successor=change.successor,
                successor_how=change.successor_how,
                successor_confidence=change.successor_confidence,
                scored_cases=len(cases),
                ran_before=ran_before,
                passed_before=passed_before,
                ran_after=ran_after,
                passed_after=passed_after,
                new_findings=new_findings.get(change.tool, 0),
                confused_with=[name for name, _ in sorted(confused.items(), key=lambda kv: (-kv[1], kv[0]))],
            )
        )
    return out


def changed_tool_names(comparison: Comparison) -> set[str]:
    """Tools the pull request added, changed or renamed (their head names): where its new lines are."""
    return {c.tool for c in comparison.tool_changes if c.change != "removed"}


def findings_on_changed_tools(comparison: Comparison) -> list[Finding]:
    """New findings whose tool the pull request added, changed or renamed (for annotations on changed lines)."""
    names = changed_tool_names(comparison)
    return [f for f in comparison.findings_introduced if f.tool in names]
