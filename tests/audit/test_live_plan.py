"""The live plan (app/audit/live_plan.py): which cases a live review asks, in which order a budget keeps them,
how the sample is drawn and weighed, and the interval it states. Tools and requests written for these tests."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.audit.live_plan import (
    PROBE_CALLS,
    PlanOptions,
    PlanStatus,
    Scope,
    build_plan,
    stratified,
    touched_tools,
)
from app.audit.loader import load_definitions
from app.audit.models import NO_TOOL, Case, CaseFamily, CaseStatus, Provenance, Suite, ToolSet
from app.audit.results import ArgumentCheck, Run
from app.audit.scoring import score


def _tools(**descriptions: str) -> ToolSet:
    tools = [
        {"name": name, "description": text, "inputSchema": {"type": "object", "properties": {}}}
        for name, text in descriptions.items()
    ]
    return load_definitions("tools.json", text=json.dumps({"tools": tools}))


BASE = _tools(
    open_ticket="Open a support ticket for a customer.",
    close_ticket="Close a support ticket that is resolved.",
    list_agents="List the support agents on duty.",
    page_oncall="Page the engineer on call.",
    bake_bread="Bake a loaf of bread.",
)
HEAD = _tools(
    open_ticket="Open a support ticket for a customer, with its priority.",
    close_ticket="Close a support ticket that is resolved.",
    list_agents="List the support agents on duty.",
    page_oncall="Page the engineer on call.",
    bake_bread="Bake a loaf of bread.",
)


def _case(cid: str, expected: str, **more: Any) -> Case:
    return Case(id=cid, intent=f"request {cid}", expected=expected, provenance=Provenance.AI_GENERATED, **more)


def _suite(extra: int = 0) -> Suite:
    cases = [
        _case("own-1", "open_ticket"),
        _case("near-1", NO_TOOL, family=CaseFamily.NEAR_MISS, target_tool="open_ticket", removed_tools=("open_ticket",)),  # noqa: E501
        _case("close-1", "close_ticket"),
        _case("agents-1", "list_agents"),
        _case("page-1", "page_oncall"),
        _case("bread-1", "bake_bread"),
        _case("weather", NO_TOOL, family=CaseFamily.OFF_TOPIC),
        _case("vague", "close_ticket", status=CaseStatus.EXPLORATORY, confidence=0.5),
    ]
    cases += [_case(f"more-{i:02d}", "bake_bread") for i in range(extra)]
    return Suite(cases=cases)


# The synthetic ranking, as app/audit/live_runs.py would give it: close-1 answered with open_ticket on head,
# page-1 has it third, the others never rank it.
RANKS = {
    "close-1": ["close_ticket", "open_ticket"],
    "page-1": ["page_oncall", "list_agents", "open_ticket"],
    "agents-1": ["list_agents", "page_oncall", "close_ticket"],
    "bread-1": ["bake_bread"],
    "weather": [],
    "vague": ["close_ticket"],
}
HEAD_RANKS = RANKS | {"close-1": ["open_ticket", "close_ticket"]}


def _plan(options: PlanOptions | None = None, suite: Suite | None = None) -> Any:
    return build_plan(suite or _suite(), BASE, HEAD, ranks=[RANKS, HEAD_RANKS], options=options or PlanOptions())


def _status(plan: Any) -> dict[str, PlanStatus]:
    return {c.case_id: c.status for c in plan.cases}


def test_touched_tools_are_those_whose_definition_differs_or_that_one_side_lacks() -> None:
    head = _tools(open_ticket="Open a support ticket for a customer.", escalate="Escalate a ticket.")
    assert touched_tools(BASE, HEAD) == {"open_ticket"}
    assert touched_tools(BASE, head) == {"close_ticket", "list_agents", "page_oncall", "bake_bread", "escalate"}


def test_the_change_reaches_its_own_cases_and_those_ranked_near_it_the_rest_is_sampled() -> None:
    plan = _plan(PlanOptions(sample=1))
    status = _status(plan)
    assert status["own-1"] == status["near-1"] == PlanStatus.TARGETED
    assert status["close-1"] == PlanStatus.TARGETED  # head's top-ranked tool is the changed one
    assert status["page-1"] == PlanStatus.TARGETED  # in the top 3 on one side
    reasons = {c.case_id: c.reason for c in plan.cases}
    assert "synthetic answer" in reasons["close-1"] and "top 3" in reasons["page-1"]
    # agents-1, bread-1 and weather are away from the change: one of them is drawn, two are left out.
    away = [status[c] for c in ("agents-1", "bread-1", "weather")]
    assert away.count(PlanStatus.SAMPLED) == 1 and away.count(PlanStatus.LEFT_OUT) == 2
    assert status["vague"] == PlanStatus.LEFT_OUT  # exploratory and away from the change
    assert plan.remainder == 3 and plan.sample_weight == 3.0
    assert plan.calls == 2 * 5 + PROBE_CALLS


def test_the_plan_is_a_value_and_the_draw_survives_a_changed_suite() -> None:
    assert _plan() == _plan()

    def drawn(extra: int) -> set[str]:
        plan = _plan(PlanOptions(sample=3), _suite(extra=extra))
        return {c.case_id for c in plan.cases if c.status == PlanStatus.SAMPLED}

    # A case is drawn by its own hash, not the suite's: one case more displaces at most one drawn case, so a
    # second push to a pull request re-asks little of the sample.
    for extra in range(1, 12):
        assert len(drawn(extra - 1) & drawn(extra)) >= 2


def test_a_budget_keeps_the_changed_tools_cases_first_and_never_plans_past_it() -> None:
    plan = _plan(PlanOptions(sample=3, max_calls=PROBE_CALLS + 4))
    status = _status(plan)
    assert plan.calls <= PROBE_CALLS + 4
    assert status["own-1"] == status["near-1"] == PlanStatus.TARGETED
    assert status["close-1"] == status["page-1"] == PlanStatus.OVER_BUDGET
    assert not any(s == PlanStatus.SAMPLED for s in status.values())
    assert plan.budget_calls == PROBE_CALLS + 4


def test_a_cost_budget_becomes_a_call_cap_at_the_price_of_one_call() -> None:
    plan = _plan(PlanOptions(max_cost=1.0, cost_per_call=0.2))
    assert plan.budget_calls == 5 and plan.calls <= 5


def test_scope_all_asks_every_case_that_runs_and_weighs_each_once() -> None:
    plan = _plan(PlanOptions(scope=Scope.ALL))
    assert all(c.status in (PlanStatus.TARGETED, PlanStatus.SAMPLED) for c in plan.cases)
    assert plan.sample_weight == 1.0


def test_a_case_that_runs_on_one_side_costs_one_call() -> None:
    head = _tools(
        open_ticket="Open a support ticket for a customer.",
        close_ticket="Close a support ticket that is resolved.",
        list_agents="List the support agents on duty.",
        page_oncall="Page the engineer on call.",
    )
    plan = build_plan(_suite(), BASE, head, ranks=[RANKS, RANKS], options=PlanOptions(sample=0))
    bread = next(c for c in plan.cases if c.case_id == "bread-1")
    assert bread.status == PlanStatus.TARGETED and bread.calls == 1


def test_sampled_runs_stand_for_the_cases_they_were_drawn_from_in_the_scores() -> None:
    runs = [
        Run(case_id="t", expected="open_ticket", selected="open_ticket", passed=True, why="",
            argument_check=ArgumentCheck(valid=True)),
        Run(case_id="s", expected="list_agents", selected="page_oncall", passed=False, why="",
            argument_check=ArgumentCheck(valid=False)),
    ]  # fmt: skip
    plain = score(HEAD, checks=[], runs=runs)
    weighed = score(HEAD, checks=[], runs=runs, weights={"s": 3.0})
    assert plain.scores.selection_accuracy == 50.0
    assert weighed.scores.selection_accuracy == 25.0
    assert weighed.scores.argument_reliability == 25.0


def test_the_stratified_interval() -> None:
    census_only = stratified([1, 1, 0, 1], [], remainder=0)
    assert census_only is not None and census_only.value == 0.75 and census_only.half_width == 0
    assert stratified([1.0], [], remainder=10) is None  # the remainder is unknown
    agreeing = stratified([1.0] * 10, [1.0] * 10, remainder=90)
    assert agreeing is not None and agreeing.value == 1.0
    assert 0 < agreeing.half_width < 0.3  # a sample that always agrees still leaves an interval
    wider = stratified([1.0] * 10, [1.0] * 5 + [0.0] * 5, remainder=90)
    assert wider is not None and wider.value == pytest.approx((10 + 45) / 100)
    assert wider.half_width > agreeing.half_width
    # Sampling the whole remainder leaves nothing to estimate.
    whole = stratified([1.0], [1.0, 0.0], remainder=2)
    assert whole is not None and whole.half_width == 0
    flips = stratified([1.0, -1.0], [0.0] * 12, remainder=100, paired=True)
    assert flips is not None and flips.value == 0.0 and flips.half_width > 0


def test_words_the_change_wrote_reach_requests_the_ranking_passes_over() -> None:
    head = _tools(
        open_ticket="Open a support ticket for a customer.",
        close_ticket='Close a ticket that is resolved, e.g. "printer jammed again".',
        list_agents="List the support agents on duty.",
        page_oncall="Page the engineer on call.",
        bake_bread="Bake a loaf of bread.",
    )
    quoted = Case(id="quoted", intent='Bake bread while the "printer jammed" note waits.', expected="bake_bread",
                  provenance=Provenance.AI_GENERATED)  # fmt: skip
    common = Case(id="common", intent="Bake bread for the support team.", expected="bake_bread",
                  provenance=Provenance.AI_GENERATED)  # fmt: skip
    plan = build_plan(Suite(cases=[quoted, common]), BASE, head, ranks=[{}, {}], options=PlanOptions(sample=0))
    status = _status(plan)
    # "printer" and "jam" are in no other tool's text: a model may now take the request for close_ticket.
    assert status["quoted"] == PlanStatus.TARGETED
    # "support", which close_ticket lost, is in three tools' texts: a shared word points at no one tool.
    assert status["common"] == PlanStatus.LEFT_OUT


def test_exploratory_cases_of_a_changed_tool_are_asked_only_in_the_whole_scope() -> None:
    unsure = _case("unsure", "open_ticket", status=CaseStatus.EXPLORATORY, confidence=0.5)
    suite = Suite(cases=[unsure])
    targeted = build_plan(suite, BASE, HEAD, ranks=[{}, {}], options=PlanOptions())
    assert _status(targeted)["unsure"] == PlanStatus.LEFT_OUT
    assert "exploratory" in targeted.cases[0].reason
    every = build_plan(suite, BASE, HEAD, ranks=[{}, {}], options=PlanOptions(scope=Scope.ALL))
    assert _status(every)["unsure"] == PlanStatus.TARGETED
