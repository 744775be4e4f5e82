"""Scores are shares over units, weighted by the fixed weights; unmeasured dimensions are renormalised."""

from __future__ import annotations

import pytest

from app.audit.models import Dimension
from app.audit.results import ArgumentCheck, Run
from app.audit.rules.engine import CheckResult
from app.audit.scoring import WEIGHTS, score, weighted

from .helpers import tool, toolset


def run(case_id: str, expected: str, selected: str, *, valid: bool | None = None, scored: bool = True) -> Run:
    check = None if valid is None else ArgumentCheck(valid=valid, failed_check=None if valid else "required")
    return Run(
        case_id=case_id,
        expected=expected,
        selected=selected,
        passed=expected == selected,
        why="",
        scored=scored,
        argument_check=check,
    )


def check(rule: str, dim: Dimension, tool_name: str, passed: bool, **kw: str) -> CheckResult:
    return CheckResult(rule_id=rule, dimension=dim, tool=tool_name, passed=passed, **kw)


def test_weights_sum_to_one() -> None:
    assert sum(WEIGHTS.values()) == pytest.approx(1.0)


def test_every_dimension_is_a_share() -> None:
    ts = toolset(tool("a", p={"type": "string"}), tool("b"))
    checks = [
        check("TC101", Dimension.DESCRIPTION_QUALITY, "a", True),
        check("TC102", Dimension.DESCRIPTION_QUALITY, "a", False),
        check("TC101", Dimension.DESCRIPTION_QUALITY, "b", True),
        check("TC201", Dimension.PARAMETER_CLARITY, "a", False, parameter="p"),
        check("TC301", Dimension.DISTINGUISHABILITY, "a", False, other_tool="b"),
        check("TC401", Dimension.SAFETY, "b", True),
    ]
    runs = [
        run("1", "a", "a", valid=True),
        run("2", "a", "b", valid=False),
        run("3", "NO_TOOL", "NO_TOOL"),
        run("4", "b", "b", valid=True),
        run("5", "b", "a", scored=False),  # exploratory: not counted
    ]
    result = score(ts, checks=checks, runs=runs)
    s = result.scores
    assert s.selection_accuracy == 75.0
    assert s.description_quality == 75.0  # a: 1/2, b: 1/1
    assert s.parameter_clarity == 0.0
    # static: both tools in an overlapping pair -> 0; observed: 1 of 3 positives confused -> 2/3
    assert s.distinguishability == pytest.approx(100 * (0 + 2 / 3) / 2, abs=0.01)
    assert s.argument_reliability == pytest.approx(66.67, abs=0.01)
    assert s.safety == 100.0
    expected = sum(WEIGHTS[k] * v for k, v in s.as_dict().items())
    assert result.overall == pytest.approx(expected, abs=0.01)
    assert [p.model_dump() for p in result.confusion] == [{"expected": "a", "selected": "b", "count": 1, "rate": 0.5}]


def test_unmeasured_dimensions_share_out_their_weight() -> None:
    result = score(toolset(tool("a")), checks=[check("TC101", Dimension.DESCRIPTION_QUALITY, "a", False)], runs=[])
    assert result.measured["selection_accuracy"] is False and result.measured["description_quality"] is True
    # Only description quality (0) and distinguishability (static, 100) are measured.
    assert result.overall == pytest.approx(100 * 0.20 / (0.20 + 0.15), abs=0.01)


def test_large_good_set_scores_like_small_good_set() -> None:
    small = [tool(f"t{i}") for i in range(3)]
    large = [tool(f"t{i}") for i in range(300)]

    def checks_for(tools: list) -> list[CheckResult]:
        return [check("TC101", Dimension.DESCRIPTION_QUALITY, t.name, True) for t in tools]

    a = score(toolset(*small), checks=checks_for(small), runs=[])
    b = score(toolset(*large), checks=checks_for(large), runs=[])
    assert a.overall == b.overall == 100.0


def test_per_tool_scores_put_the_worst_first() -> None:
    ts = toolset(tool("good"), tool("bad"))
    checks = [
        check("TC101", Dimension.DESCRIPTION_QUALITY, "good", True),
        check("TC101", Dimension.DESCRIPTION_QUALITY, "bad", False),
    ]
    result = score(ts, checks=checks, runs=[run("1", "bad", "NO_TOOL"), run("2", "good", "good")])
    assert [t.tool for t in result.tool_scores] == ["bad", "good"]
    assert result.tool_scores[0].selection_accuracy == 0.0


def test_weighted_renormalises() -> None:
    values = dict.fromkeys(WEIGHTS, 50.0) | {"safety": 0.0}
    assert weighted(values, dict.fromkeys(WEIGHTS, True)) == pytest.approx(47.5)
    assert weighted(values, dict.fromkeys(WEIGHTS, True) | {"safety": False}) == pytest.approx(50.0)
