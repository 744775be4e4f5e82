"""The model-runs line of live reports: model as the server reported it, settings, calls, tokens, latency."""

from __future__ import annotations

import json
from collections.abc import Callable

from app.audit.engine import audit, audit_pair
from app.audit.models import NO_TOOL, Case, Provenance, Suite, ToolSet
from app.llm.selector import LiveSelector
from app.render.json_export import export_json
from app.render.markdown import render_comparison, render_report
from app.render.text import render_text

from .conftest import TOOLS
from .fake_openai import RETURNED_MODEL, FakeOpenAI

CASES = [
    Case(id="a", intent="use send_slack_message", expected="send_slack_message", provenance=Provenance.USER_DEFINED),
    Case(id="b", intent="what is the time", expected=NO_TOOL, provenance=Provenance.USER_DEFINED),
]


def test_an_audit_shows_the_model_runs_in_text_markdown_and_json(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    report = audit(ToolSet.model_validate({"tools": TOOLS}), suite=Suite(cases=CASES), selector=make_selector())
    tokens = sum(r.usage["prompt_tokens"] for r in report.runs if r.usage)
    text = render_text(report)
    (line,) = [ln for ln in text.splitlines() if ln.startswith("Model runs:")]
    assert f"model {RETURNED_MODEL} as the server reports it (asked for fake-model)" in line
    assert "temperature 0, seed 7, max_tokens 600, answers as json_schema" in line
    assert f"2 calls, 0 from the cache · {tokens:,} prompt + 60 completion tokens · mean latency" in line
    assert "Model runs — model" in render_report(report)
    exported = json.loads(export_json(report))["report"]
    assert exported["totals"]["models_returned"] == [RETURNED_MODEL]
    assert exported["totals"]["prompt_tokens"] == tokens and exported["totals"]["latency_ms_mean"] > 0
    assert exported["selector"]["settings"]["max_tokens"] == 600


def test_the_pr_comment_footer_sums_both_sides(server: FakeOpenAI, make_selector: Callable[..., LiveSelector]) -> None:
    head_tools = [dict(t) for t in TOOLS]
    head_tools[2]["description"] = "Send a chat message."
    comparison = audit_pair(
        ToolSet.model_validate({"tools": TOOLS}),
        ToolSet.model_validate({"tools": head_tools}),
        selector=make_selector(),
        user_cases=CASES,
        intents_per_tool=0,
        negatives=False,
    )
    body = render_comparison(comparison)
    (line,) = [ln for ln in body.splitlines() if ln.startswith("Model runs —")]
    calls = len(server.chat_requests)
    assert f"{calls} calls, 0 from the cache" in line and calls >= 4  # the two cases on each side


def test_a_synthetic_report_has_no_model_runs_line() -> None:
    from app.selector_factory import synthetic_selector

    toolset = ToolSet.model_validate({"tools": TOOLS})
    report = audit(toolset, suite=Suite(cases=CASES), selector=synthetic_selector())
    assert "Model runs" not in render_text(report) and "Model runs" not in render_report(report)


def test_tools_sent_in_the_system_message_are_named_in_the_line_as_on_llama_cpp() -> None:
    from app.llm.cache import MemoryCache
    from app.llm.factory import build_live_selector

    from .conftest import fast_profile
    from .fake_openai import API_KEY, MODEL

    with FakeOpenAI(like_llama_cpp=True, drops_tools=True) as blind:
        env = {"OPENAI_API_KEY": API_KEY, "OPENAI_BASE_URL": blind.url, "TOOLCHOICE_TOOLS_IN_PROMPT": "1"}
        selector = build_live_selector(model=MODEL, concurrency=1, cache=MemoryCache(), profile=fast_profile(), env=env)
        report = audit(ToolSet.model_validate({"tools": TOOLS}), suite=Suite(cases=CASES), selector=selector)
    (line,) = [ln for ln in render_text(report).splitlines() if ln.startswith("Model runs:")]
    # llama.cpp echoes the name asked for; JSON mode after its 500 on json_schema; the tools went in the prompt.
    assert f"model {MODEL} as the server reports it (asked for {MODEL})" in line
    assert "answers as json_object, tools in the system message" in line
    assert "Model runs — model" in render_report(report) and "tools in the system message" in render_report(report)
    assert json.loads(export_json(report))["report"]["selector"]["settings"]["tools_in_prompt"] is True
