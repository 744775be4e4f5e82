"""Evaluating a rule set over a tool set: settings applied, findings with locations, per-target check results.

Check results feed the scores as shares over applicable targets. For `tool` and `parameter` rules there is
one result per applicable tool or parameter. For `tool_pair` and `tool_set` rules there is one result per
applicable tool (not per pair: 1,000 tools make 500k pairs): it fails when the tool is in any failing pair,
and `other_tool` then names the first such partner by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.audit.models import Dimension, Finding, LineRange, RuleSettings, Severity, Tool, ToolSet, sha256_of
from app.audit.rules.registry import CHECKS, Anchor, Failure, Target, Verdict
from app.audit.rules.ruleset import Rule, RuleSet, options_problem
from app.errors import ConfigError


class CheckResult(BaseModel):
    """One rule on one applicable target; scores are shares of passed results."""

    model_config = ConfigDict(frozen=True)

    rule_id: str
    dimension: Dimension
    tool: str
    parameter: str | None = None
    other_tool: str | None = None
    passed: bool

    def sort_key(self) -> tuple[str, str, str, str]:
        return (self.rule_id, self.tool, self.parameter or "", self.other_tool or "")


class IgnoredRule(BaseModel):
    """An ignore from the settings, with how many findings it silenced."""

    model_config = ConfigDict(frozen=True)

    rule: str
    tool: str
    reason: str
    suppressed: int = 0


class RuleResults(BaseModel):
    findings: list[Finding] = Field(default_factory=list)
    checks: list[CheckResult] = Field(default_factory=list)
    ignored: list[IgnoredRule] = Field(default_factory=list)
    disabled: list[str] = Field(default_factory=list)
    # sha256 of the rule set hash and the settings applied: equal hashes mean identical rule behaviour.
    rules_hash: str = ""


class _Effective(BaseModel):
    """A rule after the settings: its severity and merged options."""

    rule: Rule
    severity: Severity
    options: dict[str, Any]


def _effective_rules(rules: RuleSet, settings: RuleSettings) -> tuple[list[_Effective], list[str]]:
    known = rules.by_id()
    for rule_id in sorted(settings.overrides):
        if rule_id not in known:
            raise ConfigError(f"rules.overrides names unknown rule {rule_id}", key=f"rules.overrides.{rule_id}")
    for ignore in settings.ignore:
        if ignore.rule not in known:
            raise ConfigError(f"rules.ignore names unknown rule {ignore.rule}", key="rules.ignore")
    effective: list[_Effective] = []
    disabled: list[str] = []
    for rule in rules.rules:
        override = settings.overrides.get(rule.id)
        if override is not None and not override.enabled:
            disabled.append(rule.id)
            continue
        options = {**rule.then.options, **(override.options if override else {})}
        if override and override.options:
            located = options_problem(rule.then.function, options)
            if located:
                raise ConfigError(f"rules.overrides.{rule.id}: {located[0]}", key=f"rules.overrides.{rule.id}.options")
        severity = override.severity if override and override.severity else rule.severity
        effective.append(_Effective(rule=rule, severity=severity, options=options))
    return effective, disabled


def _lines(tool: Tool, anchor: Anchor, parameter: str | None) -> tuple[str | None, LineRange | None]:
    loc = tool.location
    if loc is None:
        return None, None
    span: LineRange | None = None
    if anchor == Anchor.NAME:
        span = loc.name_lines
    elif anchor == Anchor.DESCRIPTION:
        span = loc.description_lines
    elif anchor == Anchor.PARAMETER and parameter is not None:
        span = loc.parameter_description_lines.get(parameter)
    return loc.file, span or loc.tool_lines


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def _finding(
    eff: _Effective,
    tool: Tool,
    *,
    details: Mapping[str, str],
    anchor: Anchor,
    parameter: str | None = None,
    other_tool: str | None = None,
) -> Finding:
    values = {k: _text(v) for k, v in eff.options.items()}
    values.update(details)
    values.update(tool=tool.name, parameter=parameter or "", other_tool=other_tool or "")
    file, span = _lines(tool, anchor, parameter)
    return Finding(
        rule_id=eff.rule.id,
        severity=eff.severity,
        dimension=eff.rule.dimension,
        message=eff.rule.message.format_map(values),
        tool=tool.name,
        parameter=parameter,
        other_tool=other_tool,
        file=file,
        line=span.start if span else None,
        end_line=span.end if span else None,
    )


def _parameters(tool: Tool) -> list[tuple[str, Mapping[str, Any]]]:
    return [(name, schema if isinstance(schema, dict) else {}) for name, schema in sorted(tool.properties.items())]


def _evaluate_rule(
    eff: _Effective, tools: Sequence[Tool], ignored: set[str]
) -> tuple[list[Finding], list[CheckResult]]:
    rule, func = eff.rule, CHECKS[eff.rule.then.function].func
    findings: list[Finding] = []
    checks: list[CheckResult] = []

    def record(tool: Tool, outcome: Verdict | Sequence[Verdict] | None, parameter: str | None = None) -> None:
        if outcome is None:
            return
        if not isinstance(outcome, Verdict):
            for verdict in outcome:
                record(tool, verdict, parameter)
            return
        verdict = outcome
        parameter = parameter or verdict.parameter
        checks.append(CheckResult(rule_id=rule.id, dimension=rule.dimension, tool=tool.name,
                                  parameter=parameter, passed=verdict.passed))
        if not verdict.passed:
            findings.append(_finding(eff, tool, details=verdict.details, anchor=verdict.anchor, parameter=parameter))

    if rule.target in (Target.TOOL, Target.PARAMETER):
        for tool in tools:
            if tool.name in ignored:
                continue
            if rule.target == Target.TOOL:
                record(tool, func(tool, eff.options))
            else:
                for name, schema in _parameters(tool):
                    record(tool, func(tool, name, schema, eff.options), name)
        return findings, checks

    kept = [t for t in tools if t.name not in ignored]
    outcome = func(kept, eff.options)
    partner: dict[int, str] = {}
    for failure in _ordered(outcome.failures, kept):
        tool = kept[failure.tool]
        other = kept[failure.other_tool].name if failure.other_tool is not None else None
        findings.append(_finding(eff, tool, details=failure.details, anchor=failure.anchor,
                                 parameter=failure.parameter, other_tool=other))
        for index, mate in ((failure.tool, other), (failure.other_tool, tool.name)):
            if index is not None:
                partner.setdefault(index, mate or "")
    for index in sorted(outcome.applicable):
        failed = index in partner
        checks.append(CheckResult(rule_id=rule.id, dimension=rule.dimension, tool=kept[index].name,
                                  other_tool=(partner[index] or None) if failed else None, passed=not failed))
    return findings, checks


def _ordered(failures: Sequence[Failure], tools: Sequence[Tool]) -> list[Failure]:
    """Pair failures with the tools in name order, so the result does not depend on the listing order."""
    out: list[Failure] = []
    for f in failures:
        if f.other_tool is not None and tools[f.other_tool].name < tools[f.tool].name:
            f = Failure(tool=f.other_tool, other_tool=f.tool, details=f.details, anchor=f.anchor, parameter=f.parameter)
        out.append(f)

    def key(f: Failure) -> tuple[str, str, str]:
        return (tools[f.tool].name, tools[f.other_tool].name if f.other_tool is not None else "", f.parameter or "")

    return sorted(out, key=key)


def evaluate(toolset: ToolSet, *, rules: RuleSet, settings: RuleSettings | None = None) -> RuleResults:
    """Run every enabled rule over `toolset`. Deterministic: same tools in any order -> identical results."""
    settings = settings or RuleSettings()
    effective, disabled = _effective_rules(rules, settings)
    tools = sorted(toolset.tools, key=lambda t: (t.name, t.definition_hash()))
    ignores: dict[str, set[str]] = {}
    for ignore in settings.ignore:
        ignores.setdefault(ignore.rule, set()).add(ignore.tool)
    findings: list[Finding] = []
    checks: list[CheckResult] = []
    for eff in effective:
        found, checked = _evaluate_rule(eff, tools, ignores.get(eff.rule.id, set()))
        findings.extend(found)
        checks.extend(checked)
    suppressed = _suppressed_counts(effective, tools, settings)
    ignored = sorted(
        (IgnoredRule(rule=i.rule, tool=i.tool, reason=i.reason, suppressed=suppressed.get((i.rule, i.tool), 0))
         for i in settings.ignore),
        key=lambda i: (i.rule, i.tool, i.reason),
    )
    return RuleResults(
        findings=sorted(findings, key=Finding.sort_key),
        checks=sorted(checks, key=CheckResult.sort_key),
        ignored=ignored,
        disabled=disabled,
        rules_hash=sha256_of({"rules": rules.hash, "settings": settings.model_dump(mode="json")}),
    )


def _suppressed_counts(
    effective: Sequence[_Effective], tools: Sequence[Tool], settings: RuleSettings
) -> dict[tuple[str, str], int]:
    """How many findings each ignore silenced: the rule's findings on that tool with the ignore lifted."""
    counts: dict[tuple[str, str], int] = {}
    by_id = {e.rule.id: e for e in effective}
    for ignore in settings.ignore:
        eff = by_id.get(ignore.rule)
        if eff is None:
            continue
        found, _ = _evaluate_rule(eff, tools, set())
        counts[(ignore.rule, ignore.tool)] = sum(1 for f in found if ignore.tool in (f.tool, f.other_tool))
    return counts
