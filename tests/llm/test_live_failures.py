"""Infrastructure failures: retried where it makes sense, then the audit fails loudly (LiveModelError)."""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest

from app.audit.models import NO_TOOL
from app.audit.selection import SelectionRequest
from app.errors import LiveModelError, SelectorError
from app.llm.factory import build_live_selector
from app.llm.selector import LiveSelector

from .conftest import TOOLS, fast_profile
from .fake_openai import MODEL, FakeOpenAI, Reply, answer, error


def one(selector: LiveSelector, intent: str = "hello") -> list:
    return selector.select_many([SelectionRequest(tools=TOOLS, intent=intent)])


def test_429_with_retry_after_waits_as_asked_then_succeeds(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    server.script.append(error(429, "Rate limit reached", headers={"Retry-After": "3"}))
    server.script.append(answer(NO_TOOL))
    selector = make_selector()
    waits: list[float] = []
    selector.chat.sleep = waits.append
    (sel,) = one(selector)
    assert sel.tool == NO_TOOL
    assert waits == [3.0]
    assert (sel.usage or {})["attempts"] == 2
    assert len(server.chat_requests) == 2


def test_retry_after_ms_and_backoff_without_header(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    server.script.extend(
        [error(429, "slow down", headers={"retry-after-ms": "250"}), error(503, "overloaded"), answer(NO_TOOL)]
    )
    selector = make_selector(backoff_s=0.5, max_retries=3)
    waits: list[float] = []
    selector.chat.sleep = waits.append
    one(selector)
    assert waits == [0.25, 1.0]  # the header's 250 ms, then backoff 0.5 x 2^(2-1)


def test_retry_after_beyond_the_allowed_wait_fails_at_once(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    server.script.append(error(429, "quota", headers={"Retry-After": "3600"}))
    with pytest.raises(LiveModelError, match="asks to wait 3600s"):
        one(make_selector())
    assert len(server.chat_requests) == 1


def test_500_is_retried_then_fails_with_the_reason(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    server.script.extend([error(500, "internal boom")] * 3)
    with pytest.raises(LiveModelError, match=r"failing with 500 after 3 attempts \(internal boom\)"):
        one(make_selector(max_retries=2))
    assert len(server.chat_requests) == 3


def test_500_then_success_is_one_run(server: FakeOpenAI, make_selector: Callable[..., LiveSelector]) -> None:
    server.script.extend([error(500, "blip"), answer(NO_TOOL)])
    (sel,) = one(make_selector())
    assert sel.error is None and (sel.usage or {})["attempts"] == 2


def test_429_exhausted_fails(server: FakeOpenAI, make_selector: Callable[..., LiveSelector]) -> None:
    server.script.extend([error(429, "Rate limit reached", headers={"Retry-After": "0"})] * 2)
    with pytest.raises(LiveModelError, match="rate limited after 2 attempts"):
        one(make_selector(max_retries=1))


def test_slow_answer_past_the_timeout_is_retried_then_fails(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    server.script.extend([Reply(delay=1.5, body={})] * 2)
    with pytest.raises(LiveModelError, match=r"no answer within 0.3s \(2 attempts\)"):
        one(make_selector(timeout_s=0.3, max_retries=1))


def test_one_slow_answer_then_a_fast_one_succeeds(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    slow = answer(NO_TOOL)
    slow.delay = 1.5
    server.script.extend([slow, answer(NO_TOOL)])
    (sel,) = one(make_selector(timeout_s=0.3, max_retries=1))
    assert sel.tool == NO_TOOL and (sel.usage or {})["attempts"] == 2


def test_401_fails_at_once_naming_the_key(server: FakeOpenAI, make_selector: Callable[..., LiveSelector]) -> None:
    with pytest.raises(LiveModelError, match=r"refused the API key \(401.*OPENAI_API_KEY"):
        one(make_selector(extra_env={"OPENAI_API_KEY": "wrong"}))
    assert len(server.requests) == 1


def test_model_the_endpoint_does_not_list(server: FakeOpenAI, env: dict[str, str]) -> None:
    selector = build_live_selector(model="gpt-nope", profile=fast_profile(), env=env, concurrency=1)
    with pytest.raises(LiveModelError, match=r"does not serve model 'gpt-nope' \(it serves: fake-model\)"):
        one(selector)
    assert server.chat_requests == []  # found out before a call was spent


def test_model_the_endpoint_does_not_know(env: dict[str, str]) -> None:
    with FakeOpenAI(lists_models=False) as unlisted:
        selector = build_live_selector(
            model="gpt-nope", profile=fast_profile(), env={**env, "OPENAI_BASE_URL": unlisted.url}, concurrency=1
        )
        with pytest.raises(LiveModelError, match=r"does not know model 'gpt-nope' \(404"):
            one(selector)


def test_unreachable_endpoint(env: dict[str, str]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dead = {**env, "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1"}
    selector = build_live_selector(model=MODEL, profile=fast_profile(max_retries=1), env=dead, concurrency=1)
    with pytest.raises(LiveModelError, match=r"cannot reach the model endpoint http://127.0.0.1:\d+/v1 after 2"):
        one(selector)


def test_a_failure_in_a_batch_fails_the_whole_batch(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    server.handler = lambda request: error(401, "revoked")
    reqs = [SelectionRequest(tools=TOOLS, intent=f"q{i}") for i in range(20)]
    with pytest.raises(LiveModelError):
        make_selector(concurrency=4).select_many(reqs)
    assert len(server.chat_requests) < 20  # what had not started was cancelled


@pytest.mark.parametrize(
    ("env_update", "model", "needle"),
    [
        ({"OPENAI_API_KEY": ""}, MODEL, "needs an API key: set OPENAI_API_KEY"),
        ({"TOOLCHOICE_ALLOWED_MODELS": "gpt-a, gpt-b"}, MODEL, "'fake-model' is not allowed by the operator"),
        ({}, None, "needs a model"),
        ({"OPENAI_BASE_URL": "ftp://x"}, MODEL, "must be an http"),
    ],
)
def test_misconfiguration_is_a_selector_error_before_any_call(
    server: FakeOpenAI, env: dict[str, str], env_update: dict[str, str], model: str | None, needle: str
) -> None:
    with pytest.raises(SelectorError, match=needle):
        build_live_selector(model=model, env={**env, **env_update})
    assert server.requests == []


def test_allowed_model_passes(env: dict[str, str]) -> None:
    selector = build_live_selector(model=MODEL, env={**env, "TOOLCHOICE_ALLOWED_MODELS": f"gpt-a,{MODEL}"})
    assert selector.info.name == MODEL


def test_retry_after_as_an_http_date(server: FakeOpenAI, make_selector: Callable[..., LiveSelector]) -> None:
    import email.utils
    import time

    when = email.utils.formatdate(time.time() + 30, usegmt=True)
    server.script.extend([error(503, "maintenance", headers={"Retry-After": when}), answer(NO_TOOL)])
    selector = make_selector()
    waits: list[float] = []
    selector.chat.sleep = waits.append
    one(selector)
    assert len(waits) == 1 and 25 < waits[0] <= 30


@pytest.mark.parametrize("body", ["<html>502 Bad Gateway</html>", '{"object": "error"}', '{"choices": "x"}'])
def test_a_200_that_is_no_chat_completion_fails_loudly(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector], body: str
) -> None:
    server.script.append(Reply(body=body))
    with pytest.raises(LiveModelError, match=r"unusable response|without choices|unexpected shape"):
        one(make_selector())


def test_the_api_key_never_appears_in_the_reason(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    server.api_key = "sk-the-real-one"
    with pytest.raises(LiveModelError) as caught:
        one(make_selector(extra_env={"OPENAI_API_KEY": "sk-leaked-value"}))
    assert "sk-leaked-value" not in str(caught.value)


def test_credentials_in_the_base_url_stay_out_of_reports_and_keys() -> None:
    from app.llm.factory import public_endpoint

    assert public_endpoint("https://user:pw@gw.example:8443/v1/?token=abc#x") == "https://gw.example:8443/v1"
