"""All rules over every real server in ../shared/corpora/servers: no exception, plausible findings."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from app.audit.models import Tool, ToolSet
from app.audit.rules import evaluate, load_rules
from tests.conftest import shared_path


@pytest.mark.corpus
def test_rules_over_all_real_servers() -> None:
    rules = load_rules()
    files = sorted(shared_path("corpora", "servers").glob("*.json"))
    assert files
    per_rule: Counter[str] = Counter()
    tools_seen = 0
    for path in files:
        tools = [Tool.model_validate(t) for t in json.loads(path.read_text(encoding="utf-8"))["tools"]]
        tools_seen += len(tools)
        results = evaluate(ToolSet(tools=tools), rules=rules)
        missing = {f.tool for f in results.findings if f.rule_id == "TC101"}
        assert missing == {t.name for t in tools if not (t.description or "").strip()}, path.name
        per_rule.update(f.rule_id for f in results.findings)
        # A tool that states action, condition, boundary and result is not flooded with description findings.
        for tool_name, count in Counter(f.tool for f in results.findings if f.rule_id.startswith("TC1")).items():
            assert count <= 5, (path.name, tool_name)
    assert tools_seen > 400
    # The real servers describe every tool, so also strip one description per server and expect TC101.
    for path in files:
        raw = json.loads(path.read_text(encoding="utf-8"))["tools"]
        stripped = [{**raw[0], "description": ""}, *raw[1:]]
        results = evaluate(ToolSet(tools=[Tool.model_validate(t) for t in stripped]), rules=rules)
        assert {f.tool for f in results.findings if f.rule_id == "TC101"} == {raw[0]["name"]}, path.name
    # Input rules fire on broken definitions only; the real servers' schemas are valid.
    assert per_rule["TC001"] == 0 and per_rule["TC002"] == 0
