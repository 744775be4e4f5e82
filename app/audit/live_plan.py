"""The live plan: which cases a live_model before/after asks the model, and how the others are estimated.

A change to a few tools cannot move most answers, so a live review asks the model only where the change can
matter, plus a paired random sample of the other cases. The rule (docs/live-model.md, "The targeted plan"):

- **targeted**, asked on both sides, in this priority order:
  1. the cases of a changed, added, removed or renamed tool (expected, written for, or left out of a near-miss);
  2. cases whose synthetic answer (top-ranked tool) on either side is such a tool;
  3. cases whose synthetic top 3 on either side includes one, or whose request shares a word with what the
     change wrote into or took out of a tool's text (a model reads words the ranking passes over, such as
     those inside a quoted value);
- **sampled**: `sample` of the remaining scored cases, the same on both sides, each weighing
  remaining / sampled in the scores, so that selection accuracy over all of them is estimated with an
  interval. A case is drawn by the SHA-256 of its request and expected answer (the `sample` smallest win),
  so the draw is fixed for the suite and a case stays drawn across pushes while it stays in the remainder;
- **left out**: every other case, not asked and not scored; exploratory cases too (they can neither regress nor
  count in a score), unless the whole scope is asked.

A budget (calls, or cost at a price per call) keeps the plan's cases in that order and leaves out the rest
(`over budget`). The plan is a value: the same suite, sides and ranks give the same plan.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from app.audit.models import Case, Suite, Tool, ToolSet
from app.audit.selection import SelectionRequest, moved_to, runnable
from app.audit.successors import Successor
from app.audit.text import folded_stems

# Tools of the synthetic ranking that make a case "near" a changed tool: the top three.
RANK_DEPTH = 3
# Cases drawn from the remainder by default: enough for a rough interval at a small fixed cost.
DEFAULT_SAMPLE = 12
# Calls an audit makes besides selection: the one-token probe that the tools reached the model.
PROBE_CALLS = 1
# A changed word points a request at its tool when at most this share of the tools' texts hold it (and at least
# two tools may: the tool and one other): "login" in 7 of 115 tools still tells a model where to look.
DISTINCT_SHARE = 0.1
# A 95% normal interval.
Z95 = 1.96


class Scope(StrEnum):
    """Which cases a live review asks: those the change can reach (plus a sample), or every case."""

    TARGETED = "targeted"
    ALL = "all"


class PlanStatus(StrEnum):
    TARGETED = "targeted"
    SAMPLED = "sampled"
    LEFT_OUT = "left_out"
    OVER_BUDGET = "over_budget"


class PlanOptions(BaseModel):
    """How a live review plans: scope, sample size, budget, and the approximate cost of one call."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scope: Scope = Scope.TARGETED
    sample: int = Field(default=DEFAULT_SAMPLE, ge=0)
    max_calls: int | None = Field(default=None, ge=0)
    max_cost: float | None = Field(default=None, gt=0)
    # What one selection call costs, about (prices x tokens of the larger side); needed for max_cost.
    cost_per_call: float | None = Field(default=None, ge=0)


class PlannedCase(BaseModel):
    model_config = ConfigDict(frozen=True)

    case_id: str
    status: PlanStatus
    reason: str
    calls: int  # sides the case runs on (1 or 2); 0 when it is not asked


class LivePlan(BaseModel):
    """Every case of the suite with its status, the sample's weight and what the plan costs in calls."""

    scope: Scope
    cases: list[PlannedCase]
    remainder: int  # scored cases outside the targeted set, runnable on both sides
    sample_weight: float  # what one sampled case stands for in the scores (remainder / sampled)
    calls: int  # selection calls planned, both sides, plus the probe
    budget_calls: int | None = None  # the cap the budget put on calls, when one was set

    def asked(self) -> set[str]:
        return {c.case_id for c in self.cases if c.status in (PlanStatus.TARGETED, PlanStatus.SAMPLED)}

    def weights(self) -> dict[str, float]:
        """Per-case weight in the scores: sampled cases stand for the remainder; the others weigh 1."""
        return {c.case_id: self.sample_weight for c in self.cases if c.status == PlanStatus.SAMPLED}

    def count(self, status: PlanStatus) -> int:
        return sum(1 for c in self.cases if c.status == status)


def changed_words(base: ToolSet, head: ToolSet) -> dict[str, set[str]]:
    """For each tool on both sides whose definition differs: the distinctive word stems its text gained or lost
    (name, title, description and input schema, values and examples included), which a model reads wherever they
    stand. Distinctive: in the texts of at most DISTINCT_SHARE of the tools (and at least two), so that a word
    many tools share ("repository", "issue") does not point a request at this one."""
    old, new = base.by_name(), head.by_name()
    texts = {(side, t.name): set(folded_stems(_read_text(t))) for side, ts in ((0, base), (1, head)) for t in ts.tools}
    spread: dict[str, set[str]] = {}
    for (_, name), stems in texts.items():
        for stem in stems:
            spread.setdefault(stem, set()).add(name)
    limit = max(2, DISTINCT_SHARE * len(set(old) | set(new)))
    out: dict[str, set[str]] = {}
    for name in sorted(set(old) & set(new)):
        if old[name].definition_hash() == new[name].definition_hash():
            continue
        moved = texts[(0, name)] ^ texts[(1, name)]
        distinct = {s for s in moved if len(spread[s]) <= limit}
        if distinct:
            out[name] = distinct
    return out


def _read_text(tool: Tool) -> str:
    return json.dumps([tool.name, tool.title, tool.description, tool.input_schema], ensure_ascii=False)


def touched_tools(base: ToolSet, head: ToolSet) -> set[str]:
    """Names of the tools whose definition differs between the sides, or that exist on one side only."""
    old, new = base.by_name(), head.by_name()
    names = set(old) ^ set(new)
    names |= {n for n in set(old) & set(new) if old[n].definition_hash() != new[n].definition_hash()}
    return names


class Ranker(Protocol):
    """What ranks the tools for a plan: the synthetic selector's `rank_many`."""

    def rank_many(self, requests: Sequence[SelectionRequest], *, k: int = RANK_DEPTH) -> list[list[str]]: ...


def build_plan(
    suite: Suite,
    base: ToolSet,
    head: ToolSet,
    *,
    ranks: Sequence[Mapping[str, Sequence[str]]],
    options: PlanOptions,
    touched: set[str] | None = None,
    successors: tuple[Sequence[Successor], Sequence[Successor]] = ((), ()),
) -> LivePlan:
    """The plan of `options.scope`. `ranks` holds, per side, the synthetic ranking of each case that runs there
    (case id -> tool names, best first); `touched` defaults to the tools whose definitions differ. The whole
    scope asks every case, the targeted ones first where a budget must choose. `successors` (base's, then head's):
    a case of a tool one side lacks runs there too when that side has a successor for it."""
    moved = ({s.removed: s for s in successors[0]}, {s.removed: s for s in successors[1]})
    everything = options.scope == Scope.ALL
    touched = touched_tools(base, head) if touched is None else touched
    gained = changed_words(base, head)
    ordered: list[tuple[int, str, Case, str]] = []
    remainder: list[Case] = []
    left: list[PlannedCase] = []
    for case in suite.cases:
        sides = _sides(case, base, head, moved)
        if not sides:
            why = "runs on neither side"
            left.append(PlannedCase(case_id=case.id, status=PlanStatus.LEFT_OUT, reason=why, calls=0))
            continue
        found = _why_targeted(case, ranks, touched, gained)
        if found is not None and (case.scored or everything):
            priority, why = found
            ordered.append((priority if case.scored else 5, case.id, case, why))
        elif found is not None:
            why = "exploratory (shown, not scored): it can neither regress nor count in a score"
            left.append(PlannedCase(case_id=case.id, status=PlanStatus.LEFT_OUT, reason=why, calls=0))
        elif case.scored and sides == 2:
            remainder.append(case)
        elif everything:
            ordered.append((6, case.id, case, "every case is asked"))
        else:
            why = "exploratory (shown, not scored) and away from the change"
            left.append(PlannedCase(case_id=case.id, status=PlanStatus.LEFT_OUT, reason=why, calls=0))
    drawn = sorted(remainder, key=_draw_key)[: len(remainder) if everything else options.sample]
    drawn_ids = {c.id for c in drawn}
    for case in remainder:
        if case.id not in drawn_ids:
            why = "away from the change and not drawn for the sample"
            left.append(PlannedCase(case_id=case.id, status=PlanStatus.LEFT_OUT, reason=why, calls=0))
    # Priority: targeted scored cases (1-3), the sample (4); in the whole scope, exploratory targeted cases (5)
    # and the exploratory rest (6).
    queue = [(p, cid, case, why, PlanStatus.TARGETED) for p, cid, case, why in ordered]
    why_drawn = "every case is asked" if everything else "drawn for the sample of the cases away from the change"
    queue += [(4, c.id, c, why_drawn, PlanStatus.SAMPLED) for c in drawn]
    queue.sort(key=lambda item: (item[0], item[1]))
    cap = _call_cap(options)
    spent = PROBE_CALLS
    planned: list[PlannedCase] = []
    for _, cid, case, why, status in queue:
        calls = _sides(case, base, head, moved)
        if cap is not None and spent + calls > cap:
            planned.append(PlannedCase(case_id=cid, status=PlanStatus.OVER_BUDGET, reason=why, calls=0))
            continue
        spent += calls
        planned.append(PlannedCase(case_id=cid, status=status, reason=why, calls=calls))
    sampled = sum(1 for c in planned if c.status == PlanStatus.SAMPLED)
    cases = sorted([*planned, *left], key=lambda c: c.case_id)
    return LivePlan(
        scope=options.scope,
        cases=cases,
        remainder=len(remainder),
        sample_weight=len(remainder) / sampled if sampled else 1.0,
        calls=spent,
        budget_calls=cap,
    )


def _sides(
    case: Case, base: ToolSet, head: ToolSet, moved: tuple[Mapping[str, Successor], Mapping[str, Successor]] = ({}, {})
) -> int:
    return sum(
        runnable(side, case) is None or moved_to(case, set(side.names()), found) is not None
        for side, found in ((base, moved[0]), (head, moved[1]))
    )


def _why_targeted(
    case: Case, ranks: Sequence[Mapping[str, Sequence[str]]], touched: set[str], gained: Mapping[str, set[str]]
) -> tuple[int, str] | None:
    own = [n for n in (case.expected, case.target_tool, *case.removed_tools) if n and n in touched]
    if own:
        return 1, f"a case of {own[0]}, which the change touches"
    answered = [r[case.id][0] for r in ranks if r.get(case.id) and r[case.id][0] in touched]
    if answered:
        return 2, f"the synthetic answer on one side is {answered[0]}, which the change touches"
    near = [n for r in ranks for n in list(r.get(case.id, ()))[:RANK_DEPTH] if n in touched]
    if near:
        return 3, f"{near[0]}, which the change touches, ranks in the synthetic top {RANK_DEPTH}"
    asked = set(folded_stems(case.intent))
    for name, stems in sorted(gained.items()):
        if asked & stems:
            return 3, f"it shares words with what the change wrote into or took out of {name}"
    return None


def _draw_key(case: Case) -> tuple[str, str]:
    digest = hashlib.sha256(f"toolchoice-sample\n{case.intent}\n{case.expected}".encode()).hexdigest()
    return digest, case.id


def _call_cap(options: PlanOptions) -> int | None:
    caps = []
    if options.max_calls is not None:
        caps.append(options.max_calls)
    if options.max_cost is not None and options.cost_per_call:
        caps.append(math.floor(options.max_cost / options.cost_per_call))
    return min(caps) if caps else None


class Estimate(BaseModel):
    """A share estimated from a census of some cases plus a sample of the rest: value and 95% half-width."""

    value: float
    half_width: float


def stratified(
    census: Sequence[float], sample: Sequence[float], *, remainder: int, paired: bool = False
) -> Estimate | None:
    """The mean over the census cases and the remainder, the remainder known through `sample`, with a 95%
    half-width (the finite-population correction applied). Values are passes in 0..1, or with `paired` the
    differences head - base in -1..1; their spread is read with two pseudo-observations (Agresti-Coull's
    "add two successes and two failures"), so a sample that happens to agree on every case still leaves an
    interval. None when nothing was measured, or the remainder was not sampled."""
    total = len(census) + remainder
    n = len(sample)
    if total == 0 or (remainder and not n):
        return None
    mean_s = sum(sample) / n if n else 0.0
    value = (sum(census) + remainder * mean_s) / total
    if remainder == 0:
        return Estimate(value=value, half_width=0.0)
    # Shares: p(1-p) with p = (x+2)/(n+4); differences: the second moment with two pseudo-flips.
    if not paired:
        adjusted = (sum(sample) + 2) / (n + 4)
        spread = adjusted * (1 - adjusted)
    else:
        spread = (sum(x * x for x in sample) + 2) / (n + 4)
    fpc = max(0.0, 1.0 - n / remainder)
    half = Z95 * (remainder / total) * math.sqrt(fpc * spread / n)
    return Estimate(value=value, half_width=half)
