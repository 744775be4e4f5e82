"""A before/after suite concentrates on what changed; validation keeps good cases and rejects indefensible ones."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from app.audit.loader import load_definitions
from app.audit.models import NO_TOOL, Case, CaseFamily, Provenance, ToolSet
from app.audit.suite.build import build_suite
from app.audit.suite.targeting import MIN_SCORED_CHANGED, budgets, changed_tools, neighbours
from app.audit.suite.validate import CaseValidator
from tests.conftest import SHARED, shared_path

from .helpers import tool, toolset

REPO = {"type": "string", "description": "Repository as owner/name."}
BASE = toolset(
    tool("list_branches", "Lists the branches of a repository.", repo=REPO),
    tool(
        "create_branch",
        "Creates a new branch in a repository from a base branch.",
        repo=REPO,
        branch={"type": "string"},
    ),
    tool("delete_branch", "Deletes a branch from a repository.", repo=REPO, branch={"type": "string"}),
    tool("get_weather", "Returns the current weather forecast for a city.", city={"type": "string"}),
    tool("send_email", "Sends an email message to one recipient.", to={"type": "string", "format": "email"}),
    tool("read_file", "Reads the complete contents of a text file from disk.", path={"type": "string"}),
)
HEAD = ToolSet(
    tools=[
        t.model_copy(update={"description": "Creates a branch from main or from a given base branch, and returns it."})
        if t.name == "create_branch"
        else t
        for t in BASE.tools
    ],
    sources=["t.json"],
)


def scored_per_tool(cases: list[Case]) -> Counter[str]:
    return Counter(c.expected for c in cases if c.family == CaseFamily.POSITIVE and c.scored)


def test_changed_tools_and_their_neighbours_get_more_requests() -> None:
    assert changed_tools(BASE, HEAD) == ["create_branch"]
    near = neighbours(HEAD, ["create_branch"])["create_branch"]
    assert set(near) <= {"list_branches", "delete_branch"} and near
    plan = budgets(BASE, HEAD, per_tool=5)
    assert plan["create_branch"] == 10 and plan["get_weather"] == 5
    assert all(plan[n] == 7 for n in near)


def test_changed_tool_ends_with_enough_scored_cases() -> None:
    suite = build_suite([BASE, HEAD])
    assert scored_per_tool(suite.cases)["create_branch"] >= MIN_SCORED_CHANGED
    plain = build_suite([BASE])
    assert len(suite.cases) > len(plain.cases)


def test_a_shortfall_is_said_plainly() -> None:
    twin = "Reads the complete contents of a text file from disk."
    base = toolset(tool("read_file", twin, path={"type": "string"}), tool("read_text", twin, path={"type": "string"}))
    head = toolset(
        tool("read_file", twin + " ", path={"type": "string"}), tool("read_text", twin, path={"type": "string"})
    )
    suite = build_suite([base, head])
    assert scored_per_tool(suite.cases)["read_file"] < MIN_SCORED_CHANGED
    assert any(n.startswith("Changed tool read_file has") and "read_text" in n for n in suite.notes)


def test_validator_keeps_clear_cases_and_rejects_wrong_or_coverable_ones() -> None:
    v = CaseValidator(BASE)

    def check(intent: str, expected: str, removed: tuple[str, ...] = ()) -> bool:
        case = Case(id="x", intent=intent, expected=expected, provenance=Provenance.AI_GENERATED, removed_tools=removed)
        return v.validate(case, min_confidence=0.7).scored

    assert check("Get rid of the branch release-2.1 in acme/webshop.", "delete_branch")
    assert not check("Get rid of the branch release-2.1 in acme/webshop.", "create_branch")
    assert check("What's the weather like in Lyon?", "get_weather")
    # With delete_branch removed no tool deletes: NO_TOOL is the answer.
    assert check("Delete the branch release-2.1 in acme/webshop.", NO_TOOL, ("delete_branch",))
    assert check("Tell me a joke about penguins.", NO_TOOL)
    # With get_weather removed a forecast tool still plausibly answers: NO_TOOL is not defensible.
    forecast = tool(
        "get_forecast", "Returns the weather forecast for the next days for a city.", city={"type": "string"}
    )
    v = CaseValidator(toolset(*BASE.tools, forecast))
    assert not check("What's the weather forecast in Lyon?", NO_TOOL, ("get_weather",))


@pytest.mark.corpus
def test_on_real_servers_most_cases_are_scored_and_uncovered_tools_are_explained() -> None:
    servers = sorted((SHARED / "corpora" / "servers").glob("*.json"))
    if not servers:
        shared_path("corpora", "servers")
    generated = scored = 0
    for path in servers:
        ts = load_definitions(path.name, text=Path(path).read_text(encoding="utf-8"))
        suite = build_suite([ts])
        mine = [c for c in suite.cases if c.provenance == Provenance.AI_GENERATED]
        generated += len(mine)
        scored += sum(c.scored for c in mine)
        per_tool = scored_per_tool(suite.cases)
        uncovered = [t.name for t in ts.tools if t.description and not per_tool[t.name]]
        if uncovered:
            count = "1 tool has" if len(uncovered) == 1 else f"{len(uncovered)} tools have"
            assert any(f"{count} no scored case" in n for n in suite.notes), path.name
    assert scored / generated >= 0.5, f"{scored}/{generated}"


# Two chat tools whose first versions say nothing apart ("Post a message." / "Send a message."), then a head
# that scopes them: the base's text defends "post the message" as post_reply, the fuller head's reads it as
# send_message just as much.
CHAT_BASE = toolset(
    tool("send_message", "Send a message.", channel={"type": "string"}, text={"type": "string"}),
    tool("post_reply", "Post a message.", ticket_id={"type": "string"}, text={"type": "string"}),
    tool("get_ticket", "Fetches one helpdesk ticket by its id.", ticket_id={"type": "string"}),
)
CHAT_HEAD = toolset(
    tool(
        "send_message",
        "Sends a chat message to an internal team channel. Do not use it to answer a customer on a ticket.",
        channel={"type": "string"},
        text={"type": "string"},
    ),
    tool(
        "post_reply",
        "Sends a reply to the customer on a ticket; the customer receives it by email.",
        ticket_id={"type": "string"},
        text={"type": "string"},
    ),
    tool("get_ticket", "Fetches one helpdesk ticket by its id.", ticket_id={"type": "string"}),
)


def _generated(cases: list[Case], tool_name: str) -> dict[str, Case]:
    return {c.intent: c for c in cases if c.expected == tool_name and c.family == CaseFamily.POSITIVE}


def test_a_request_the_fuller_version_reads_as_a_rival_is_contested() -> None:
    alone = _generated(build_suite([CHAT_BASE]).cases, "post_reply")
    together = _generated(build_suite([CHAT_BASE, CHAT_HEAD]).cases, "post_reply")
    vague = [i for i, c in alone.items() if c.scored and "ticket" not in i.lower()]
    assert vague, "the base alone should defend some post_reply request that names no ticket"
    for intent in vague:
        case = together[intent]
        assert not case.scored and case.confidence < 0.7
        assert "contested: the fuller version of its text reads it as send_message" in (case.note or "")
    # The head's own requests, which the base cannot place at all, stay scored: nothing contests them.
    assert any(c.scored and "customer" in i.lower() for i, c in together.items())


def test_a_vaguer_head_cannot_hide_its_regressions() -> None:
    # The same change the other way round: the head thins post_reply out. The base's requests are judged by
    # the base's fuller text and stay scored, so the head's failures on them count; the head's vague
    # requests are the contested ones.
    suite = build_suite([CHAT_HEAD, CHAT_BASE])
    from_base = build_suite([CHAT_HEAD]).cases
    kept = {i for i, c in _generated(from_base, "post_reply").items() if c.scored}
    together = _generated(suite.cases, "post_reply")
    assert kept and all(together[i].scored for i in kept)
    assert any("contested" in (c.note or "") for c in together.values())


def test_an_unchanged_tool_is_never_contested() -> None:
    # get_ticket is the same on both sides: a rival's new text that reads its requests as its own would be a
    # regression of that rival's change, so it must stay in the score.
    suite = build_suite([CHAT_BASE, CHAT_HEAD])
    assert not [c for c in _generated(suite.cases, "get_ticket").values() if "contested" in (c.note or "")]
