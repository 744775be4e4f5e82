"""Comparing two audits run on the identical suite: deltas, regressions first, tool changes."""

from __future__ import annotations

from collections.abc import Iterable

from app.audit.models import Case, Dimension, Finding, Mode, Suite, ToolSet
from app.audit.results import AuditReport, CaseDelta, Comparison, Run, ToolChange
from app.audit.selection import (
    SelectionRequest,
    Selector,
    judge,
    judge_successor,
    runnable,
    successor_case,
    tools_for_case,
)
from app.audit.successors import Successor
from app.audit.tool_summary import tool_summaries
from app.errors import CompareError


def check_comparable(base: AuditReport, head: AuditReport) -> None:
    """Refuse to compare audits with different modes, selector settings or suites."""
    if base.mode != head.mode:
        raise CompareError(f"cannot compare a {base.mode} audit with a {head.mode} audit")
    if base.selector.profile_hash != head.selector.profile_hash or base.selector.settings != head.selector.settings:
        raise CompareError(
            "cannot compare audits made with different selector settings "
            f"({base.selector.name} {base.selector.profile_hash[:12]} vs "
            f"{head.selector.name} {head.selector.profile_hash[:12]})"
        )
    if base.suite_hash != head.suite_hash:
        raise CompareError(
            f"cannot compare audits of different suites ({base.suite_hash[:12]} vs {head.suite_hash[:12]}); "
            "run both sides with the identical suite (toolchoice diff does)"
        )
    if base.rules_hash != head.rules_hash:
        raise CompareError("cannot compare audits made with different rule sets")


def finding_key(f: Finding) -> tuple[str, str, str, str, str]:
    # Lines move when a file is edited and messages quote measured values (a similarity that moved from
    # 0.93 to 0.94): a finding is the same finding when its rule and its target agree. A security finding's
    # message quotes the offending text and counts the offenses in its field, so it is part of the key: a
    # second payload added next to one the base already had is announced, an untouched one is not.
    message = f.message if f.dimension == Dimension.SECURITY else ""
    return (f.rule_id, f.tool or "", f.parameter or "", f.other_tool or "", message)


def compare(
    before: AuditReport,
    after: AuditReport,
    *,
    base_ref: str | None = None,
    head_ref: str | None = None,
    unstable: Iterable[str] = (),
    unconfirmed: Iterable[str] = (),
) -> Comparison:
    check_comparable(before, after)
    unstable_ids = set(unstable)
    unconfirmed_ids = set(unconfirmed)
    cases = {c.id: c for c in after.cases}
    labels = {s.removed: s.label() for s in after.successors}
    back = {s.removed: s.label() for s in before.successors}
    before_runs = {r.case_id: r for r in before.runs}
    after_runs = {r.case_id: r for r in after.runs}
    regressions: list[CaseDelta] = []
    improvements: list[CaseDelta] = []
    flaky: list[CaseDelta] = []
    coverage: list[CaseDelta] = []
    for case_id in sorted(cases):
        case = cases[case_id]
        b, a = before_runs.get(case_id), after_runs.get(case_id)
        b_ran = b is not None and not b.why.startswith("not run")
        a_ran = a is not None and not a.why.startswith("not run")
        if b_ran != a_ran:
            kind = "coverage_added" if a_ran else "coverage_removed"
            why = (a.why if a and not a_ran else b.why if b and not b_ran else "") or ""
            coverage.append(_delta(case, b, a, kind, why))
            continue
        if not (b_ran and a_ran and case.scored) or b is None or a is None or b.passed == a.passed:
            continue
        near = _near_tie(before, b, after, a)
        if case_id in unstable_ids:
            flaky.append(_delta(case, b, a, "unstable", "repeats disagreed; no gain or regression is claimed"))
        elif case_id in unconfirmed_ids:
            why = "not confirmed: the budget had no calls left for its re-runs; no gain or regression is claimed"
            flaky.append(_delta(case, b, a, "unstable", why))
        elif b.passed:
            regressions.append(_delta(case, b, a, "regression", a.why, borderline=near, labels=labels, back=back))
        else:
            improvements.append(_delta(case, b, a, "improvement", a.why, borderline=near, labels=labels, back=back))
    before_keys = {finding_key(f) for f in before.findings}
    after_keys = {finding_key(f) for f in after.findings}
    introduced = [f for f in after.findings if finding_key(f) not in before_keys]
    resolved = [f for f in before.findings if finding_key(f) not in after_keys]
    changes = tool_changes(before, after)
    deltas = {k: round(after.scores.as_dict()[k] - before.scores.as_dict()[k], 2) for k in before.scores.as_dict()}
    return Comparison(
        mode=after.mode,
        selector=after.selector,
        suite_hash=after.suite_hash,
        base=before,
        head=after,
        base_ref=base_ref,
        head_ref=head_ref,
        score_deltas=deltas,
        overall_delta=round(after.overall - before.overall, 2),
        regressions=regressions,
        improvements=improvements,
        unstable=flaky,
        coverage=coverage,
        findings_introduced=introduced,
        findings_resolved=resolved,
        tool_changes=changes,
        tool_summaries=tool_summaries(before, after, changes=changes, introduced=introduced),
        notes=list(after.notes),
    )


# A synthetic answer this close to a coin flip (confidence 0.5 + half the lead of its decision over the threshold or
# of its tool over the runner-up) is borderline: the request sits between two tools or between a tool and none.
BORDERLINE = 0.55


def _borderline(report: AuditReport, run: Run) -> bool:
    """Whether an answer was decided by a hair; only the synthetic selector's confidence means this."""
    return report.mode == Mode.SYNTHETIC and run.confidence < BORDERLINE


def _near_tie(before: AuditReport, b: Run, after: AuditReport, a: Run) -> bool:
    """A flip that either side decided by a hair: a pass by a hair that becomes a firm failure says as little about
    the change as a firm pass that becomes a failure by a hair."""
    return _borderline(before, b) or _borderline(after, a)


def _delta(
    case: Case,
    b: Run | None,
    a: Run | None,
    kind: str,
    why: str,
    *,
    borderline: bool = False,
    labels: dict[str, str] | None = None,
    back: dict[str, str] | None = None,
) -> CaseDelta:
    moved = a is not None and a.successor_of is not None
    moved_back = b is not None and b.successor_of is not None
    return CaseDelta(
        successor=(labels or {}).get(case.expected) if moved else None,
        predecessor=(back or {}).get(case.expected) if moved_back else None,
        case_id=case.id,
        intent=case.intent,
        expected=case.expected,
        provenance=case.provenance,
        before_selected=b.selected if b and not b.why.startswith("not run") else None,
        after_selected=a.selected if a and not a.why.startswith("not run") else None,
        kind=kind,
        why=why,
        removed_tools=list(case.removed_tools),
        borderline=borderline,
    )


def tool_changes(before: AuditReport, after: AuditReport) -> list[ToolChange]:
    """Added, removed, changed (which fields) and renamed tools, by definition hashes; a removed tool with a
    successor names it (app/audit/successors/: a rename is a successor found by an unchanged definition)."""
    old, new = before.tool_field_hashes, after.tool_field_hashes
    changes: list[ToolChange] = []
    for name in sorted(set(old) & set(new)):
        if before.tool_hashes[name] != after.tool_hashes[name]:
            fields = sorted(k for k in set(old[name]) | set(new[name]) if old[name].get(k) != new[name].get(k))
            changes.append(ToolChange(tool=name, change="changed", fields=fields))
    successors: dict[str, Successor] = {s.removed: s for s in after.successors}
    renamed = {
        s.targets[0].tool: s.removed
        for s in after.successors
        if s.how == "renamed" and len(s.targets) == 1 and s.removed in old and s.removed not in new
    }
    for name in sorted(set(new) - set(old)):
        if name in renamed:
            changes.append(ToolChange(tool=name, change="renamed", renamed_from=renamed[name], fields=["name"]))
        else:
            changes.append(ToolChange(tool=name, change="added"))
    for name in sorted(set(old) - set(new)):
        if name in renamed.values():
            continue
        found = successors.get(name)
        changes.append(
            ToolChange(
                tool=name,
                change="removed",
                successor=found.label() if found else None,
                successor_how=found.how if found else None,
                successor_confidence=found.confidence if found else None,
            )
        )
    return sorted(changes, key=lambda c: (c.change, c.tool))


def confirm_flips(
    before: AuditReport,
    after: AuditReport,
    *,
    suite: Suite,
    base: ToolSet,
    head: ToolSet,
    selector: Selector,
    repeats: int,
    max_calls: int | None = None,
) -> tuple[set[str], set[str]]:
    """Re-run flipped cases `repeats` times per side with fresh answers: the ids whose repeats disagree, and the
    ids left unconfirmed because `max_calls` (a live budget) could not pay for their re-runs (the rest, in case
    order, are confirmed)."""
    b_runs = {r.case_id: r for r in before.runs}
    a_runs = {r.case_id: r for r in after.runs}
    moved = ({s.removed: s for s in before.successors}, {s.removed: s for s in after.successors})
    flipped = [
        c
        for c in suite.cases
        if c.scored
        and c.id in b_runs
        and c.id in a_runs
        and (not runnable(base, c) or b_runs[c.id].successor_of is not None)
        and (not runnable(head, c) or a_runs[c.id].successor_of is not None)
        and b_runs[c.id].passed != a_runs[c.id].passed
    ]
    unconfirmed: set[str] = set()
    if max_calls is not None:
        affordable = max_calls // (2 * repeats)
        unconfirmed = {c.id for c in flipped[affordable:]}
        flipped = flipped[:affordable]
    unstable: set[str] = set()
    for side, toolset, first in ((0, base, b_runs), (1, head, a_runs)):
        listed = toolset.to_mcp()
        requests = [
            SelectionRequest(tools=tools_for_case(toolset, c, listed=listed), intent=c.intent, fresh=True, case_id=c.id)
            for c in flipped
            for _ in range(repeats)
        ]
        answers = selector.select_many(requests) if requests else []
        by_name = toolset.by_name()
        for i, case in enumerate(flipped):
            successor = moved[side].get(case.expected) if first[case.id].successor_of else None
            for sel in answers[i * repeats : (i + 1) * repeats]:
                if successor is not None:
                    asked, targets = successor_case(case, successor, by_name)
                    run = judge_successor(asked, sel, by_name.get(sel.tool), successor, targets)
                else:
                    run = judge(case, sel, by_name.get(sel.tool))
                if run.passed != first[case.id].passed:
                    unstable.add(case.id)
    return unstable, unconfirmed
