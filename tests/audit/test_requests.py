"""Generated requests read like a person's: sentences, three families, real example values, no template text."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from app.audit.loader import load_definitions
from app.audit.models import CaseFamily, Phrasing, Tool, ToolSet
from app.audit.suite.build import build_suite
from app.audit.suite.phrasing import checked, phrasings
from app.audit.suite.reading import base_verb, read_tool
from app.audit.suite.values import tool_values
from tests.conftest import SHARED, shared_path

from .helpers import tool

# Fragments of the old templates that must never reach a person again.
LEAKS = ("I need something that handles", "Fetches:", "handles fetches", " — sample", "Please please")
SENTENCE = re.compile(r"^[A-Z#/\"'0-9].*[.?!\"]$")
DEMO = Path(__file__).resolve().parents[2] / "app" / "demo"
SERVERS = sorted((SHARED / "corpora" / "servers").glob("*.json"))


def _load(path: Path) -> ToolSet:
    return load_definitions(path.name, text=path.read_text(encoding="utf-8"))


def _assert_readable(intents: list[str]) -> None:
    for intent in intents:
        assert not any(leak in intent for leak in LEAKS), intent
        assert SENTENCE.match(intent), f"not a sentence: {intent!r}"
        assert "{" not in intent and "  " not in intent, intent
        words = intent.lower().split()
        assert all(a != b for a, b in itertools.pairwise(words) if a.isalpha()), intent


def test_demo_requests_are_sentences_without_template_text() -> None:
    base, head = (_load(DEMO / f"{side}.json") for side in ("before", "after"))
    suite = build_suite([base, head])
    generated = [c.intent for c in suite.cases if c.family != CaseFamily.OFF_TOPIC]
    assert len(generated) > 50
    _assert_readable(generated)


@pytest.mark.corpus
def test_requests_on_every_real_server_are_sentences() -> None:
    if not SERVERS:
        shared_path("corpora", "servers")
    intents = [c.intent for path in SERVERS for c in build_suite([_load(path)]).cases]
    assert len(intents) > 2000
    _assert_readable(intents)


def test_description_action_becomes_the_users_imperative_with_a_value() -> None:
    ticket = tool(
        "get_ticket",
        "Fetches one helpdesk ticket by its id, with its full conversation.",
        id={"type": "string", "description": "Ticket id, e.g. `T-1042`."},
    )
    reading = read_tool(ticket)
    assert (reading.verb, reading.verb_class, reading.head) == ("fetch", "read", "helpdesk ticket")
    explicit = [p.text for p in phrasings(ticket) if p.phrasing == Phrasing.EXPLICIT]
    assert explicit[0] == "Fetch the helpdesk ticket T-1042 by its id."


def test_every_tool_gets_three_families() -> None:
    tools = [
        tool("list_branches", "Lists the branches of a repository.", repo={"type": "string"}),
        tool("delete_page", "Permanently deletes a wiki page.", page_id={"type": "string"}),
        tool("send_message", "Sends a chat message to a channel.", channel={"type": "string"}, text={"type": "string"}),
    ]
    for t in tools:
        families = {p.phrasing for p in phrasings(t)}
        assert families == set(Phrasing) - {Phrasing.CONTRASTIVE}, (t.name, families)
    texts = [p.text for p in phrasings(tools[2])]
    assert "Let #release know that the 2.3.0 release is out." in texts
    assert any(p.text.startswith("Permanently delete the wiki page") for p in phrasings(tools[1]))


def test_values_come_from_the_schema_first() -> None:
    t = tool(
        "search_issues",
        "Search issues.",
        status={"type": "string", "enum": ["open", "closed"]},
        query={"type": "string", "examples": ["crash on startup"]},
        since={"type": "string", "format": "date"},
        page={"type": "integer"},
    )
    values = {v.param: (v.text, v.source) for v in tool_values(t, limit=5)}
    assert values["status"] == ("open", "enum") and values["query"] == ("crash on startup", "examples")
    assert values["since"][1] == "format" and "page" not in values
    assert tool_values(t, limit=5, variant=1)[0].text == "closed"


def test_owner_and_repo_are_one_value_and_base_verbs_come_from_lemminflect() -> None:
    t = Tool(
        name="list_tags",
        description="List git tags in a GitHub repository.",
        inputSchema={"type": "object", "properties": {"owner": {"type": "string"}, "repo": {"type": "string"}}},
    )
    assert [v.text for v in tool_values(t)] == ["acme/webshop"]
    assert phrasings(t)[0].text == "List git tags in the GitHub repository acme/webshop."
    assert (base_verb("Retrieves"), base_verb("Applies"), base_verb("Current")) == ("retrieve", "apply", None)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("show the the file", None),
        ("{obj} is missing", None),
        ("hi", None),
        ("list the open issues", "List the open issues."),
        ("is there a update", "Is there an update."),
    ],
)
def test_quality_gate(raw: str, expected: str | None) -> None:
    assert checked(raw) == expected
