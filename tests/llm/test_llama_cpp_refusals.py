"""How the client meets what llama.cpp's server does beyond the happy path: its own error bodies, a prompt past
its context, answers cut at max_tokens, one request at a time (the fake does each as the real server 0.3.36 did)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from app.audit.models import NO_TOOL
from app.audit.selection import SelectionRequest
from app.errors import LiveModelError
from app.llm.cache import MemoryCache
from app.llm.factory import build_live_selector
from app.llm.selector import LiveSelector

from .conftest import TOOLS, fast_profile
from .fake_openai import API_KEY, MODEL, FakeOpenAI, Reply, answer, prompt_tokens


@pytest.fixture
def llama() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(like_llama_cpp=True) as fake:
        yield fake


def selector(server: FakeOpenAI, *, key: str = API_KEY, concurrency: int = 1, **settings: object) -> LiveSelector:
    return build_live_selector(
        model=MODEL,
        concurrency=concurrency,
        cache=MemoryCache(),
        profile=fast_profile(**settings),
        env={"OPENAI_API_KEY": key, "OPENAI_BASE_URL": server.url},
    )


def ask(sel: LiveSelector, *intents: str) -> list:  # type: ignore[type-arg]
    return sel.select_many([SelectionRequest(tools=TOOLS, intent=i) for i in intents])


def test_a_wrong_key_answered_in_fastapis_shape_fails_naming_the_key(llama: FakeOpenAI) -> None:
    with pytest.raises(LiveModelError, match=r"refused the API key \(401\); check OPENAI_API_KEY"):
        ask(selector(llama, key="not-the-key"), "hello")
    assert llama.chat_requests == []  # the model listing, read first, already said no


def test_the_model_listing_with_llama_cpps_extra_fields_is_read(llama: FakeOpenAI) -> None:
    (run,) = ask(selector(llama), "hello")
    assert run.error is None and run.tool == NO_TOOL


def test_a_prompt_past_the_context_fails_the_audit_saying_what_to_change() -> None:
    with FakeOpenAI(like_llama_cpp=True, n_ctx=200) as small:
        with pytest.raises(LiveModelError, match=r"rejected the request \(400: This model's maximum context length "
                           r"is 200 tokens.*does not fit the model's context: .*--n_ctx"):  # fmt: skip
            ask(selector(small), "hello")
        (refused, again) = [r["response_format"]["type"] for r in small.chat_requests]
    # The json_schema refusal (500) comes first, then the JSON-mode call that does not fit; no retry of a 400.
    assert (refused, again) == ("json_schema", "json_object")


def test_an_answer_cut_at_max_tokens_is_a_failed_run_with_what_was_said() -> None:
    long_reason = answer("send_slack_message", {"channel": "#ops", "text": "hi"}, reason="because " * 80)
    with FakeOpenAI(like_llama_cpp=True, handler=lambda _request: long_reason) as wordy:
        (run,) = ask(selector(wordy, max_tokens=40), "post hi to #ops")
        sent = wordy.chat_requests[-1]
    assert run.tool == "" and "cut at max_tokens" in (run.error or "")
    # What the model said up to the cut is kept: the start of the answer it was writing.
    written = long_reason.body["choices"][0]["message"]["content"]
    assert run.raw == written[: 40 * 4] and len(written) > 40 * 4
    usage = run.usage or {}
    assert usage["completion_tokens"] == 40 and usage["prompt_tokens"] == prompt_tokens(sent)


def test_one_request_at_a_time_makes_queued_calls_time_out_and_the_audit_fail_loudly() -> None:
    slow = Reply(body=answer(NO_TOOL).body, delay=0.4)
    with FakeOpenAI(like_llama_cpp=True, handler=lambda _request: slow) as serial:
        started = time.monotonic()
        with pytest.raises(LiveModelError, match=r"gave no answer within 0\.6s"):
            ask(selector(serial, concurrency=4, timeout_s=0.6, max_retries=1), "one", "two", "three", "four")
        waited = time.monotonic() - started
    # Four calls of 0.4 s each in one queue: the third and fourth wait past 0.6 s, however many threads ask.
    assert waited >= 0.6


def test_the_same_calls_one_at_a_time_each_finish_inside_their_timeout() -> None:
    slow = Reply(body=answer(NO_TOOL).body, delay=0.2)
    with FakeOpenAI(like_llama_cpp=True, handler=lambda _request: slow) as serial:
        runs = ask(selector(serial, concurrency=1, timeout_s=2.0, max_retries=0), "one", "two", "three")
    assert [r.tool for r in runs] == [NO_TOOL] * 3
    assert all((r.usage or {})["attempts"] == 1 for r in runs)
