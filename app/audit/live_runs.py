"""A live plan put to work: ranking both sides for it, its budget from the selector, and what the report says.

The selector may offer (looked up with getattr, as `usage_totals` is): `calls_left()`, the model calls its
budget still allows (None without a call budget), and `call_cost(chars)`, what one call over a tool listing
of that many characters costs (None without prices).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from app.audit.live_plan import (
    RANK_DEPTH,
    LivePlan,
    PlanOptions,
    PlanStatus,
    Ranker,
    Scope,
    build_plan,
    stratified,
    touched_tools,
)
from app.audit.models import Suite, ToolSet
from app.audit.results import Comparison, Run
from app.audit.selection import SelectionRequest, runnable, tools_for_case
from app.audit.successors import Successor


def plan_for(
    suite: Suite,
    base: ToolSet,
    head: ToolSet,
    *,
    selector: object,  # only its optional budget is read (`calls_left`, `call_cost`): any object will do
    options: PlanOptions,
    ranker: Ranker | None,
    successors: tuple[Sequence[Successor], Sequence[Successor]] = ((), ()),
) -> LivePlan:
    """The plan of `options` for this pair, its budget narrowed to what the selector has left (calls already
    spent writing cases count), its cases ranked by `ranker` on both sides."""
    options = _with_selector_budget(options, selector, [base, head])
    touched = touched_tools(base, head)
    ranks: list[dict[str, list[str]]] = [{}, {}]
    if ranker is not None:
        for side, toolset in enumerate((base, head)):
            listed = toolset.to_mcp()
            cases = [c for c in suite.cases if runnable(toolset, c) is None and not _own(c, touched)]
            requests = [SelectionRequest(tools_for_case(toolset, c, listed=listed), c.intent) for c in cases]
            ranked = ranker.rank_many(requests, k=RANK_DEPTH) if requests else []
            ranks[side] = {c.id: names for c, names in zip(cases, ranked, strict=True)}
    return build_plan(suite, base, head, ranks=ranks, options=options, touched=touched, successors=successors)


def _own(case: Any, touched: set[str]) -> bool:
    return any(n in touched for n in (case.expected, case.target_tool, *case.removed_tools) if n)


def _with_selector_budget(options: PlanOptions, selector: object, sides: list[ToolSet]) -> PlanOptions:
    update: dict[str, Any] = {}
    left = getattr(selector, "calls_left", None)
    remaining = left() if callable(left) else None
    if remaining is not None:
        update["max_calls"] = min(remaining, options.max_calls) if options.max_calls is not None else remaining
    cost = getattr(selector, "call_cost", None)
    if options.max_cost is not None and options.cost_per_call is None and callable(cost):
        chars = max(len(json.dumps(ts.to_mcp(), ensure_ascii=False)) for ts in sides)
        update["cost_per_call"] = cost(chars)
    return options.model_copy(update=update) if update else options


def plan_summary(plan: LivePlan) -> dict[str, Any]:
    """What a report keeps of its plan (JSON export `totals.live_plan`): the counts, the sampled cases and the
    sample's weight."""
    return {
        "scope": plan.scope.value,
        "targeted": plan.count(PlanStatus.TARGETED),
        "sampled": plan.count(PlanStatus.SAMPLED),
        "left_out": plan.count(PlanStatus.LEFT_OUT),
        "over_budget": plan.count(PlanStatus.OVER_BUDGET),
        "remainder": plan.remainder,
        "sample_weight": round(plan.sample_weight, 4),
        "planned_calls": plan.calls,
        "budget_calls": plan.budget_calls,
        "sampled_cases": sorted(c.case_id for c in plan.cases if c.status == PlanStatus.SAMPLED),
    }


def selection_estimates(comparison: Comparison, plan: LivePlan) -> dict[str, Any]:
    """Selection accuracy per side and its change, over the targeted cases and the remainder the sample stands
    for, each with its 95% half-width (points); empty when the remainder was not sampled."""
    status = {c.case_id: c.status for c in plan.cases}
    before = _scored(comparison.base.runs)
    after = _scored(comparison.head.runs)
    out: dict[str, Any] = {}
    for side, runs in (("base", before), ("head", after)):
        census = [float(r.passed) for cid, r in runs.items() if status.get(cid) == PlanStatus.TARGETED]
        sample = [float(r.passed) for cid, r in runs.items() if status.get(cid) == PlanStatus.SAMPLED]
        found = stratified(census, sample, remainder=plan.remainder)
        if found is not None:
            out[side] = {"value": round(100 * found.value, 2), "half_width": round(100 * found.half_width, 2)}
    both = sorted(set(before) & set(after))
    census = [float(after[c].passed) - float(before[c].passed) for c in both if status.get(c) == PlanStatus.TARGETED]
    sample = [float(after[c].passed) - float(before[c].passed) for c in both if status.get(c) == PlanStatus.SAMPLED]
    found = stratified(census, sample, remainder=plan.remainder, paired=True)
    if found is not None and "base" in out:
        out["change"] = {"value": round(100 * found.value, 2), "half_width": round(100 * found.half_width, 2)}
    return out


def _scored(runs: list[Run]) -> dict[str, Run]:
    return {r.case_id: r for r in runs if r.scored and not r.why.startswith("not run")}


def planned_notes(comparison: Comparison, plan: LivePlan) -> list[str]:
    """One sentence for the report's notes: how far the plan's estimate of selection accuracy can be trusted."""
    found = selection_estimates(comparison, plan)
    if plan.scope == Scope.ALL and plan.count(PlanStatus.OVER_BUDGET) == 0:
        return []
    if "change" not in found:
        if plan.remainder and not plan.count(PlanStatus.SAMPLED):
            return [
                "Live plan: none of the cases away from the change was sampled (sample 0, or the budget ran out), "
                "so selection accuracy is measured on the targeted cases alone and says nothing of the others."
            ]
        return []
    b, h, d = found["base"], found["head"], found["change"]
    return [
        f"Live plan: selection accuracy over every scored case, estimated from the targeted cases and a sample of "
        f"{plan.count(PlanStatus.SAMPLED)} of the {plan.remainder} others: {b['value']:.1f}% ± {b['half_width']:.1f} "
        f"before, {h['value']:.1f}% ± {h['half_width']:.1f} after, change {d['value']:+.1f} ± {d['half_width']:.1f} "
        "points (95%)."
    ]
