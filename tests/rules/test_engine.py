"""Evaluating rules: overrides, ignores, locations, determinism, the shape of check results."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import ValidationError

from app.audit.models import LineRange, Location, RuleIgnore, RuleOverride, RuleSettings, Severity, Tool, ToolSet
from app.audit.rules import evaluate, load_rules
from app.errors import ConfigError

RULES = load_rules()


def _tool(name: str, description: str | None = None, **schema: Any) -> Tool:
    props = schema.get("properties", {})
    return Tool(name=name, description=description, inputSchema={"type": "object", "properties": props})


def _toolset() -> ToolSet:
    return ToolSet(
        tools=[
            _tool("get_issue", "Get one issue by number. Use this when the user names an issue. Returns the issue."),
            _tool("get_issues", "List issues of a repository."),
            _tool("undescribed"),
            _tool("delete_file", "Delete a file.", properties={"data": {"description": "What to delete."}}),
            _tool("send_mail", "Send an email to a recipient.", properties={"to": {"type": "string"}}),
        ]
    )


def _ids(results: Any, tool: str | None = None) -> set[str]:
    return {f.rule_id for f in results.findings if tool is None or f.tool == tool}


def test_findings_and_checks_of_a_small_set() -> None:
    results = evaluate(_toolset(), rules=RULES)
    assert "TC101" in _ids(results, "undescribed")
    assert "TC301" in _ids(results, "get_issue")
    assert {"TC202", "TC203", "TC401"} <= _ids(results, "delete_file")
    assert "TC201" in _ids(results, "send_mail") and "TC201" not in _ids(results, "delete_file")
    # Every finding has a failed check behind it; check results carry the dimension for scoring.
    failed = {(c.rule_id, c.tool, c.parameter) for c in results.checks if not c.passed}
    for f in results.findings:
        if f.other_tool is None:
            assert (f.rule_id, f.tool, f.parameter) in failed
    tc101 = [c for c in results.checks if c.rule_id == "TC101"]
    assert len(tc101) == 5 and sum(not c.passed for c in tc101) == 1


def test_description_rules_are_not_applicable_without_a_description() -> None:
    results = evaluate(ToolSet(tools=[_tool("undescribed")]), rules=RULES)
    description_checks = [c for c in results.checks if c.rule_id.startswith("TC1")]
    assert [c.rule_id for c in description_checks] == ["TC101"]


def test_pair_rules_give_one_check_per_tool() -> None:
    results = evaluate(_toolset(), rules=RULES)
    pair = {c.tool: c for c in results.checks if c.rule_id == "TC301"}
    assert set(pair) == {t.name for t in _toolset().tools}
    assert not pair["get_issue"].passed and pair["get_issue"].other_tool == "get_issues"
    assert not pair["get_issues"].passed and pair["get_issues"].other_tool == "get_issue"
    assert pair["send_mail"].passed and pair["send_mail"].other_tool is None
    [finding] = [f for f in results.findings if f.rule_id == "TC301"]
    assert (finding.tool, finding.other_tool) == ("get_issue", "get_issues")


def test_override_off_skips_the_rule_entirely() -> None:
    settings = RuleSettings(overrides={"TC101": RuleOverride(enabled=False)})
    results = evaluate(_toolset(), rules=RULES, settings=settings)
    assert "TC101" not in _ids(results)
    assert not [c for c in results.checks if c.rule_id == "TC101"]
    assert results.disabled == ["TC101"]


def test_override_severity() -> None:
    settings = RuleSettings(overrides={"TC101": RuleOverride(severity=Severity.HINT)})
    results = evaluate(_toolset(), rules=RULES, settings=settings)
    assert {f.severity for f in results.findings if f.rule_id == "TC101"} == {Severity.HINT}


def test_override_options_are_merged_and_validated() -> None:
    tools = ToolSet(tools=[_tool("get_weather", "Get the weather for a city and return it.")])
    before = evaluate(tools, rules=RULES)
    assert "TC106" not in _ids(before)
    settings = RuleSettings(overrides={"TC106": RuleOverride(options={"max_chars": 10})})
    after = evaluate(tools, rules=RULES, settings=settings)
    [finding] = [f for f in after.findings if f.rule_id == "TC106"]
    assert "over 10" in finding.message
    bad = RuleSettings(overrides={"TC106": RuleOverride(options={"max_chars": "ten"})})
    with pytest.raises(ConfigError, match="TC106"):
        evaluate(tools, rules=RULES, settings=bad)
    unknown_option = RuleSettings(overrides={"TC106": RuleOverride(options={"min_chars": 3})})
    with pytest.raises(ConfigError, match="min_chars"):
        evaluate(tools, rules=RULES, settings=unknown_option)


def test_override_of_an_unknown_rule_is_a_config_error() -> None:
    settings = RuleSettings(overrides={"TC999": RuleOverride(enabled=False)})
    with pytest.raises(ConfigError, match="TC999"):
        evaluate(_toolset(), rules=RULES, settings=settings)


def test_ignore_drops_the_finding_and_the_check() -> None:
    settings = RuleSettings(ignore=[RuleIgnore(rule="TC101", tool="undescribed", reason="generated stub")])
    results = evaluate(_toolset(), rules=RULES, settings=settings)
    assert "TC101" not in _ids(results, "undescribed")
    assert not [c for c in results.checks if c.rule_id == "TC101" and c.tool == "undescribed"]
    assert len([c for c in results.checks if c.rule_id == "TC101"]) == 4
    [ignored] = results.ignored
    assert (ignored.rule, ignored.tool, ignored.reason, ignored.suppressed) == (
        "TC101", "undescribed", "generated stub", 1
    )


def test_ignore_on_a_pair_rule_drops_the_pair() -> None:
    settings = RuleSettings(ignore=[RuleIgnore(rule="TC301", tool="get_issues", reason="kept for compatibility")])
    results = evaluate(_toolset(), rules=RULES, settings=settings)
    assert "TC301" not in _ids(results)
    pair = {c.tool: c for c in results.checks if c.rule_id == "TC301"}
    assert "get_issues" not in pair and pair["get_issue"].passed


def test_ignore_needs_a_reason_and_a_known_rule() -> None:
    with pytest.raises(ValidationError):
        RuleIgnore(rule="TC101", tool="undescribed", reason="")
    settings = RuleSettings(ignore=[RuleIgnore(rule="TC998", tool="x", reason="why not")])
    with pytest.raises(ConfigError, match="TC998"):
        evaluate(_toolset(), rules=RULES, settings=settings)


def test_findings_carry_file_and_lines_from_the_location() -> None:
    location = Location(
        file="tools/mail.json",
        tool_lines=LineRange(start=10, end=30),
        name_lines=LineRange(start=11, end=11),
        description_lines=LineRange(start=12, end=13),
        parameter_description_lines={"to": LineRange(start=20, end=20)},
    )
    mail = Tool(
        name="send_mail",
        description="Send an email.",
        inputSchema={"type": "object", "properties": {"to": {"type": "string"}, "cc": {"type": "string"}}},
        location=location,
    )
    results = evaluate(ToolSet(tools=[mail]), rules=RULES)
    by_key = {(f.rule_id, f.parameter): f for f in results.findings}
    assert (by_key[("TC401", None)].file, by_key[("TC401", None)].line) == ("tools/mail.json", 12)
    assert by_key[("TC401", None)].end_line == 13
    assert by_key[("TC201", "to")].line == 20  # the parameter's own lines
    assert by_key[("TC201", "cc")].line == 10  # no lines of its own: the whole tool
    assert all(not (f.file or "").startswith("/") for f in results.findings)


def test_evaluate_is_byte_for_byte_deterministic_and_order_free() -> None:
    toolset = _toolset()
    first = evaluate(toolset, rules=RULES).model_dump_json()
    assert evaluate(toolset, rules=RULES).model_dump_json() == first
    shuffled = list(toolset.tools)
    for seed in range(5):
        random.Random(seed).shuffle(shuffled)
        assert evaluate(ToolSet(tools=shuffled), rules=RULES).model_dump_json() == first


def test_rules_hash_reflects_settings() -> None:
    plain = evaluate(_toolset(), rules=RULES).rules_hash
    assert plain == evaluate(_toolset(), rules=RULES).rules_hash
    off = RuleSettings(overrides={"TC104": RuleOverride(enabled=False)})
    assert evaluate(_toolset(), rules=RULES, settings=off).rules_hash != plain


def test_fast_name_pairs_equal_the_reference_measure() -> None:
    from app.audit.rules.checks_pair import name_pair_similarity, similar_names
    from app.audit.text import split_identifier

    names = [
        "get_issue", "get_issues", "issue_get", "getIssue", "list_issues", "analyze_log", "analyse_log",
        "create_event", "create-events", "helm_install", "helm_uninstall", "search", "search_code",
        "jira_get_issue_link", "jira_get_issue_links", "fetch_url", "fetch_uri", "a", "b", "send_mail",
    ]
    tools = [_tool(n, "x") for n in names]
    fast = {(names[f.tool], names[f.other_tool]) for f in similar_names(tools, {"threshold": 0.85}).failures}
    reference = set()
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            score = name_pair_similarity(tuple(split_identifier(names[i])), tuple(split_identifier(names[j])))
            if score is not None and score >= 0.85:
                reference.add((names[i], names[j]))
    assert fast == reference
    assert ("get_issue", "get_issues") in fast and ("analyze_log", "analyse_log") in fast
    assert ("helm_install", "helm_uninstall") not in fast and ("search", "search_code") not in fast


def test_a_well_described_tool_gets_no_findings() -> None:
    tool = Tool.model_validate(
        {
            "name": "search_issues",
            "description": (
                "Search issues in a repository by text. Use this when the user asks about existing bugs or "
                "feature requests. Do not use for pull requests; use search_pull_requests instead. Returns up "
                "to 50 matching issues with number, title and state."
            ),
            "inputSchema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "Text to match in titles and bodies, e.g. 'crash'."},
                    "state": {"type": "string", "enum": ["open", "closed", "all"], "description": "Which issues."},
                    "repo": {"type": "string", "description": "Repository as owner/name, e.g. 'octo/app'."},
                },
                "required": ["query", "repo"],
            },
            "annotations": {"readOnlyHint": True},
        }
    )
    results = evaluate(ToolSet(tools=[tool]), rules=RULES)
    assert results.findings == []
    assert results.checks and all(c.passed for c in results.checks)
