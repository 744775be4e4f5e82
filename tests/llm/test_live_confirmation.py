"""Before/after with the live selector: flips are re-asked with fresh calls and claimed only when confirmed."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from app.audit.engine import audit_pair
from app.audit.models import NO_TOOL, Case, Provenance, ToolSet

from .conftest import TOOLS
from .fake_openai import FakeOpenAI, Reply, answer

HEAD_DESCRIPTION = "Send a chat message."
INTENT = "tell the ops channel we are live"


def sides() -> tuple[ToolSet, ToolSet]:
    head = [dict(t) for t in TOOLS]
    head[2]["description"] = HEAD_DESCRIPTION
    return ToolSet.model_validate({"tools": TOOLS}), ToolSet.model_validate({"tools": head})


CASE = Case(id="c1", intent=INTENT, expected="send_slack_message", provenance=Provenance.USER_DEFINED)


def handler(head_answers: Callable[[], str]) -> Callable[[dict[str, Any]], Reply]:
    def reply(request: dict[str, Any]) -> Reply:
        descriptions = {t["function"].get("description") for t in request["tools"]}
        if HEAD_DESCRIPTION in descriptions:
            return answer(head_answers(), {"channel": "#ops", "text": "live"})
        return answer("send_slack_message", {"channel": "#ops", "text": "live"})

    return reply


def run(make_selector: Callable[..., Any]) -> Any:
    base, head = sides()
    selector = make_selector()
    return audit_pair(base, head, selector=selector, user_cases=[CASE], intents_per_tool=0, negatives=False, repeats=2)


def test_a_flip_every_fresh_repeat_confirms_is_a_regression(
    server: FakeOpenAI, make_selector: Callable[..., Any]
) -> None:
    server.handler = handler(lambda: NO_TOOL)
    comparison = run(make_selector)
    assert [d.case_id for d in comparison.regressions] == ["c1"]
    assert comparison.unstable == []
    intents = [r["messages"][-1]["content"] for r in server.chat_requests]
    assert intents.count(INTENT) == 6  # one run per side, then 2 fresh repeats per side


def test_a_flip_the_repeats_contradict_is_unstable(server: FakeOpenAI, make_selector: Callable[..., Any]) -> None:
    answers = itertools.cycle([NO_TOOL, "send_slack_message"])
    server.handler = handler(lambda: next(answers))
    comparison = run(make_selector)
    assert comparison.regressions == []
    assert [d.case_id for d in comparison.unstable] == ["c1"]


def test_confirmation_is_never_served_from_the_cache(server: FakeOpenAI, make_selector: Callable[..., Any]) -> None:
    server.handler = handler(lambda: NO_TOOL)
    run(make_selector)
    first = len(server.chat_requests)
    comparison = run(make_selector)  # same suite, same tools: the two main runs come from the cache
    assert len(server.chat_requests) - first == 4  # only the fresh confirmation repeats
    cached = [r.usage["cached"] for r in (*comparison.base.runs, *comparison.head.runs) if r.usage]
    assert cached == [True, True]
