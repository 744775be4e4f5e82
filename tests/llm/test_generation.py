"""Model-written cases: phrasings per tool, negatives, and a separate validation call per case."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from app.audit.models import NO_TOOL, CaseFamily, CaseStatus, Provenance, ToolSet
from app.audit.suite.build import build_suite
from app.llm.generation import ModelCaseGenerator
from app.llm.profiles import load_profile
from app.llm.selector import LiveSelector

from .conftest import TOOLS
from .fake_openai import FakeOpenAI, Reply, completion

PROFILE = load_profile()
SLACK, SEARCH = "send_slack_message", "github.search_issues"


def _user(request: dict[str, Any]) -> str:
    return next(m["content"] for m in request["messages"] if m["role"] == "user")


def script(request: dict[str, Any]) -> Reply:
    """Generation and validation answers decided from the prompt, like a model that reads it."""
    system, user = request["messages"][0]["content"], _user(request)
    if system == PROFILE.generation_system:
        match = re.search(r'the tool "([^"]+)"', user)
        if match:
            tool = match.group(1)
            return completion(json.dumps({"requests": [f"explicit {tool}", f"indirect {tool}", f"explicit {tool}"]}))
        return completion(json.dumps({"requests": ["Write a poem about rain", "What's 2+2?"]}))
    assert system == PROFILE.validation_system
    listing, intent = user.split("User request:\n")
    visible = {t["name"] for t in json.loads(listing.removeprefix("Tools:\n"))}
    named = intent.split(" ", 1)[-1]
    if intent == f"indirect {SEARCH}":
        said, confidence = SLACK, 0.8  # the validator disagrees
    elif intent == f"indirect {SLACK}":
        said, confidence = SLACK, 0.5  # agrees, not confident enough
    elif named in visible:
        said, confidence = named, 0.9
    else:
        said, confidence = NO_TOOL, 0.9
    return completion(json.dumps({"expected": said, "confidence": confidence, "reason": "checked"}))


def test_generated_cases_are_validated_and_labeled(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    server.handler = script
    toolset = ToolSet.model_validate({"tools": TOOLS})
    generator = ModelCaseGenerator.for_selector(make_selector())
    cases = {c.id: c for c in generator.generate(toolset, per_tool=2, negatives=True)}
    assert all(c.provenance == Provenance.AI_GENERATED for c in cases.values())
    assert cases[f"gen-{SLACK}-1"].intent == f"explicit {SLACK}"
    assert cases[f"gen-{SLACK}-1"].status == CaseStatus.SCORED and cases[f"gen-{SLACK}-1"].confidence == 0.9
    low = cases[f"gen-{SLACK}-2"]
    assert low.status == CaseStatus.EXPLORATORY and low.confidence == 0.5
    disagree = cases[f"gen-{SEARCH}-2"]
    assert disagree.status == CaseStatus.EXPLORATORY and f"validator expected {SLACK}" in (disagree.note or "")
    near = cases[f"nearmiss-{SEARCH}"]
    assert near.family == CaseFamily.NEAR_MISS and near.removed_tools == (SEARCH,)
    assert near.expected == NO_TOOL and near.intent == f"explicit {SEARCH}" and near.status == CaseStatus.SCORED
    off = [c for c in cases.values() if c.family == CaseFamily.OFF_TOPIC]
    assert [c.intent for c in off] == ["Write a poem about rain", "What's 2+2?"]
    assert all(c.expected == NO_TOOL and c.status == CaseStatus.SCORED for c in off)
    # 3 tools x 2 phrasings + 3 near-misses + 2 off-topic, each validated by its own call.
    assert len(cases) == 11
    generation_calls = [r for r in server.chat_requests if r["messages"][0]["content"] == PROFILE.generation_system]
    validation_calls = [r for r in server.chat_requests if r["messages"][0]["content"] == PROFILE.validation_system]
    assert len(generation_calls) == 4 and len(validation_calls) == 11
    assert all(r["temperature"] == 0 and "tools" not in r for r in server.chat_requests)
    # The near-miss validation saw the tool set without the removed tool.
    listings = [_user(r).split("User request:")[0] for r in validation_calls if _user(r).endswith(f"explicit {SEARCH}")]
    assert len(listings) == 2 and sorted(SEARCH in text for text in listings) == [False, True]
    assert all(SLACK in text for text in listings)


def test_regeneration_on_an_unchanged_tool_set_costs_no_calls(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    server.handler = script
    toolset = ToolSet.model_validate({"tools": TOOLS})
    first = ModelCaseGenerator.for_selector(make_selector()).generate(toolset, per_tool=2, negatives=False)
    calls = len(server.chat_requests)
    second = ModelCaseGenerator.for_selector(make_selector()).generate(toolset, per_tool=2, negatives=False)
    assert len(server.chat_requests) == calls
    assert first == second


def test_unusable_answers_give_no_cases_and_are_reported(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    def broken(request: dict[str, Any]) -> Reply:
        if request["messages"][0]["content"] == PROFILE.generation_system:
            return completion("Sure! Here are some requests: ...")
        return script(request)

    server.handler = broken
    generator = ModelCaseGenerator.for_selector(make_selector())
    cases = generator.generate(ToolSet.model_validate({"tools": TOOLS}), per_tool=2, negatives=True)
    assert cases == []
    assert len(generator.problems) == 4 and "not JSON" in generator.problems[0]


def test_unusable_validation_makes_the_case_exploratory(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    def no_validation(request: dict[str, Any]) -> Reply:
        if request["messages"][0]["content"] == PROFILE.validation_system:
            return completion('{"expected": "x"}')
        return script(request)

    server.handler = no_validation
    generator = ModelCaseGenerator.for_selector(make_selector())
    cases = generator.generate(ToolSet.model_validate({"tools": TOOLS[2:]}), per_tool=1, negatives=False)
    assert len(cases) == 1 and cases[0].status == CaseStatus.EXPLORATORY and cases[0].confidence == 0.0
    assert "validation answer unusable" in (cases[0].note or "")


def test_the_suite_builder_uses_the_model_generator(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    server.handler = script
    toolset = ToolSet.model_validate({"tools": TOOLS})
    generator = ModelCaseGenerator.for_selector(make_selector())
    suite = build_suite([toolset, toolset], intents_per_tool=2, negatives=True, generator=generator)
    assert len(suite.cases) == 11
    assert {c.provenance for c in suite.cases} == {Provenance.AI_GENERATED}
