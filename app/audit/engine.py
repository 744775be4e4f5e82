"""One audit (rules + selection runs + scores) and a before/after audit pair on the identical suite."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from app.audit.compare import compare, confirm_flips
from app.audit.live_plan import LivePlan, PlanOptions, Ranker, Scope
from app.audit.live_runs import plan_for, plan_summary, planned_notes
from app.audit.models import Case, Finding, Mode, Provenance, RuleSettings, Suite, ToolSet
from app.audit.results import AuditReport, Comparison, ProvenanceCounts, Run
from app.audit.rules.engine import evaluate
from app.audit.rules.ruleset import RuleSet, load_rules
from app.audit.scoring import WEIGHTS, score
from app.audit.selection import Selector, run_suite
from app.audit.successors import Successor, SuccessorRule, find_successors
from app.audit.suite.build import CaseGenerator, build_suite

SYNTHETIC_NOTE = (
    "Synthetic mode: cases were run through a deterministic heuristic simulator, not a model. The simulator "
    "rewards the usage-boundary sentences ('Use this when…', 'Do not use for…') that the optimizer writes, so a "
    "synthetic before/after estimates added disambiguating structure; it is not evidence that a real model "
    "picks the right tool more often."
)
GENERATED_NOTE = (
    "ai_generated cases were machine-written and machine-validated by the same family of system that selects: "
    "treat them as directional evidence, not ground truth."
)


def audit(
    toolset: ToolSet,
    *,
    suite: Suite,
    selector: Selector,
    rules: RuleSet | None = None,
    rule_settings: RuleSettings | None = None,
    plan: LivePlan | None = None,
    successors: Sequence[Successor] = (),
) -> AuditReport:
    """Audit one tool set: deterministic findings, then every case of `suite` through `selector` (with a live
    `plan`, only the cases it asks; its sampled cases weigh for the cases they were drawn from). The head of a
    before/after passes the removed tools' `successors`: their cases are judged against them."""
    ruleset = rules or load_rules()
    results = evaluate(toolset, rules=ruleset, settings=rule_settings)
    findings = sorted([*toolset.load_findings, *results.findings], key=Finding.sort_key)
    runs = run_suite(selector, toolset, suite, asked=plan.asked() if plan else None, successors=successors)
    report = build_report(
        toolset,
        suite=suite,
        selector=selector,
        ruleset=ruleset,
        results=results,
        findings=findings,
        runs=runs,
        plan=plan,
    )
    return report.model_copy(update={"successors": list(successors)}) if successors else report


def build_report(
    toolset: ToolSet,
    *,
    suite: Suite,
    selector: Selector,
    ruleset: RuleSet,
    results: object,
    findings: list[Finding],
    runs: list[Run],
    plan: LivePlan | None = None,
) -> AuditReport:
    checks = getattr(results, "checks", [])
    result = score(toolset, checks=checks, runs=runs, weights=plan.weights() if plan else None)
    per_tool_findings = Counter(f.tool for f in findings if f.tool)
    tool_scores = [s.model_copy(update={"findings": per_tool_findings.get(s.tool, 0)}) for s in result.tool_scores]
    info = selector.info
    notes = []
    if info.mode == Mode.SYNTHETIC:
        notes.append(SYNTHETIC_NOTE)
    if any(c.provenance == Provenance.AI_GENERATED for c in suite.cases):
        notes.append(GENERATED_NOTE)
    notes.extend(suite.notes)
    unmeasured = [k for k, measured in result.measured.items() if not measured]
    if unmeasured:
        notes.append(
            "Not measured (nothing to measure), weight shared out over the other dimensions: " + ", ".join(unmeasured)
        )
    ignored = getattr(results, "ignored", [])
    for item in ignored:
        notes.append(f"Ignored by config: {item.rule} on {item.tool} ({item.reason})")
    return AuditReport(
        mode=info.mode,
        selector=info,
        suite_hash=suite.hash,
        rules_hash=getattr(results, "rules_hash", "") or ruleset.hash,
        provenance=provenance_counts(suite.cases, runs),
        scores=result.scores,
        overall=result.overall,
        findings=findings,
        runs=runs,
        confusion=result.confusion,
        tool_scores=tool_scores,
        tool_hashes={t.name: t.definition_hash() for t in sorted(toolset.tools, key=lambda t: t.name)},
        tool_field_hashes={t.name: t.field_hashes() for t in sorted(toolset.tools, key=lambda t: t.name)},
        sources=list(toolset.sources),
        cases=list(suite.cases),
        totals=_totals(selector, runs)
        | {"weights": WEIGHTS, "measured": result.measured}
        | ({"live_plan": plan_summary(plan)} if plan else {}),
        notes=notes,
    )


def provenance_counts(cases: Sequence[Case], runs: Sequence[Run]) -> ProvenanceCounts:
    ran = {r.case_id for r in runs if not r.why.startswith("not run")}
    scored: Counter[str] = Counter()
    exploratory: Counter[str] = Counter()
    for case in cases:
        if case.id not in ran:
            continue
        (scored if case.scored else exploratory)[case.provenance.value] += 1
    return ProvenanceCounts(scored=dict(sorted(scored.items())), exploratory=dict(sorted(exploratory.items())))


def selector_generator(selector: Selector) -> CaseGenerator | None:
    """A model-backed selector writes and validates its own cases (live_model); None means templates."""
    make = getattr(selector, "case_generator", None)
    return make() if callable(make) else None


def _totals(selector: Selector, runs: Sequence[Run]) -> dict[str, object]:
    """The selector's own totals when it keeps them (a live selector: tokens, cost, aliases), else ours."""
    own = getattr(selector, "usage_totals", None)
    totals = usage_totals(runs)
    if callable(own):
        totals |= own(runs)
    return totals


def usage_totals(runs: Sequence[Run]) -> dict[str, object]:
    """Counts of runs and, for model runs, calls, cache hits and tokens."""
    totals: dict[str, object] = {
        "runs": sum(1 for r in runs if not r.why.startswith("not run")),
        "errors": sum(1 for r in runs if r.error),
    }
    usages = [r.usage for r in runs if r.usage]
    if usages:
        totals["model_calls"] = sum(1 for u in usages if not u.get("cached"))
        totals["cached_calls"] = sum(1 for u in usages if u.get("cached"))
        totals["prompt_tokens"] = sum(int(u.get("prompt_tokens") or 0) for u in usages if not u.get("cached"))
        totals["completion_tokens"] = sum(int(u.get("completion_tokens") or 0) for u in usages if not u.get("cached"))
        models = sorted({str(u["model"]) for u in usages if u.get("model")})
        if models:
            totals["models_returned"] = models
    return totals


def audit_pair(
    base: ToolSet,
    head: ToolSet,
    *,
    selector: Selector,
    user_cases: Sequence[Case] = (),
    rule_settings: RuleSettings | None = None,
    generator: CaseGenerator | None = None,
    intents_per_tool: int = 5,
    negatives: bool = True,
    repeats: int = 0,
    base_ref: str | None = None,
    head_ref: str | None = None,
    rules: RuleSet | None = None,
    plan: PlanOptions | None = None,
    ranker: Ranker | None = None,
    successors: Mapping[str, SuccessorRule] | None = None,
) -> Comparison:
    """Before/after: one frozen suite from both sides, each side audited with it, then compared.

    With `repeats` > 0, cases whose outcome flips between base and head are run again `repeats` times on
    each side with fresh answers; a flip is claimed only when every repeat agrees, else it is unstable.

    A live_model selector asks by `plan` (default: the targeted plan of app/audit/live_plan.py, its cases
    ranked by `ranker`, the synthetic selector): the targeted scope runs the template suite, `Scope.ALL` has
    the model write the cases too, as before plans existed. A synthetic selector asks every case.

    Removed tools' cases are judged on head against their successors: the `successors` the repository names,
    else those app/audit/successors/ finds; added tools' cases are judged on base against their predecessors
    (the successors found the other way), so a rename or a merge compares the same requests on both sides.
    """
    ruleset = rules or load_rules()
    found = find_successors(base, head, successors)
    # The same on base for head's new tools: a merged tool's requests are asked of the tools it replaced.
    back = find_successors(head, base)
    live = selector.info.mode == Mode.LIVE_MODEL
    options = (plan or PlanOptions()) if live else None
    if generator is None and (options is None or options.scope == Scope.ALL):
        generator = selector_generator(selector)
    suite = build_suite(
        [base, head],
        user_cases=user_cases,
        intents_per_tool=intents_per_tool,
        negatives=negatives,
        generator=generator,
    )
    chosen = (
        plan_for(suite, base, head, selector=selector, options=options, ranker=ranker, successors=(back, found))
        if options
        else None
    )
    before = audit(
        base, suite=suite, selector=selector, rules=ruleset, rule_settings=rule_settings, plan=chosen, successors=back
    )
    after = audit(
        head, suite=suite, selector=selector, rules=ruleset, rule_settings=rule_settings, plan=chosen, successors=found
    )
    unstable: set[str] = set()
    unconfirmed: set[str] = set()
    if repeats > 0:
        left = getattr(selector, "calls_left", None)
        unstable, unconfirmed = confirm_flips(
            before,
            after,
            suite=suite,
            base=base,
            head=head,
            selector=selector,
            repeats=repeats,
            max_calls=left() if callable(left) else None,
        )
    comparison = compare(
        before,
        after,
        base_ref=base_ref,
        head_ref=head_ref,
        unstable=unstable,
        unconfirmed=unconfirmed,
    )
    if chosen is not None:
        comparison = comparison.model_copy(update={"notes": [*comparison.notes, *planned_notes(comparison, chosen)]})
    return comparison
