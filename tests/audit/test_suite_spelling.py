"""Requests are written in words spelled right: a typo a pull request fixes or makes is not copied into the suite."""

from __future__ import annotations

import json

from app.audit.loader import load_definitions
from app.audit.models import ToolSet
from app.audit.suite.build import build_suite
from app.audit.suite.spelling import as_written


def toolset(tickets: str, *, extra: str = "Archive a project and its tickets.") -> ToolSet:
    tools = [
        {"name": "list_tickets", "description": tickets, "inputSchema": {"type": "object", "properties": {}}},
        {"name": "archive_project", "description": extra, "inputSchema": {"type": "object", "properties": {}}},
        {"name": "rename_project", "description": "Rename a project.", "inputSchema": {"type": "object"}},
    ]
    return load_definitions("tools.json", text=json.dumps({"tools": tools}))


def test_a_typo_the_head_fixes_is_written_as_fixed_on_both_sides() -> None:
    base = toolset("List the open tickets of a porject, newest first.")
    head = toolset("List the open tickets of a project, newest first.")
    written_base, written_head = as_written([base, head])
    assert written_base.by_name()["list_tickets"].description == "List the open tickets of a project, newest first."
    assert written_head is head
    assert base.by_name()["list_tickets"].description.endswith("porject, newest first.")  # audited as it is


def test_a_typo_the_head_makes_is_written_as_the_base_spells_it() -> None:
    base = toolset("List the open tickets of a project.")
    head = toolset("List the open tickets of a project. Closed tickets are left out of the reuslts.")
    assert as_written([base, head]) == [base, head]  # "reuslts" has no counterpart on the other side
    head = toolset("List the open tickets of a porject.")
    written_base, written_head = as_written([base, head])
    assert written_base is base
    assert written_head.by_name()["list_tickets"].description == "List the open tickets of a project."


def test_two_spellings_as_common_as_each_other_are_left_alone() -> None:
    base = toolset("Show the tickets in the qeueu.", extra="Archive a project.")
    head = toolset("Show the tickets in the queeu.", extra="Archive a project.")
    assert as_written([base, head]) == [base, head]


def test_words_that_differ_by_more_than_a_typo_are_other_words() -> None:
    base = toolset("List the open tickets of a project.")
    head = toolset("List the closed tickets of a project.")
    assert as_written([base, head]) == [base, head]
    assert as_written([base]) == [base]


def test_no_generated_request_carries_the_typo_the_change_fixes() -> None:
    base = toolset("List the open tickets of a porject, newest first.")
    head = toolset("List the open tickets of a project, newest first.")
    suite = build_suite([base, head])
    assert suite.cases
    assert not [c.intent for c in suite.cases if "porject" in c.intent.lower()]
    assert [c.intent for c in suite.cases if "project" in c.intent.lower() and c.expected == "list_tickets"]
