"""live_model rewrites: the model's proposal is checked like a synthetic one and rerun on the same model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from llm.fake_openai import API_KEY, MODEL, FakeOpenAI, Reply, completion, mention_handler

from app.audit.loader import load_definitions
from app.audit.models import Case, Mode, Provenance, Suite
from app.llm.cache import FileCache
from app.llm.factory import build_live_selector
from app.llm.profiles import load_profile
from app.llm.rewrite import ModelRewriter, load_prompt
from app.suggest.optimizer import LIVE_OPTIMIZER_NOTE
from app.suggest.run import suggest

PROMPT = load_prompt()
TOOLS = {
    "tools": [
        {
            "name": "send_slack_message",
            "description": "Post a message to a Slack channel.",
            "inputSchema": {"type": "object", "properties": {"channel": {"type": "string"}}, "required": ["channel"]},
        },
        {
            "name": "search_issues",
            "description": "Search issues in a repository.",
            "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
        },
    ]
}
CASES = [
    Case(id="c1", intent="send_slack_message to #general", expected="send_slack_message",
         provenance=Provenance.HUMAN_FIXTURE),
    Case(id="c2", intent="search_issues about login", expected="search_issues", provenance=Provenance.HUMAN_FIXTURE),
    Case(id="c3", intent="tell me a joke", expected="NO_TOOL", provenance=Provenance.HUMAN_FIXTURE),
]


def _rewrites(answers: dict[str, dict[str, Any] | str]) -> Any:
    """Selection by mention; rewrite calls answered per tool from `answers` (JSON, or raw text)."""

    def handler(request: dict[str, Any]) -> Reply:
        system = request["messages"][0]["content"]
        if system != PROMPT.system_prompt:
            return mention_handler(request)
        user = request["messages"][1]["content"]
        tool = json.loads(user.split("Tool:\n", 1)[1].split("\n\nFindings:", 1)[0])["name"]
        value = answers.get(tool, "not json")
        return completion(value if isinstance(value, str) else json.dumps(value))

    return handler


def _run(tmp_path: Path, answers: dict[str, dict[str, Any] | str]) -> tuple[Any, ModelRewriter, FakeOpenAI]:
    server = FakeOpenAI(handler=_rewrites(answers))
    server.__enter__()
    try:
        profile = load_profile()
        profile = profile.model_copy(
            update={"settings": profile.settings.model_copy(update={"backoff_s": 0.01, "timeout_s": 5.0})}
        )
        selector = build_live_selector(
            model=MODEL,
            cache=FileCache(tmp_path / "cache"),
            profile=profile,
            env={"OPENAI_API_KEY": API_KEY, "OPENAI_BASE_URL": server.url},
        )
        rewriter = ModelRewriter.for_selector(selector)
        toolset = load_definitions("tools.json", text=json.dumps(TOOLS, indent=2))
        report = suggest(toolset, suite=Suite(cases=CASES), selector=selector, rewriter=rewriter)
    finally:
        server.__exit__(None, None, None)
    return report, rewriter, server


def test_a_model_rewrite_is_checked_and_rerun_on_the_same_model(tmp_path: Path) -> None:
    good = "Post a message to a Slack channel. Use this when the user wants to tell a channel something."
    report, rewriter, server = _run(
        tmp_path,
        {"send_slack_message": {"description": good, "parameters": {}, "rules": ["TC103"]}},
    )
    assert report.mode == Mode.LIVE_MODEL and report.rewriter == f"live_model:{MODEL}"
    assert LIVE_OPTIMIZER_NOTE in report.notes
    [s] = [s for s in report.suggestions if s.tool == "send_slack_message"]
    assert s.new == good and s.accepted and s.effect is not None
    assert s.effect.own_cases == 1 and s.effect.own_passed_after == 1
    # Reruns went to the same model with the same settings.
    selection_calls = [r for r in server.chat_requests if r["messages"][0]["content"] != PROMPT.system_prompt]
    assert selection_calls and {r["model"] for r in selection_calls} == {MODEL}
    assert {r.get("temperature") for r in selection_calls} == {0}
    # search_issues got an unusable answer: recorded, nothing offered.
    assert any(p.startswith("search_issues:") for p in rewriter.problems)
    assert not any(s.tool == "search_issues" for s in report.suggestions)


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ({"description": "Sends chat.", "parameters": {}, "rules": []}, "drops facts"),
        ({"description": "Post a message to a Slack channel. Set urgent_flag to page.", "parameters": {},
          "rules": []}, "urgent_flag"),
        ({"description": "Post a message to a Slack channel." + " More." * 120, "parameters": {}, "rules": []},
         "characters"),
        ({"description": "Post a message to a Slack channel. Nice.", "parameters": {}, "rules": ["TC104"]}, "TC104"),
    ],
)
def test_model_rewrites_that_break_the_rules_are_not_offered(tmp_path: Path, answer: dict[str, Any], why: str) -> None:
    report, _, _ = _run(tmp_path, {"send_slack_message": answer})
    [s] = [s for s in report.suggestions if s.tool == "send_slack_message"]
    assert not s.accepted and why in s.reason and s.effect is None


def test_the_prompt_carries_the_tool_its_findings_siblings_and_observations(tmp_path: Path) -> None:
    from app.audit.models import Dimension, Finding, Severity
    from app.suggest.models import RewriteContext, Sibling

    toolset = load_definitions("tools.json", text=json.dumps(TOOLS))
    slack, search = toolset.tools
    finding = Finding(rule_id="TC103", severity=Severity.INFO, dimension=Dimension.DESCRIPTION_QUALITY,
                      message="send_slack_message: the description does not say when to use the tool",
                      tool=slack.name)
    context = RewriteContext(tool=slack, findings=[finding], siblings=[Sibling(name=search.name, why="confused")],
                             tool_names=toolset.names(), sibling_tools=[search], missed_to_no_tool=2)
    with FakeOpenAI() as server:
        selector = build_live_selector(model=MODEL, cache=FileCache(tmp_path / "c"),
                                       env={"OPENAI_API_KEY": API_KEY, "OPENAI_BASE_URL": server.url})
        text = ModelRewriter.for_selector(selector).user_message(context)
    assert '"name": "send_slack_message"' in text
    assert "- TC103: send_slack_message: the description does not say when to use the tool" in text
    assert "- search_issues (confused): Search issues in a repository." in text
    assert "2 of its own requests got no tool" in text
    assert "{" + "observed}" not in text and str(PROMPT.max_chars) in PROMPT.system_prompt
