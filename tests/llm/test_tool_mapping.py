"""MCP tools to function tools: nothing rewritten, unsafe names aliased deterministically and mapped back."""

from __future__ import annotations

import json

from app.llm.tools import SAFE_NAME, assign_aliases, map_tools, safe_alias

from .conftest import TOOLS


def test_each_tool_keeps_description_and_schema_verbatim() -> None:
    mapped = map_tools(TOOLS)
    assert len(mapped.tools) == len(TOOLS)
    for sent, tool in zip(mapped.tools, TOOLS, strict=True):
        assert sent["type"] == "function"
        assert set(sent["function"]) == {"name", "description", "parameters"}
        assert sent["function"]["description"] == tool["description"]
        assert json.dumps(sent["function"]["parameters"]) == json.dumps(tool["inputSchema"])
        assert mapped.original(sent["function"]["name"]) == tool["name"]


def test_safe_names_are_untouched_and_unsafe_ones_aliased() -> None:
    mapped = map_tools(TOOLS)
    names = [t["function"]["name"] for t in mapped.tools]
    assert names[2] == "send_slack_message"
    assert names[0] == "github_search_issues"
    assert len(names[1]) == 64 and SAFE_NAME.match(names[1])
    assert set(mapped.aliases) == {names[0], names[1]}
    assert "send_slack_message" not in mapped.aliases


def test_aliases_never_collide_with_real_names_or_each_other() -> None:
    long_a = "x" * 70 + ".a"
    long_b = "x" * 70 + ".b"
    names = ["a.b", "a_b", long_a, long_b, "NO.TOOL"]
    aliases = assign_aliases(names)
    assert aliases["a_b"] == "a_b"
    assert aliases["a.b"] != "a_b"
    assert len(set(aliases.values())) == len(names)
    assert aliases["NO.TOOL"] != "NO_TOOL"
    assert all(SAFE_NAME.match(a) for a in aliases.values())


def test_aliases_are_deterministic() -> None:
    assert assign_aliases(["a.b", "c/d"]) == assign_aliases(["a.b", "c/d"])
    assert safe_alias("files.read") == "files_read"


def test_tool_without_description_sends_none() -> None:
    mapped = map_tools([{"name": "ping", "inputSchema": {"type": "object"}}])
    assert mapped.tools == [{"type": "function", "function": {"name": "ping", "parameters": {"type": "object"}}}]
