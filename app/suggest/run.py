"""The suggestion run: pick the tools that need a rewrite most, rewrite and check them, verify by rerun."""

from __future__ import annotations

from collections.abc import Collection

from app.audit.engine import audit
from app.audit.models import Dimension, Mode, RuleSettings, Suite, Tool, ToolSet
from app.audit.results import AuditReport
from app.audit.rules.ruleset import RuleSet, load_rules
from app.audit.selection import Selector
from app.suggest.models import Rewrite, RewriteContext, Rewriter, Skipped, SuggestionReport
from app.suggest.optimizer import (
    DESCRIPTION_RULES,
    LIVE_OPTIMIZER_NOTE,
    MAX_DESCRIPTION_CHARS,
    PAIR_RULES,
    PARAMETER_RULES,
    SYNTHETIC_OPTIMIZER_NOTE,
    check_rewrite,
    siblings_of,
)
from app.suggest.rewrite import SyntheticRewriter
from app.suggest.verify import Verifier, measure_report, suggestions_for

# Tools rewritten and verified per run unless the caller asks for more (each costs one rerun).
DEFAULT_LIMIT = 10
_TARGET_RULES = (*DESCRIPTION_RULES, *PARAMETER_RULES, *PAIR_RULES)


def suggest(
    toolset: ToolSet,
    *,
    suite: Suite,
    selector: Selector,
    rewriter: Rewriter | None = None,
    rules: RuleSet | None = None,
    rule_settings: RuleSettings | None = None,
    limit: int = DEFAULT_LIMIT,
    report: AuditReport | None = None,
    only: Collection[str] | None = None,
) -> SuggestionReport:
    """Rewrite, check and verify descriptions of the tools that need it most (at most `limit` tools).

    `report` is an audit of `toolset` on `suite` already made (else one is run); `only` restricts the
    rewrites to these tools (a pull request's added and changed ones), the rerun still covers all cases.
    """
    ruleset = rules or load_rules()
    rewriter = rewriter or SyntheticRewriter(ruleset)
    report = report or audit(toolset, suite=suite, selector=selector, rules=ruleset, rule_settings=rule_settings)
    baseline = measure_report(report)
    info = selector.info
    out = SuggestionReport(
        mode=info.mode, selector=info, rewriter=rewriter.name, suite_hash=suite.hash, overall_before=report.overall
    )
    out.notes.append(SYNTHETIC_OPTIMIZER_NOTE if info.mode == Mode.SYNTHETIC else LIVE_OPTIMIZER_NOTE)
    proposals: list[tuple[Tool, list[Rewrite]]] = []
    for tool in _candidates(toolset, report):
        if only is not None and tool.name not in only:
            continue
        if len(proposals) >= limit:
            out.skipped.append(Skipped(tool=tool.name, reason=f"not rewritten: over the limit of {limit} tools"))
            continue
        attempts: list[Rewrite] = []
        problem: str | None = None
        failed: tuple[Rewrite, str] | None = None
        for with_siblings in (True, False):
            proposal = _propose(tool, toolset=toolset, report=report, rewriter=rewriter, siblings=with_siblings)
            if isinstance(proposal, str):
                problem = problem or proposal
                continue
            if any(a.description == proposal.description and a.parameters == proposal.parameters for a in attempts):
                continue
            why = check_rewrite(tool, proposal, tool_names=toolset.names(), rules=ruleset, rule_settings=rule_settings)
            if why:
                failed = failed or (proposal, why)
                continue
            attempts.append(proposal)
        if attempts:
            proposals.append((tool, attempts))
        elif failed:
            out.suggestions.extend(suggestions_for(tool, failed[0], accepted=False, reason=f"rejected: {failed[1]}"))
        elif problem:
            out.skipped.append(Skipped(tool=tool.name, reason=problem))
    run = Verifier(toolset, suite=suite, selector=selector, rules=ruleset, rule_settings=rule_settings)
    out.suggestions.extend(run.verify(proposals, baseline))
    out.combined = run.combined
    out.suggestions.sort(key=lambda s: (not s.accepted, s.tool, s.field))
    return out


def _candidates(toolset: ToolSet, report: AuditReport) -> list[Tool]:
    """Tools with targeted findings or observed confusion, the most confused and most flagged first.

    A tool with a security finding is never a candidate: polishing the wording of a poisoned description
    would make the attack read better, so the finding has to be fixed by a person first.
    """
    poisoned = {f.tool for f in report.findings if f.dimension == Dimension.SECURITY}
    flagged: dict[str, int] = {}
    for f in report.findings:
        if f.rule_id in _TARGET_RULES:
            for name in (f.tool, f.other_tool if f.rule_id in PAIR_RULES else None):
                if name:
                    flagged[name] = flagged.get(name, 0) + 1
    confused: dict[str, int] = {}
    for pair in report.confusion:
        for name in (pair.expected, pair.selected):
            confused[name] = confused.get(name, 0) + pair.count
    tools = [t for t in toolset.tools if (t.name in flagged or t.name in confused) and t.name not in poisoned]
    return sorted(tools, key=lambda t: (-confused.get(t.name, 0), -flagged.get(t.name, 0), t.name))


def _propose(
    tool: Tool, *, toolset: ToolSet, report: AuditReport, rewriter: Rewriter, siblings: bool = True
) -> Rewrite | str:
    if not (tool.description or "").strip():
        return "has no description to extend; write one first (TC101)"
    findings = [f for f in report.findings if f.tool == tool.name or f.other_tool == tool.name]
    found = siblings_of(tool, toolset=toolset, report=report) if siblings else []
    by_name = toolset.by_name()
    context = RewriteContext(
        tool=tool,
        findings=findings,
        siblings=found,
        tool_names=toolset.names(),
        sibling_tools=[by_name[s.name] for s in found if s.name in by_name],
        missed_to_no_tool=sum(p.count for p in report.confusion if p.expected == tool.name and p.selected == "NO_TOOL"),
        took_no_tool=sum(p.count for p in report.confusion if p.selected == tool.name and p.expected == "NO_TOOL"),
    )
    proposal = rewriter.rewrite(context)
    if proposal is None:
        rules = sorted({f.rule_id for f in findings if f.rule_id in _TARGET_RULES})
        if "TC106" in rules:
            return (
                f"the description is over {MAX_DESCRIPTION_CHARS} characters (TC106): no rewrite can keep every "
                "fact under the limit; shorten it by hand"
            )
        return "nothing to add without inventing" + (f" (findings: {', '.join(rules)})" if rules else "")
    return proposal


