"""Successors of removed tools (app/audit/successors/): found in order, judged on head, shown, configured.

The tool sets are our own (tests/fixtures/successors/: a calendar merge, a bookmark split, a forecast rename)
or written inline here; the playwright pair of ../shared is checked where the corpus is present.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.audit.engine import audit_pair
from app.audit.loader import load_definitions
from app.audit.models import ToolSet
from app.audit.successors import SuccessorRule, choose_targets, find_successors
from app.config import load_config
from app.errors import ConfigError
from app.render.markdown import render_comparison
from app.selector_factory import synthetic_selector
from tests.conftest import SHARED

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "successors"


def fixture(name: str) -> tuple[ToolSet, ToolSet]:
    return tuple(  # type: ignore[return-value]
        load_definitions(f"{name}_{side}.json", text=(FIXTURES / f"{name}_{side}.json").read_text())
        for side in ("base", "head")
    )


def tools(*items: dict[str, Any]) -> ToolSet:
    return load_definitions("inline.json", text=json.dumps({"tools": list(items)}))


def tool(name: str, description: str, **props: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {"type": "object", "properties": props}}


STABLE = [
    tool("get_weather", "Returns today's weather for a city.", city={"type": "string"}),
    tool("send_message", "Sends a chat message to a colleague.", to={"type": "string"}, text={"type": "string"}),
    tool("search_docs", "Searches the team's documents by keywords.", query={"type": "string"}),
]


def labels(base: ToolSet, head: ToolSet, configured: dict[str, SuccessorRule] | None = None) -> dict[str, str]:
    return {s.removed: f"{s.label()} [{s.how}]" for s in find_successors(base, head, configured)}


def test_a_merge_into_one_tool_with_an_action_enum_maps_each_removed_tool_to_its_member() -> None:
    base, head = fixture("merge")
    assert labels(base, head) == {
        "calendar_create_event": "calendar_events (action: create) [action]",
        "calendar_delete_event": "calendar_events (action: delete) [action]",
        "calendar_list_events": "calendar_events (action: list) [action]",
    }


def test_a_member_spelling_the_old_name_and_a_paraphrased_verb_both_count() -> None:
    base = tools(
        *STABLE,
        tool("list_invoices", "Lists invoices.", year={"type": "integer"}),
        tool("invoice_remove_line", "Removes a line from an invoice.", line={"type": "integer"}),
    )
    method = {"type": "string", "enum": ["list_invoices", "get_invoice"]}
    action = {"type": "string", "enum": ["add", "delete"]}
    head = tools(
        *STABLE,
        tool("billing_read", "Reads billing data.", method=method),
        tool("invoice_lines", "Adds or deletes invoice lines.", action=action, line={"type": "integer"}),
    )
    assert labels(base, head) == {
        "invoice_remove_line": "invoice_lines (action: delete) [action]",
        "list_invoices": "billing_read (method: list_invoices) [action]",
    }


def test_a_word_every_kept_tool_shares_does_not_make_a_successor() -> None:
    # browser_close closes the browser: the new tool's `close` closes a tab, and "browser" tells nothing apart.
    kept = [tool(f"browser_{verb}", f"{verb} in the page.") for verb in ("click", "type", "hover", "drag")]
    base = tools(*kept, tool("browser_close", "Closes the browser."), tool("browser_tab_close", "Closes a tab."))
    head = tools(*kept, tool("browser_tabs", "Manages tabs.", action={"type": "string", "enum": ["list", "close"]}))
    assert labels(base, head) == {"browser_tab_close": "browser_tabs (action: close) [action]"}


def test_two_removed_tools_naming_one_member_equally_get_neither() -> None:
    base = tools(*STABLE, tool("note_delete", "Deletes a note."), tool("note_remove", "Removes a note."))
    head = tools(*STABLE, tool("notes", "Manages notes.", action={"type": "string", "enum": ["delete", "list"]}))
    found = labels(base, head)
    assert "note_delete" in found and "note_remove" not in found  # the literal word wins over the paraphrase


def test_an_unchanged_definition_under_a_new_name_is_a_rename_and_shown_as_one() -> None:
    base, head = fixture("rename")
    assert labels(base, head) == {"fetch_forecast": "get_forecast [renamed]"}
    comparison = audit_pair(base, head, selector=synthetic_selector())
    changes = {(c.change, c.tool, c.renamed_from) for c in comparison.tool_changes}
    assert changes == {("renamed", "get_forecast", "fetch_forecast")}
    moved = [r for r in comparison.head.runs if r.successor_of == "fetch_forecast"]
    assert moved and all(r.expected == "get_forecast" for r in moved)
    assert not [d for d in comparison.coverage if d.expected == "fetch_forecast"]


def test_a_split_sends_each_request_to_the_new_tool_that_fits_it() -> None:
    base, head = fixture("split")
    (split,) = find_successors(base, head)
    assert split.removed == "manage_bookmark" and [t.tool for t in split.targets] == ["add_bookmark", "remove_bookmark"]
    by_name = head.by_name()
    assert [t.tool for t in choose_targets(split, "Delete my bookmark of the recipe page.", by_name)] == [
        "remove_bookmark"
    ]
    assert [t.tool for t in choose_targets(split, "Bookmark this article for later; add it.", by_name)] == [
        "add_bookmark"
    ]


def test_a_removed_tool_unlike_every_new_one_has_no_successor() -> None:
    base = tools(*STABLE, tool("send_fax", "Sends a fax to a phone number.", number={"type": "string"}))
    head = tools(*STABLE, tool("translate_text", "Translates text into another language.", text={"type": "string"}))
    assert labels(base, head) == {}


def test_a_lightly_reworded_tool_under_a_new_name_is_matched_with_its_confidence() -> None:
    props = {"city": {"type": "string"}, "days": {"type": "integer"}}
    base = tools(*STABLE, tool("forecast", "Returns the weather forecast for the coming days in a city.", **props))
    head = tools(*STABLE, tool("city_forecast", "Returns the forecast of the coming days for one city.", **props))
    (found,) = find_successors(base, head)
    assert found.targets[0].tool == "city_forecast" and found.how == "matched" and 0.7 <= found.confidence < 1


def test_merge_cases_are_judged_against_the_successor_and_its_action() -> None:
    base, head = fixture("merge")
    comparison = audit_pair(base, head, selector=synthetic_selector())
    moved = [r for r in comparison.head.runs if r.successor_of]
    assert {r.successor_of for r in moved} == {"calendar_create_event", "calendar_delete_event", "calendar_list_events"}
    assert all(r.expected == "calendar_events" for r in moved)
    for run in moved:
        wanted = run.successor_of.split("_")[1]  # type: ignore[union-attr]
        if run.passed:
            assert run.selected == "calendar_events" and run.arguments.get("action") == wanted
    summaries = {t.tool: t for t in comparison.tool_summaries if t.change == "removed"}
    assert all(t.ran_after is not None and t.successor for t in summaries.values())
    assert not [d for d in comparison.coverage if d.expected in summaries and d.kind == "coverage_removed"]


def test_a_successor_reached_with_the_wrong_action_is_a_regression() -> None:
    base, head = fixture("merge")
    wrong = {
        "calendar_delete_event": SuccessorRule(tool="calendar_events", arguments={"action": "list"}),
        "calendar_list_events": SuccessorRule(tool="calendar_events", arguments={"action": "delete"}),
    }
    right = audit_pair(base, head, selector=synthetic_selector())
    swapped = audit_pair(base, head, selector=synthetic_selector(), successors=wrong)
    lost = [d for d in swapped.regressions if d.expected in wrong]
    assert lost and all(d.successor and "calendar_events" in d.successor for d in lost)
    assert "not calendar_events (action:" in next(r.why for r in swapped.head.runs if r.case_id == lost[0].case_id)
    assert swapped.head.scores.selection_accuracy < right.head.scores.selection_accuracy
    assert len(swapped.regressions) > len(right.regressions)


def test_config_successors_are_read_with_their_lines_and_bad_entries_name_them() -> None:
    base, head = fixture("merge")
    text = (
        "mode: synthetic\n"
        "successors:\n"
        "  calendar_list_events: calendar_events\n"
        "  calendar_delete_event: {tool: calendar_events, arguments: {action: remove}}\n"
    )
    config = load_config(".github/toolchoice.yml", text=text)
    rules = config.successor_rules()
    assert rules["calendar_list_events"].tool == "calendar_events" and rules["calendar_list_events"].line == 3
    with pytest.raises(ConfigError) as bad_value:
        find_successors(base, head, rules)
    assert (bad_value.value.file, bad_value.value.line) == (".github/toolchoice.yml", 4)
    assert "'remove' is not a value of calendar_events's parameter action" in str(bad_value.value)
    for entry, problem in (
        ("calendar_list_events: calendar_event", "'calendar_event' is not a tool of the head side"),
        ("calendar_list_events: {tool: calendar_events, arguments: {mode: x}}", "has no parameter 'mode'"),
        ("calendar_lst_events: calendar_events", "no tool of either side is named 'calendar_lst_events'"),
    ):
        rules = load_config("c.yml", text=f"successors:\n  {entry}\n").successor_rules()
        with pytest.raises(ConfigError, match=problem) as err:
            find_successors(base, head, rules)
        assert err.value.line == 2


def test_an_entry_for_a_tool_this_change_keeps_is_left_for_another_pull_request() -> None:
    base, head = fixture("rename")
    rules = load_config("c.yml", text="successors:\n  get_weather: no_such_tool\n").successor_rules()
    assert [s.removed for s in find_successors(base, head, rules)] == ["fetch_forecast"]


def test_the_comment_shows_the_successor_in_the_changed_tools_and_the_regressions() -> None:
    base, head = fixture("merge")
    wrong = {"calendar_list_events": SuccessorRule(tool="calendar_events", arguments={"action": "delete"})}
    body = render_comparison(audit_pair(base, head, selector=synthetic_selector(), successors=wrong))
    assert "removed → `calendar_events (action: create)` (an argument value names it, confidence 0.95)" in body
    assert "removed → `calendar_events (action: delete)` (from the config)" in body
    assert "`calendar_list_events` → `calendar_events (action: delete)`" in body


PLAYWRIGHT = SHARED / "corpora" / "pairs" / "microsoft__playwright-mcp__playwright__2521a67b"


def test_the_playwright_tab_merge_judges_the_17_tab_requests_against_browser_tabs() -> None:
    if not Path(f"{PLAYWRIGHT}__base.json").exists():
        pytest.skip(f"{PLAYWRIGHT}__base.json is absent: the shared corpora are not next to this checkout")
    base, head = (load_definitions(s, text=Path(f"{PLAYWRIGHT}__{s}.json").read_text()) for s in ("base", "head"))
    comparison = audit_pair(base, head, selector=synthetic_selector())
    found = {s.removed: s.label() for s in comparison.head.successors}
    assert found == {f"browser_tab_{a}": f"browser_tabs (action: {a})" for a in ("close", "list", "new", "select")}
    scored = {c.id for c in comparison.head.cases if c.scored and c.expected.startswith("browser_tab_")}
    moved = [r for r in comparison.head.runs if r.successor_of and r.case_id in scored]
    assert len(moved) == 17 and all(r.expected == "browser_tabs" for r in moved)
    for run in moved:
        assert run.passed == (run.selected == "browser_tabs" and run.arguments.get("action") == run.successor_of[12:])


def test_the_live_plan_asks_a_removed_tools_cases_on_both_sides_when_it_has_a_successor() -> None:
    from app.audit.live_plan import PlanOptions, build_plan
    from app.audit.suite.build import build_suite

    base, head = fixture("merge")
    suite = build_suite([base, head])
    found, back = find_successors(base, head), find_successors(head, base)
    ids = {c.id for c in suite.cases if c.scored and c.expected == "calendar_delete_event" and not c.removed_tools}
    with_successors = build_plan(suite, base, head, ranks=[{}, {}], options=PlanOptions(), successors=(back, found))
    without = build_plan(suite, base, head, ranks=[{}, {}], options=PlanOptions())
    assert ids and {c.calls for c in with_successors.cases if c.case_id in ids} == {2}
    assert {c.calls for c in without.cases if c.case_id in ids} == {1}


def _string(description: str = "") -> dict[str, Any]:
    return {"type": "string", "description": description} if description else {"type": "string"}


def test_values_listed_one_per_line_in_the_parameter_description_count_as_an_enum() -> None:
    mode = _string("What to do.\nChoices:\n 1. scale - multiply the amounts\n 2. convert - change units")
    scale, convert = tool("recipe_scale", "Scales a recipe."), tool("recipe_convert", "Converts a recipe's units.")
    base = tools(*STABLE, scale, convert)
    head = tools(*STABLE, tool("recipe_tools", "Works on recipes.", mode=mode))
    assert labels(base, head) == {
        "recipe_convert": "recipe_tools (mode: convert) [action]",
        "recipe_scale": "recipe_tools (mode: scale) [action]",
    }


def test_values_quoted_after_the_parameter_name_in_the_tool_description_count_as_an_enum() -> None:
    docstring = "Handles plant records.\n\nArgs:\n    op: One of: ``water``, ``prune``.\n    plant_id: The plant."
    base = tools(*STABLE, tool("water_plant", "Waters a plant."), tool("prune_plant", "Prunes a plant."))
    head = tools(*STABLE, tool("plant_care", docstring, op=_string(), plant_id=_string()))
    assert labels(base, head) == {
        "prune_plant": "plant_care (op: prune) [action]",
        "water_plant": "plant_care (op: water) [action]",
    }


def test_a_consolidated_tool_that_shipped_earlier_is_the_successor_when_the_old_tools_go() -> None:
    method = {"type": "string", "enum": ["list_invoices", "get_invoice"]}
    billing = tool("billing_read", "Reads billing data.", method=method)
    base = tools(*STABLE, billing, tool("list_invoices", "Lists invoices."), tool("get_invoice", "Gets an invoice."))
    head = tools(*STABLE, billing)
    assert labels(base, head) == {
        "get_invoice": "billing_read (method: get_invoice) [action]",
        "list_invoices": "billing_read (method: list_invoices) [action]",
    }


def test_the_rest_of_the_old_name_may_be_said_in_the_new_tool_description_at_a_lower_confidence() -> None:
    action = {"type": "string", "enum": ["nearest", "route"]}
    base = tools(*STABLE, tool("find_nearest_station", "Finds the nearest station."))
    said = "Find stations: the nearest one, or a route between two."
    head = tools(*STABLE, tool("station_search", said, action=action))
    (found,) = find_successors(base, head)
    assert found.label() == "station_search (action: nearest)" and found.confidence == 0.85


def test_two_removed_tools_reach_one_new_tool_by_the_values_their_names_say() -> None:
    props = {"path": {"type": "string"}, "recursive": {"type": "boolean"}, "tags": {"type": "array"}}
    kind = {"type": "string", "enum": ["file", "folder"]}
    base = tools(
        *STABLE,
        tool("import_file", "Imports a document file into the archive with tags.", **props),
        tool("import_folder", "Imports every document file of a folder into the archive with tags.", **props),
    )
    said = "Imports a document file or a folder into the archive."
    head = tools(*STABLE, tool("archive_import", said, kind=kind, **props))
    found = {s.removed: s.label() for s in find_successors(base, head)}
    assert found == {"import_file": "archive_import (kind: file)", "import_folder": "archive_import (kind: folder)"}


def test_removed_tools_alike_to_one_new_tool_without_values_all_match_it() -> None:
    props = {"path": {"type": "string"}, "tags": {"type": "array"}, "chunk_size": {"type": "integer"}}
    base = tools(
        *STABLE,
        tool("ingest_pdf", "Ingests a PDF document into the archive, split in chunks, with tags.", **props),
        tool("ingest_markdown", "Ingests a Markdown document into the archive, split in chunks, with tags.", **props),
    )
    said = "Ingests a PDF or Markdown document into the archive in chunks."
    head = tools(*STABLE, tool("archive_ingest", said, **props))
    found = {s.removed: (s.label(), s.how) for s in find_successors(base, head)}
    assert found == {"ingest_markdown": ("archive_ingest", "matched"), "ingest_pdf": ("archive_ingest", "matched")}


class _Keyword:
    """A stand-in model (mode live_model): calls calendar_events with the action its request names."""

    @property
    def info(self) -> Any:
        from app.audit.models import Mode
        from app.audit.results import SelectorInfo

        return SelectorInfo(mode=Mode.LIVE_MODEL, name="keyword", profile_hash="k" * 12)

    def select_many(self, requests: Any) -> list[Any]:
        from app.audit.results import Selection

        out = []
        for req in requests:
            names = {t["name"] for t in req.tools}
            text = req.intent.lower()
            action = next((a for a, w in (("delete", "delet"), ("create", "creat"), ("list", "list")) if w in text), "")
            if "calendar_events" in names and action:
                out.append(Selection(tool="calendar_events", arguments={"action": action}, confidence=0.9))
            else:
                out.append(Selection(tool="NO_TOOL", confidence=0.9))
        return out


def test_a_live_review_plans_and_judges_the_removed_tools_cases_against_the_successor() -> None:
    base, head = fixture("merge")
    comparison = audit_pair(base, head, selector=_Keyword())
    moved = [r for r in comparison.head.runs if r.successor_of]
    assert moved and all(r.expected == "calendar_events" for r in moved)
    assert comparison.head.totals.get("live_plan"), "a live_model review runs by a plan"
    for run in moved:
        assert run.passed == (run.arguments.get("action") == run.successor_of.split("_")[1])  # type: ignore[union-attr]
