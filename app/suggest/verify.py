"""Verifying rewrites by a rerun of the identical suite.

A rewrite is accepted only where the rerun supports it: the tool's own scored cases not worse, the
overall score not worse, and no scored case expected on another tool or on NO_TOOL newly failing (a
rewrite that pulls other tools' requests toward itself is rejected). Rewrites are verified one tool at a
time against the original; those that pass are then added one at a time (largest gain first), each kept
only if it passes against the ones kept before it, so an accepted one cannot hide another's regression.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.audit.models import RuleSettings, Suite, Tool, ToolSet
from app.audit.results import AuditReport
from app.audit.rules.engine import evaluate
from app.audit.rules.ruleset import RuleSet
from app.audit.scoring import score
from app.audit.selection import Selector, run_suite
from app.suggest.models import Effect, Rewrite, Suggestion
from app.suggest.optimizer import PARAMETER_RULES, apply_rewrite, parameter_field, replaced

# Score differences below this are float noise, not a change.
EPSILON = 1e-9

@dataclass(frozen=True, slots=True)
class Measure:
    """One rerun: the overall and selection scores, and which scored cases passed (by case id)."""

    overall: float
    selection: float
    passed: dict[str, bool]
    expected: dict[str, str]


def measure_report(report: AuditReport) -> Measure:
    runs = [r for r in report.runs if r.scored and not r.why.startswith("not run")]
    return Measure(
        overall=report.overall,
        selection=report.scores.selection_accuracy,
        passed={r.case_id: r.passed for r in runs},
        expected={r.case_id: r.expected for r in runs},
    )


def measure(
    toolset: ToolSet, *, suite: Suite, selector: Selector, rules: RuleSet, rule_settings: RuleSettings | None
) -> Measure:
    """Rerun the suite and recompute the scores on `toolset` (the same way an audit does)."""
    runs = run_suite(selector, toolset, suite)
    results = evaluate(toolset, rules=rules, settings=rule_settings)
    result = score(toolset, checks=results.checks, runs=runs)
    kept = [r for r in runs if r.scored and not r.why.startswith("not run")]
    return Measure(
        overall=result.overall,
        selection=result.scores.selection_accuracy,
        passed={r.case_id: r.passed for r in kept},
        expected={r.case_id: r.expected for r in kept},
    )


def effect(before: Measure, after: Measure, *, tools: set[str]) -> Effect:
    """Before -> after for rewrites of `tools`: their own cases, the scores, cases fixed and broken."""
    own = [cid for cid, expected in before.expected.items() if expected in tools]
    common = [cid for cid in before.passed if cid in after.passed]
    improved = sorted(cid for cid in common if not before.passed[cid] and after.passed[cid])
    regressed = sorted(cid for cid in common if before.passed[cid] and not after.passed[cid])
    return Effect(
        own_cases=len(own),
        own_passed_before=sum(1 for cid in own if before.passed[cid]),
        own_passed_after=sum(1 for cid in own if after.passed.get(cid)),
        overall_before=before.overall,
        overall_after=after.overall,
        selection_before=before.selection,
        selection_after=after.selection,
        improved=improved,
        regressed=regressed,
        stolen=[cid for cid in regressed if before.expected[cid] not in tools],
    )


def rejection(eff: Effect, before: Measure, after: Measure, *, tools: set[str]) -> str | None:
    """Why the rerun does not support the rewrite, or None when it does."""
    if eff.stolen:
        return f"other tools' or NO_TOOL cases newly fail: {', '.join(eff.stolen[:5])}"
    for tool in sorted(tools):
        own = [cid for cid, expected in before.expected.items() if expected == tool]
        if sum(after.passed.get(c, False) for c in own) < sum(before.passed[c] for c in own):
            return f"{tool}'s own cases get worse"
    if eff.overall_after < eff.overall_before - EPSILON:
        return f"the overall score drops ({eff.overall_before:.2f} -> {eff.overall_after:.2f})"
    return None


class Verifier:
    """Reruns the suite for rewrites of one tool set; `combined` is the effect of all accepted ones."""

    def __init__(
        self, toolset: ToolSet, *, suite: Suite, selector: Selector, rules: RuleSet, rule_settings: RuleSettings | None
    ) -> None:
        self.toolset = toolset
        self.kwargs = {"suite": suite, "selector": selector, "rules": rules, "rule_settings": rule_settings}
        self.combined: Effect | None = None

    def _measure(self, tools: Sequence[Tool]) -> Measure:
        return measure(replaced(self.toolset, tools), **self.kwargs)  # type: ignore[arg-type]

    def verify(self, proposals: Sequence[tuple[Tool, list[Rewrite]]], baseline: Measure) -> list[Suggestion]:
        """Each tool's attempts in order (with its sibling boundary, then without): the first the rerun
        supports is kept; when none is, the first is reported as rejected."""
        self.baseline = baseline
        self.results: dict[str, tuple[Effect, str | None]] = {}
        self.chosen: dict[str, tuple[Rewrite, str]] = {}
        passing: list[tuple[Tool, list[Rewrite], Effect]] = []
        for tool, attempts in proposals:
            first_why = ""
            for n, proposal in enumerate(attempts):
                eff, why = self._alone(tool, proposal)
                if n == 0 or why is None:
                    self.results[tool.name] = (eff, why)
                    self.chosen[tool.name] = (proposal, first_why)
                if why is None:
                    passing.append((tool, attempts[n:], eff))
                    break
                first_why = first_why or why
        if passing:
            self._combine(passing)
        out: list[Suggestion] = []
        for tool, _ in proposals:
            eff, why = self.results[tool.name]
            proposal, earlier = self.chosen[tool.name]
            if why:
                reason = f"rejected by the rerun: {why}"
            elif earlier:
                reason = f"accepted without the sibling boundary (with it, {earlier})"
            else:
                reason = "accepted: the rerun supports it"
            out.extend(suggestions_for(tool, proposal, accepted=why is None, reason=reason, eff=eff))
        return out

    def _alone(self, tool: Tool, proposal: Rewrite) -> tuple[Effect, str | None]:
        """The rewrite of one tool against the original tool set."""
        after = self._measure([apply_rewrite(tool, proposal)])
        eff = effect(self.baseline, after, tools={tool.name})
        return eff, rejection(eff, self.baseline, after, tools={tool.name})

    def _combine(self, passing: list[tuple[Tool, list[Rewrite], Effect]]) -> None:
        baseline = self.baseline
        if len(passing) == 1:
            self.combined = passing[0][2]
            return
        # Add them one at a time, largest gain first, each (or its plainer attempt without the sibling
        # boundary) kept only when it passes against the ones kept before it: no suggestion is offered that
        # lowers the score of the others (descriptions written alike can overlap, TC302).
        order = sorted(passing, key=lambda x: (-(x[2].overall_after - x[2].overall_before), x[0].name))
        kept: list[Tool] = []
        state = baseline
        for tool, attempts, _ in order:
            why: str | None = None
            for n, proposal in enumerate(attempts):
                new = apply_rewrite(tool, proposal)
                trial = self._measure([*kept, new])
                eff = effect(state, trial, tools={tool.name})
                why = rejection(eff, state, trial, tools={tool.name})
                if why is None:
                    kept.append(new)
                    state = trial
                    if n:
                        alone, _ = self._alone(tool, proposal)
                        self.results[tool.name] = (alone, None)
                        self.chosen[tool.name] = (proposal, "together with the suggestions accepted before it")
                    break
            if why is not None:
                eff0 = self.results[tool.name][0]
                self.results[tool.name] = (eff0, f"together with the suggestions accepted before it: {why}")
        self.combined = effect(baseline, state, tools={t.name for t in kept})


def suggestions_for(
    tool: Tool, proposal: Rewrite, *, accepted: bool, reason: str, eff: Effect | None = None
) -> list[Suggestion]:
    loc = tool.location
    common = {
        "tool": tool.name,
        "file": loc.file if loc else None,
        "syntax": loc.syntax if loc else "json",
        "effect": eff,
        "accepted": accepted,
        "reason": reason,
    }
    out: list[Suggestion] = []
    if proposal.description is not None:
        rules = [r for r in proposal.rules if r not in PARAMETER_RULES]
        out.append(
            Suggestion(
                field="description",
                old=tool.description,
                new=proposal.description,
                lines=loc.description_lines if loc else None,
                rules=rules,
                siblings=proposal.siblings,
                **common,  # type: ignore[arg-type]
            )
        )
    for name, text in sorted(proposal.parameters.items()):
        spec = tool.properties.get(name)
        old = spec.get("description") if isinstance(spec, dict) else None
        out.append(
            Suggestion(
                field=parameter_field(name),
                old=old if isinstance(old, str) else None,
                new=text,
                lines=loc.parameter_description_lines.get(name) if loc else None,
                rules=[r for r in proposal.rules if r in PARAMETER_RULES],
                **common,  # type: ignore[arg-type]
            )
        )
    return out


