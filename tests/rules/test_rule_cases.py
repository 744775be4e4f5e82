"""Every rule in rules/ has its own passing and failing cases in tests/rules/cases/<rule-id>.yaml."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.audit.models import RuleOverride, RuleSettings, Tool, ToolSet
from app.audit.rules import RuleSet, evaluate, load_rules

CASES = Path(__file__).resolve().parent / "cases"
RULES = load_rules()


def _case_file(rule_id: str) -> dict[str, Any]:
    path = CASES / f"{rule_id}.yaml"
    assert path.is_file(), f"rule {rule_id} has no case file {path.name}"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["rule"] == rule_id, f"{path.name} says rule {data['rule']}"
    return data


def _all_cases() -> list[Any]:
    params = []
    for rule in RULES.rules:
        path = CASES / f"{rule.id}.yaml"
        if not path.is_file():
            continue
        for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]:
            params.append(pytest.param(rule.id, case, id=f"{rule.id}-{case['expect']}-{case['name']}"))
    return params


@pytest.mark.parametrize("rule_id", [r.id for r in RULES.rules])
def test_every_rule_has_a_passing_and_a_failing_case(rule_id: str) -> None:
    expects = {case["expect"] for case in _case_file(rule_id)["cases"]}
    assert expects >= {"pass", "fail"}, f"{rule_id} needs at least one passing and one failing case"


def test_no_case_file_without_a_rule() -> None:
    known = {r.id for r in RULES.rules}
    orphans = sorted(p.stem for p in CASES.glob("*.yaml") if p.stem not in known)
    assert not orphans, f"case files for unknown rules: {orphans}"


@pytest.mark.parametrize(("rule_id", "case"), _all_cases())
def test_rule_case(rule_id: str, case: dict[str, Any]) -> None:
    rule = RULES.by_id()[rule_id]
    only = RuleSet.of([rule])
    settings = RuleSettings(overrides={rule_id: RuleOverride(options=case.get("options", {}))})
    toolset = ToolSet(tools=[Tool.model_validate(t) for t in case["tools"]])
    results = evaluate(toolset, rules=only, settings=settings)
    findings = [f for f in results.findings if f.rule_id == rule_id]
    checks = [c for c in results.checks if c.rule_id == rule_id]
    assert checks, "the rule applied to nothing, so this case tests nothing"
    if case["expect"] == "pass":
        assert not findings, [f.message for f in findings]
        assert all(c.passed for c in checks)
        return
    assert findings, "expected a finding"
    assert sum(not c.passed for c in checks) >= 1
    first = findings[0]
    for key in ("tool", "parameter", "other_tool"):
        if key in case:
            assert any(getattr(f, key) == case[key] for f in findings), (key, [f.model_dump() for f in findings])
    if "message_contains" in case:
        assert any(case["message_contains"] in f.message for f in findings), first.message
    assert not re.search(r"\{[a-z_]+\}", first.message), f"unfilled placeholder in {first.message!r}"
