"""The live selector against a fake that behaves like llama.cpp's server: what was learned from the real one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.audit.models import NO_TOOL
from app.audit.selection import SelectionRequest
from app.errors import LiveModelError
from app.llm.cache import MemoryCache
from app.llm.factory import build_live_selector
from app.llm.selector import TOOLS_HEADING, LiveSelector
from app.llm.tools import map_tools

from .conftest import TOOLS, fast_profile
from .fake_openai import API_KEY, MODEL, FakeOpenAI, mention_handler, prompt_tokens, tokens


@pytest.fixture
def llama() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(like_llama_cpp=True) as fake:
        yield fake


def selector(server: FakeOpenAI, *, model: str = MODEL, **env: str) -> LiveSelector:
    return build_live_selector(
        model=model,
        concurrency=1,
        cache=MemoryCache(),
        profile=fast_profile(),
        env={"OPENAI_API_KEY": API_KEY, "OPENAI_BASE_URL": server.url, **env},
    )


def ask(sel: LiveSelector, *intents: str) -> list:  # type: ignore[type-arg]
    return sel.select_many([SelectionRequest(tools=TOOLS, intent=i) for i in intents])


def test_json_schema_refused_with_500_falls_back_to_json_mode_with_the_schema(llama: FakeOpenAI) -> None:
    first, second = ask(selector(llama), "post to send_slack_message please", "what is the time")
    assert first.tool == "send_slack_message" and second.tool == NO_TOOL
    assert (first.usage or {})["response_format"] == "json_object"
    formats = [r["response_format"] for r in llama.chat_requests]
    # One refusal (500), then JSON mode for every call that follows, each carrying the answer schema.
    assert [f["type"] for f in formats] == ["json_schema", "json_object", "json_object"]
    assert formats[1]["schema"]["required"] == ["tool", "arguments", "confidence", "reason"]


def test_a_500_that_is_not_about_the_format_is_retried_not_taken_for_a_refusal() -> None:
    from .fake_openai import error

    with FakeOpenAI(script=[error(500, "llama_decode returned -1")]) as flaky:
        (run,) = ask(selector(flaky), "hello")
        types = [r["response_format"]["type"] for r in flaky.chat_requests]
    assert run.tool == NO_TOOL and (run.usage or {})["attempts"] == 2
    assert types == ["json_schema", "json_schema"]


def test_a_wrong_model_name_fails_before_a_call_though_the_server_would_answer_it(llama: FakeOpenAI) -> None:
    with pytest.raises(LiveModelError, match=r"does not serve model 'gpt-4o-mini' \(it serves: fake-model\)"):
        ask(selector(llama, model="gpt-4o-mini"), "hello")
    assert llama.chat_requests == []


def test_the_model_is_recorded_as_the_server_reports_it(llama: FakeOpenAI) -> None:
    (run,) = ask(selector(llama), "hello")
    usage = run.usage or {}
    assert usage["model"] == MODEL  # llama.cpp echoes the name asked for
    # Both counted by the server: the prompt as sent, the answer as written (not a fixed figure).
    assert usage["prompt_tokens"] == prompt_tokens(llama.chat_requests[-1])
    assert usage["completion_tokens"] == tokens(run.raw or "") > 0


def test_a_template_that_drops_the_tools_fails_loudly_naming_the_setting() -> None:
    with (
        FakeOpenAI(like_llama_cpp=True, drops_tools=True) as blind,
        pytest.raises(LiveModelError, match=r"chat template drops the tools.*TOOLCHOICE_TOOLS_IN_PROMPT=1"),
    ):
        ask(selector(blind), "hello")


def test_a_template_that_shows_the_tools_is_probed_once_and_passes(llama: FakeOpenAI) -> None:
    ask(selector(llama), "one", "two", "three")
    (probe,) = llama.probe_requests
    assert "tools" not in probe and probe["messages"] == llama.chat_requests[0]["messages"]


def test_tools_in_the_prompt_reach_a_template_that_drops_the_tools_field() -> None:
    seen: list[str] = []

    def handler(request: dict) -> object:  # type: ignore[type-arg]
        seen.append(request["messages"][0]["content"])
        return mention_handler({**request, "tools": listed(request["messages"][0]["content"])})

    def listed(system: str) -> list:  # type: ignore[type-arg]
        return [json.loads(line) for line in system.split(TOOLS_HEADING, 1)[1].splitlines()]

    with FakeOpenAI(like_llama_cpp=True, drops_tools=True, handler=handler) as blind:  # type: ignore[arg-type]
        sel = selector(blind, TOOLCHOICE_TOOLS_IN_PROMPT="1")
        (run,) = ask(sel, "use send_slack_message")
        (sent,) = [r for r in blind.chat_requests if r["response_format"]["type"] == "json_object"]
    assert run.tool == "send_slack_message" and run.error is None
    assert "tools" not in sent and listed(seen[-1]) == map_tools(TOOLS).tools
    assert sel.info.settings["tools_in_prompt"] is True


def test_tools_in_prompt_accepts_only_a_yes_or_no(llama: FakeOpenAI) -> None:
    from app.errors import SelectorError

    with pytest.raises(SelectorError, match="TOOLCHOICE_TOOLS_IN_PROMPT must be 1 or 0"):
        selector(llama, TOOLCHOICE_TOOLS_IN_PROMPT="sometimes")


def test_eval_selector_sample_is_the_same_cases_every_run(tmp_path: Path) -> None:
    from app.audit.evaluation import load_all
    from app.commands.eval_selector import sample

    cases = load_all([Path(__file__).parent.parent / "fixtures" / "labeled" / "small.json"])
    picked = sample(cases, 3)
    assert {c.id for c in picked} == {c.id for c in sample(list(reversed(cases)), 3)}  # not "the first 3"
    assert len(picked) == 3 and [c.id for c in picked] == [c.id for c in sample(cases, 3)]
    assert [c.id for c in picked] == [c.id for c in cases if c in picked]  # file order kept
    assert len(sample(cases, 100)) == len(cases)


def test_a_server_refusing_tools_for_the_model_names_the_setting() -> None:
    from .fake_openai import error

    refusal = error(400, "registry.ollama.ai/library/gemma:2b does not support tools")
    with (
        FakeOpenAI(script=[refusal]) as ollama,
        pytest.raises(LiveModelError, match=r"does not support tools\); set TOOLCHOICE_TOOLS_IN_PROMPT=1"),
    ):
        ask(selector(ollama), "hello")


def test_max_tokens_from_the_environment_reaches_the_request_and_the_report(llama: FakeOpenAI) -> None:
    from app.errors import SelectorError

    sel = selector(llama, TOOLCHOICE_MAX_TOKENS="120")
    ask(sel, "hello")
    assert {r["max_tokens"] for r in llama.chat_requests} == {120} and sel.info.settings["max_tokens"] == 120
    with pytest.raises(SelectorError, match="TOOLCHOICE_MAX_TOKENS must be a positive whole number"):
        selector(llama, TOOLCHOICE_MAX_TOKENS="lots")
    assert selector(llama, TOOLCHOICE_TIMEOUT_S="240").info.settings["timeout_s"] == 240.0
    with pytest.raises(SelectorError, match="TOOLCHOICE_TIMEOUT_S must be a number of seconds"):
        selector(llama, TOOLCHOICE_TIMEOUT_S="soon")
