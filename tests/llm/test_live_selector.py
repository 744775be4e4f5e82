"""The live selector against a real loopback server: what the SDK sends and how each answer is read."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from app.audit.models import NO_TOOL, Case, Mode, Provenance, ToolSet
from app.audit.selection import SelectionRequest, judge
from app.llm.cache import MemoryCache
from app.llm.selector import LiveSelector
from app.llm.tools import map_tools

from .conftest import TOOLS
from .fake_openai import RETURNED_MODEL, FakeOpenAI, answer, completion, prompt_tokens

LONG = TOOLS[1]["name"]


def request(intent: str, *, fresh: bool = False) -> SelectionRequest:
    return SelectionRequest(tools=TOOLS, intent=intent, fresh=fresh)


def test_request_carries_temperature_zero_seed_the_tools_and_the_text(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    intent = "Find open issues about login in acme/web"
    make_selector().select_many([request(intent)])
    (sent,) = server.chat_requests
    assert sent["temperature"] == 0
    assert sent["seed"] == 7
    assert sent["model"] == "fake-model"
    # Byte for byte after the documented mapping (name or alias, description, parameters = inputSchema).
    assert json.dumps(sent["tools"]) == json.dumps(map_tools(TOOLS).tools)  # key order included
    for function_tool, mcp_tool in zip(sent["tools"], TOOLS, strict=True):
        assert json.dumps(function_tool["function"]["parameters"]) == json.dumps(mcp_tool["inputSchema"])
        assert function_tool["function"]["description"] == mcp_tool["description"]
    assert sent["tool_choice"] == "none"
    assert sent["messages"][-1] == {"role": "user", "content": intent}
    assert sent["messages"][0]["role"] == "system" and "NO_TOOL" in sent["messages"][0]["content"]
    fmt = sent["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["schema"]["required"] == ["tool", "arguments", "confidence", "reason"]


def test_valid_answer_under_an_alias_maps_back_to_the_mcp_name(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    alias = map_tools(TOOLS).tools[0]["function"]["name"]
    server.script.append(answer(alias, {"repo": "acme/web", "query": "login"}, confidence=0.8, reason="search"))
    (sel,) = make_selector().select_many([request("issues about login in acme/web")])
    assert sel.error is None
    assert sel.tool == "github.search_issues"
    assert sel.arguments == {"repo": "acme/web", "query": "login"}
    assert sel.confidence == 0.8 and sel.reason == "search"
    assert sel.raw is not None and alias in sel.raw
    usage = sel.usage or {}
    assert usage["model"] == RETURNED_MODEL
    assert (usage["prompt_tokens"], usage["completion_tokens"]) == (prompt_tokens(server.chat_requests[0]), 30)
    assert usage["latency_ms"] > 0 and usage["cached"] is False and usage["attempts"] == 1
    assert usage["aliases"][alias] == "github.search_issues"
    assert usage["aliases"][map_tools(TOOLS).tools[1]["function"]["name"]] == LONG


def test_no_tool_answer(server: FakeOpenAI, make_selector: Callable[..., LiveSelector]) -> None:
    server.script.append(answer(NO_TOOL, {"junk": 1}, confidence=0.95))
    (sel,) = make_selector().select_many([request("what's the capital of Peru?")])
    assert sel.tool == NO_TOOL and sel.arguments == {} and sel.error is None


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ('{"tool": "send_slack_message", "arguments": {', "not JSON"),
        ('```json\n{"tool": "NO_TOOL", "arguments": {}, "confidence": 1, "reason": "x"}\n```', "not JSON"),
        ('{"tool": "NO_TOOL", "arguments": {}, "confidence": 3, "reason": "x"}', "confidence"),
        ('{"tool": "NO_TOOL", "arguments": {}, "confidence": 1, "reason": "x", "extra": 1}', "extra"),
        ('{"tool": "NO_TOOL"}', "required"),
        ("", "empty answer"),
    ],
)
def test_malformed_or_off_schema_answer_is_a_failed_run_with_raw_text(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector], content: str, needle: str
) -> None:
    server.script.append(completion(content))
    (sel,) = make_selector().select_many([request("post 'hi' to #general")])
    assert sel.error is not None and needle in sel.error
    assert sel.tool == ""
    assert sel.raw == content


def test_tool_call_instead_of_json_is_a_failed_run(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "send_slack_message", "arguments": "{}"}}
    server.script.append(completion(None, tool_calls=[call], finish="tool_calls"))
    (sel,) = make_selector().select_many([request("post 'hi' to #general")])
    assert sel.error is not None and "tool call" in sel.error
    assert sel.raw is not None and "send_slack_message" in sel.raw


def test_hallucinated_argument_keys_are_kept_and_fail_the_argument_check(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    alias = map_tools(TOOLS).tools[0]["function"]["name"]
    server.script.append(answer(alias, {"repo": "acme/web", "query": "bug", "labels": ["p1"]}))
    (sel,) = make_selector().select_many([request("bugs in acme/web")])
    assert sel.arguments["labels"] == ["p1"]
    case = Case(id="c1", intent="bugs in acme/web", expected="github.search_issues", provenance=Provenance.USER_DEFINED)
    tool = ToolSet.model_validate({"tools": TOOLS}).by_name()["github.search_issues"]
    run = judge(case, sel, tool)
    assert run.passed and run.argument_check is not None
    assert run.argument_check.failed_check == "unexpected" and "labels" in (run.argument_check.detail or "")


def test_unknown_tool_name_stays_as_answered(server: FakeOpenAI, make_selector: Callable[..., LiveSelector]) -> None:
    server.script.append(answer("jira_create_ticket", {}))
    (sel,) = make_selector().select_many([request("open a ticket")])
    assert sel.error is None and sel.tool == "jira_create_ticket"


def test_answers_come_back_in_request_order_under_concurrency(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    names = [t["function"]["name"] for t in map_tools(TOOLS).tools]
    intents = [f"please use {names[i % 3]} (#{i})" for i in range(12)] + ["nothing here"]
    sels = make_selector(concurrency=6, cache=MemoryCache()).select_many([request(t) for t in intents])
    expected = [TOOLS[i % 3]["name"] for i in range(12)] + [NO_TOOL]
    assert [s.tool for s in sels] == expected
    assert len(server.chat_requests) == 13


def test_info_is_labeled_live_and_carries_no_secret(make_selector: Callable[..., LiveSelector]) -> None:
    info = make_selector(concurrency=3).info
    assert info.mode == Mode.LIVE_MODEL and info.name == "fake-model"
    assert len(info.profile_hash) == 64
    assert info.settings["temperature"] == 0 and info.settings["seed"] == 7
    assert info.settings["concurrency"] == 3
    assert info.settings["endpoint_host"].startswith("127.0.0.1:")
    assert "test-key" not in json.dumps(info.settings)


def test_json_schema_refused_falls_back_to_json_object_and_says_so(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    from .fake_openai import error

    server.script.append(error(400, "response_format of type 'json_schema' is not supported by this model"))
    server.script.append(answer(NO_TOOL))
    (sel,) = make_selector().select_many([request("hello")])
    assert sel.tool == NO_TOOL
    assert (sel.usage or {})["response_format"] == "json_object"
    first, second = server.chat_requests
    assert first["response_format"]["type"] == "json_schema"
    # JSON mode carries the answer schema (llama.cpp turns it into a grammar; other servers ignore the key).
    schema = first["response_format"]["json_schema"]["schema"]
    assert second["response_format"] == {"type": "json_object", "schema": schema}
