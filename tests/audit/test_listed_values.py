"""Choices a string parameter lists in prose (app/audit/listed_values.py), and the synthetic filler using them."""

from __future__ import annotations

from typing import Any

from app.audit.listed_values import listed_inline, listed_per_line, prose_values
from app.audit.selection import SelectionRequest
from app.selector_factory import synthetic_selector


def test_values_one_per_line_numbered_bulleted_or_quoted() -> None:
    text = "Which view to open.\nOptions:\n 1. board - the cards\n 2. `timeline`: the dates\n- 'table' - rows"
    assert listed_per_line(text) == ["board", "timeline", "table"]
    assert listed_per_line("Only one:\n 1. board - the cards") == []


def test_a_quoted_list_after_the_parameter_name_ends_at_the_first_word_that_is_not_a_separator() -> None:
    docstring = "Args:\n    mode: One of: ``fast``, ``safe`` or ``thorough``. Use ``safe``.\n    depth: levels."
    assert listed_inline(docstring, "mode") == ["fast", "safe", "thorough"]
    assert listed_inline("Modes: `fast`, `safe`.", "mode") == ["fast", "safe"]
    assert listed_inline("The `fast` mode or else `safe`.", "mode") == []


def test_an_enum_or_a_non_string_parameter_lists_nothing_in_prose() -> None:
    spec: dict[str, Any] = {"type": "string", "enum": ["a", "b"], "description": "1. a - one\n2. b - two"}
    assert prose_values("mode", spec) == []
    assert prose_values("count", {"type": "integer", "description": "1. one - a\n2. two - b"}) == []
    assert prose_values("mode", {"type": "string"}, "Args:\n  mode: one of `fast`, `safe`.") == ["fast", "safe"]


def test_the_synthetic_selector_fills_a_prose_choice_the_request_names() -> None:
    tool = {
        "name": "garden_log",
        "description": "Keeps the garden log.\n\nArgs:\n    action: One of: ``water``, ``harvest``, ``get``.",
        "inputSchema": {"type": "object", "properties": {"action": {"type": "string"}}, "required": ["action"]},
    }
    other = {"name": "get_weather", "description": "Returns the weather for a city.", "inputSchema": {"type": "object"}}
    requests = [
        "Log that I watered the garden log today.",
        "Harvest entry for the garden log, please.",
        "Show the garden log.",
    ]
    answers = synthetic_selector().select_many([SelectionRequest(tools=[tool, other], intent=r) for r in requests])
    assert [a.arguments.get("action") for a in answers] == ["water", "harvest", "get"]
