"""The fixed weighted score: six dimensions, each a share in 0-100, and a per-tool score.

Every dimension is a share over units (cases, tools, parameters, checks), never points subtracted per
finding, so a large tool set with good tools scores as well as a small one:

- selection_accuracy: scored runs whose selected tool (or NO_TOOL) is the expected one / scored runs.
- distinguishability: mean of a static part (share of tools in no near-duplicate-name or overlapping-
  description pair, rules TC3xx) and an observed part (1 - share of scored positive runs that selected
  another tool); the static part alone when there are no such runs.
- description_quality: mean over tools of the share of their applicable TC1xx checks passed.
- parameter_clarity: mean over all parameters of the share of their applicable TC2xx checks passed.
- argument_reliability: scored runs that selected a tool with schema-valid arguments / scored runs
  that selected a tool.
- safety: share of applicable TC4xx checks passed (destructive or consequential tools stating their
  effect; annotations agreeing with the text).

A dimension with nothing to measure (no scored runs, no parameters, no destructive tools) is marked
unmeasured: it shows 100 and its weight is shared out over the measured ones, which the report says.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from app.audit.models import NO_TOOL, ToolSet
from app.audit.results import ConfusionPair, DimensionScores, Run, ToolScore

WEIGHTS: dict[str, float] = {
    "selection_accuracy": 0.35,
    "distinguishability": 0.20,
    "description_quality": 0.15,
    "parameter_clarity": 0.15,
    "argument_reliability": 0.10,
    "safety": 0.05,
}

# Rule-id prefixes of the check families each static dimension is computed from.
DESCRIPTION_PREFIX = "TC1"
PARAMETER_PREFIX = "TC2"
DISTINGUISH_PREFIX = "TC3"
SAFETY_PREFIX = "TC4"


def _share(passed: float, total: float) -> float | None:
    return None if total == 0 else passed / total


def _mean(values: Sequence[float]) -> float | None:
    return None if not values else sum(values) / len(values)


class ScoreResult:
    """Dimension scores (0-100), which were measured, the overall score and per-tool scores."""

    def __init__(
        self,
        scores: DimensionScores,
        measured: dict[str, bool],
        overall: float,
        tool_scores: list[ToolScore],
        confusion: list[ConfusionPair],
    ) -> None:
        self.scores = scores
        self.measured = measured
        self.overall = overall
        self.tool_scores = tool_scores
        self.confusion = confusion


def score(
    toolset: ToolSet, *, checks: Sequence[Any], runs: Sequence[Run], weights: Mapping[str, float] | None = None
) -> ScoreResult:
    """Compute every dimension from the rule checks (objects with rule_id, tool, parameter, other_tool,
    passed) and the runs. `weights` (case id -> weight, default 1) lets a sampled run stand for the cases it
    was drawn from (a live plan's sample, app/audit/live_plan.py)."""
    names = toolset.names()
    scored_runs = [r for r in runs if r.scored and not r.why.startswith("not run")]
    weight = (lambda r: weights.get(r.case_id, 1.0)) if weights else (lambda r: 1.0)

    per_tool_desc: dict[str, list[bool]] = defaultdict(list)
    per_param: dict[tuple[str, str], list[bool]] = defaultdict(list)
    safety_checks: list[bool] = []
    per_tool_safety: dict[str, list[bool]] = defaultdict(list)
    overlapping: set[str] = set()
    for check in checks:
        rid = check.rule_id
        if rid.startswith(DESCRIPTION_PREFIX) and check.tool:
            per_tool_desc[check.tool].append(check.passed)
        elif rid.startswith(PARAMETER_PREFIX) and check.tool and check.parameter:
            per_param[(check.tool, check.parameter)].append(check.passed)
        elif rid.startswith(DISTINGUISH_PREFIX) and not check.passed:
            for tool in (check.tool, check.other_tool):
                if tool:
                    overlapping.add(tool)
        elif rid.startswith(SAFETY_PREFIX):
            safety_checks.append(check.passed)
            if check.tool:
                per_tool_safety[check.tool].append(check.passed)

    desc_by_tool = {t: sum(v) / len(v) for t, v in per_tool_desc.items() if v}
    param_scores = {k: sum(v) / len(v) for k, v in per_param.items() if v}
    params_by_tool: dict[str, list[float]] = defaultdict(list)
    for (tool, _), value in param_scores.items():
        params_by_tool[tool].append(value)

    selection = _share(sum(weight(r) for r in scored_runs if r.passed), sum(weight(r) for r in scored_runs))
    positives = [r for r in scored_runs if r.expected != NO_TOOL and not r.error]
    confused = sum(weight(r) for r in positives if r.selected not in (r.expected, NO_TOOL))
    static = _share(sum(1 for n in names if n not in overlapping), len(names))
    positive_weight = sum(weight(r) for r in positives)
    observed = _share(positive_weight - confused, positive_weight)
    distinguish = _mean([v for v in (static, observed) if v is not None])
    with_tool = [r for r in scored_runs if r.argument_check is not None]
    valid = sum(weight(r) for r in with_tool if r.argument_check and r.argument_check.valid)
    arguments = _share(valid, sum(weight(r) for r in with_tool))
    values: dict[str, float | None] = {
        "selection_accuracy": selection,
        "distinguishability": distinguish,
        "description_quality": _mean(list(desc_by_tool.values())),
        "parameter_clarity": _mean(list(param_scores.values())),
        "argument_reliability": arguments,
        "safety": _share(sum(safety_checks), len(safety_checks)),
    }
    measured = {k: v is not None for k, v in values.items()}
    dims = DimensionScores(**{k: round(100.0 * (v if v is not None else 1.0), 2) for k, v in values.items()})
    overall = weighted(dims.as_dict(), measured)

    tool_scores = _tool_scores(
        names,
        runs=scored_runs,
        desc=desc_by_tool,
        params=params_by_tool,
        safety=per_tool_safety,
        overlapping=overlapping,
    )
    return ScoreResult(dims, measured, overall, tool_scores, confusion_pairs(scored_runs))


def weighted(values: dict[str, float], measured: dict[str, bool]) -> float:
    """The weighted sum over measured dimensions, weights renormalised to 1; 0-100, two decimals."""
    total_weight = sum(w for k, w in WEIGHTS.items() if measured.get(k, True))
    if total_weight == 0:
        return 100.0
    return round(sum(values[k] * w for k, w in WEIGHTS.items() if measured.get(k, True)) / total_weight, 2)


def _tool_scores(
    names: Sequence[str],
    *,
    runs: Sequence[Run],
    desc: dict[str, float],
    params: dict[str, list[float]],
    safety: dict[str, list[bool]],
    overlapping: set[str],
) -> list[ToolScore]:
    by_expected: dict[str, list[Run]] = defaultdict(list)
    for run in runs:
        if run.expected != NO_TOOL:
            by_expected[run.expected].append(run)
    out: list[ToolScore] = []
    for name in names:
        tool_runs = by_expected.get(name, [])
        sel = _share(sum(r.passed for r in tool_runs), len(tool_runs))
        param = _mean(params.get(name, []))
        safe = _share(sum(safety[name]), len(safety[name])) if safety.get(name) else None
        parts = {
            "selection_accuracy": sel,
            "distinguishability": 0.0 if name in overlapping else 1.0,
            "description_quality": desc.get(name),
            "parameter_clarity": param,
            "safety": safe,
        }
        values = {k: 100.0 * (v if v is not None else 1.0) for k, v in parts.items()}
        values["argument_reliability"] = 100.0
        measured = {k: v is not None for k, v in parts.items()} | {"argument_reliability": False}
        out.append(
            ToolScore(
                tool=name,
                score=weighted(values, measured),
                description_quality=round(values["description_quality"], 2),
                parameter_clarity=round(values["parameter_clarity"], 2),
                safety=None if safe is None else round(100.0 * safe, 2),
                selection_accuracy=None if sel is None else round(100.0 * sel, 2),
            )
        )
    return sorted(out, key=lambda s: (s.score, s.tool))


def confusion_pairs(runs: Sequence[Run]) -> list[ConfusionPair]:
    """How often each expected answer went to another one, most frequent first."""
    totals: Counter[str] = Counter(r.expected for r in runs)
    pairs: Counter[tuple[str, str]] = Counter(
        (r.expected, r.selected) for r in runs if not r.passed and r.selected and not r.error
    )
    return [
        ConfusionPair(expected=e, selected=s, count=c, rate=round(c / totals[e], 4))
        for (e, s), c in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
