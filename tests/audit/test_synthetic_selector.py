"""The synthetic selector: ranking, abstention, usage boundaries, argument filling, determinism, profile."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.audit.loader import load_definitions
from app.audit.models import NO_TOOL, Mode
from app.audit.selection import SelectionRequest
from app.audit.synthetic.analysis import analyse_tool
from app.audit.synthetic.arguments import fill_arguments
from app.audit.synthetic.selector import SyntheticSelector
from app.audit.synthetic.values import find_values
from app.errors import InputError
from app.resources import selectors_dir
from app.selector_factory import synthetic_selector
from tests.conftest import shared_path


def tool(name: str, description: str, properties: dict[str, Any] | None = None, required: list[str] | None = None):
    schema: dict[str, Any] = {"type": "object", "properties": properties or {}}
    if required:
        schema["required"] = required
    return {"name": name, "description": description, "inputSchema": schema}


WEATHER = tool(
    "get_weather_forecast",
    "Get the weather forecast (temperature, rain, wind) for a city.",
    {"city": {"type": "string", "description": "City name"}, "days": {"type": "integer"}},
    ["city"],
)
EMAIL = tool(
    "send_email",
    "Send an email message to a recipient.",
    {"to": {"type": "string", "description": "Recipient email address"}, "subject": {"type": "string"}},
    ["to", "subject"],
)
TOOLS = [WEATHER, EMAIL]


@pytest.fixture(scope="module")
def selector() -> SyntheticSelector:
    return synthetic_selector()


def test_info_names_mode_profile_hash_and_weights(selector: SyntheticSelector) -> None:
    info = selector.info
    assert info.mode == Mode.SYNTHETIC
    assert info.name == "synthetic"
    assert len(info.profile_hash) == 64
    assert info.settings["decision"]["threshold"] == selector.profile.decision.threshold


def test_no_tools_gives_no_tool(selector: SyntheticSelector) -> None:
    sel = selector.select([], "What's the weather in Paris?")
    assert sel.tool == NO_TOOL
    assert sel.arguments == {}
    assert 0.0 <= sel.confidence <= 1.0


def test_picks_the_tool_whose_words_the_request_uses(selector: SyntheticSelector) -> None:
    sel = selector.select(TOOLS, "What's the weather forecast in Paris for the next 3 days?")
    assert sel.tool == "get_weather_forecast"
    assert sel.arguments == {"city": "Paris", "days": 3}
    assert "weather" in sel.reason
    assert 0.5 < sel.confidence <= 1.0


def test_abstains_when_nothing_fits(selector: SyntheticSelector) -> None:
    for intent in ("Tell me a joke about penguins", "Who painted the Mona Lisa?", "hello"):
        assert selector.select(TOOLS, intent).tool == NO_TOOL, intent


def test_abstains_on_a_weak_partial_match(selector: SyntheticSelector) -> None:
    # One generic shared word ("message") among many others is not enough to call a tool.
    sel = selector.select(TOOLS, "Explain the hidden message of Kafka's novel The Trial in plain words")
    assert sel.tool == NO_TOOL
    assert "below the threshold" in sel.reason


def test_another_form_of_a_word_matches(selector: SyntheticSelector) -> None:
    finder = tool("get_discoverer", "Name the discoverer of a scientific element.", {"element": {"type": "string"}})
    assert selector.select([finder], "Who discovered the element Radium?").tool == "get_discoverer"


def test_boundary_sentence_is_rewarded(selector: SyntheticSelector) -> None:
    plain = tool("search_archive", "Search records. Covers invoices and receipts.")
    bounded = tool("search_archive", "Search records. Use this when the user asks about invoices.")
    # The same tool, "invoices" in a usage-boundary sentence or not: the boundary raises the decision score.
    # (Between two tools, a closer meaning can outrank a boundary sentence since the sentence embedding.)
    bounded_score = selector.decision_score([bounded], "search the invoices")
    plain_score = selector.decision_score([plain], "search the invoices")
    assert bounded_score is not None and plain_score is not None and bounded_score > plain_score
    sel = selector.select([bounded], "search the invoices")
    assert sel.tool == "search_archive"
    assert "usage boundary" in sel.reason


def test_exclusion_clause_penalises_the_tool(selector: SyntheticSelector) -> None:
    by_name = tool(
        "find_files",
        "Find files by name pattern. Do not use for searching text inside file contents.",
        {"pattern": {"type": "string"}},
        ["pattern"],
    )
    grep = tool("grep_text", "Search text in files.", {"pattern": {"type": "string"}}, ["pattern"])
    intent = "search the text inside file contents for 'TODO'"
    assert selector.select([by_name, grep], intent).tool == "grep_text"
    # Alone, the excluded tool scores lower than the same tool without its exclusion clause.
    without = dict(by_name, description="Find files by name pattern.")
    with_clause = selector.decision_score([by_name], intent)
    no_clause = selector.decision_score([without], intent)
    assert with_clause is not None and no_clause is not None
    assert with_clause < no_clause


def test_a_tool_whose_verb_is_another_kind_of_action_ranks_lower(selector: SyntheticSelector) -> None:
    reserve = tool("reserve_hotel", "Reserve a hotel room in a city.", {"city": {"type": "string"}}, ["city"])
    search = tool("search_hotels", "Search hotel rooms in a city.", {"city": {"type": "string"}}, ["city"])
    assert selector.select([reserve, search], "find a hotel room in Lisbon").tool == "search_hotels"
    assert selector.select([reserve, search], "book a hotel room in Lisbon").tool == "reserve_hotel"


def test_exclusion_words_are_not_evidence_for_the_tool() -> None:
    profile = synthetic_selector().profile
    doc = analyse_tool(tool("find_files", "Find files by name. Not for searching file contents."), profile)
    assert "content" in doc.exclusion_terms
    assert "content" not in doc.terms
    assert "fil" in doc.terms  # words before the negation still describe the tool


def test_ties_break_by_position_and_answers_are_byte_identical() -> None:
    a = tool("alpha_lookup", "Show the customer record of a company.")
    b = tool("beta_lookup", "Show the customer record of a company.")
    intent = "show the customer record of the company ACME"
    first = synthetic_selector().select([a, b], intent)
    again = synthetic_selector().select([copy.deepcopy(a), copy.deepcopy(b)], intent)
    # Two identical tools leave no margin, so the answer may be NO_TOOL; the best candidate is the first.
    assert first.tool in ("alpha_lookup", NO_TOOL)
    assert "alpha_lookup" in first.reason and "beta_lookup" not in first.reason
    assert first.model_dump_json() == again.model_dump_json()


def test_select_many_keeps_order_and_matches_select(selector: SyntheticSelector) -> None:
    intents = ["Send an email to bo@example.com with subject 'Hi'", "weather in Oslo", "sing a song"]
    answers = selector.select_many([SelectionRequest(tools=TOOLS, intent=i) for i in intents])
    assert [a.tool for a in answers] == ["send_email", "get_weather_forecast", NO_TOOL]
    assert answers == [selector.select(TOOLS, i) for i in intents]


ARG_TOOL = tool(
    "list_directory",
    "List files in a directory.",
    {
        "path": {"type": "string", "description": "Directory path"},
        "max_entries": {"type": "integer", "description": "Maximum number of entries"},
        "min_size_mb": {"type": "number", "description": "Minimum size in MB"},
        "recursive": {"type": "boolean"},
        "format": {"type": "string", "enum": ["json", "text"]},
        "owner": {"type": "string", "description": "Owner email"},
    },
    ["path"],
)


def _fill(tool_dict: dict[str, Any], intent: str) -> dict[str, Any]:
    profile = synthetic_selector().profile
    return fill_arguments(analyse_tool(tool_dict, profile).params, intent, find_values(intent)).arguments


def test_arguments_are_filled_from_request_values_with_schema_types() -> None:
    args = _fill(ARG_TOOL, "List /var/log recursively as json, max entries 20, min size 1.5 MB, owner ops@example.com")
    assert args == {
        "path": "/var/log",
        "max_entries": 20,
        "min_size_mb": 1.5,
        "recursive": True,
        "format": "json",
        "owner": "ops@example.com",
    }
    assert isinstance(args["max_entries"], int)


def test_negated_flag_and_no_invented_keys() -> None:
    args = _fill(ARG_TOOL, "List /tmp without recursive descent")
    assert args["recursive"] is False
    assert set(args) <= set(ARG_TOOL["inputSchema"]["properties"])
    assert "format" not in args  # an optional enum the request does not name stays out


def test_integer_parameter_does_not_take_a_fraction() -> None:
    args = _fill(ARG_TOOL, "List /srv with max entries 2.5")
    assert "max_entries" not in args


def test_urls_dates_owner_name_and_quoted_strings() -> None:
    t = tool(
        "open_pull_request",
        "Open a pull request.",
        {
            "repo": {"type": "string", "description": "owner/name"},
            "title": {"type": "string"},
            "due_date": {"type": "string", "description": "Date as YYYY-MM-DD"},
            "link": {"type": "string"},
        },
        ["repo", "title"],
    )
    args = _fill(t, "Open a PR in acme/rocket titled 'Fix launch' due March 5th, 2024, see https://ex.com/a?b=1.")
    assert args == {
        "repo": "acme/rocket",
        "title": "Fix launch",
        "due_date": "2024-03-05",
        "link": "https://ex.com/a?b=1",
    }


def test_word_numbers_lists_and_date_time_formats_from_descriptions() -> None:
    t = tool(
        "book_train",
        "Book train seats.",
        {
            "adults": {"type": "integer", "description": "Number of adults"},
            "date": {"type": "string", "description": "Travel date, MM/DD/YYYY"},
            "departure_time": {"type": "string", "description": "Departure time in 24-hour HH:MM"},
            "seat_numbers": {"type": "array", "items": {"type": "integer"}},
        },
        ["adults", "date", "departure_time", "seat_numbers"],
    )
    args = _fill(t, "Book two adults on April 23, 2023 leaving at 3:30 pm, seats [12, 14]")
    assert args == {"adults": 2, "date": "04/23/2023", "departure_time": "15:30", "seat_numbers": [12, 14]}


def test_names_go_to_the_parameter_their_words_name() -> None:
    t = tool(
        "find_movies",
        "Find movies.",
        {"directed_by": {"type": "string"}, "cast": {"type": "string"}, "genre": {"type": "string"}},
    )
    args = _fill(t, "Find a movie directed by Guillermo del Toro that features Emma Watson in the cast")
    assert args == {"directed_by": "Guillermo del Toro", "cast": "Emma Watson"}


def test_identifiers_dotted_dates_and_true_false_string_enums() -> None:
    t = tool(
        "find_events",
        "Find events.",
        {
            "user_id": {"type": "string", "description": "The user's unique identifier"},
            "date": {"type": "string", "description": "Date as YYYY-MM-DD"},
            "free_entry": {"type": "string", "enum": ["True", "False", "dontcare"]},
        },
        ["user_id"],
    )
    args = _fill(t, "Events on 2023.10.2 for user ID AB123 with free entry")
    assert args == {"user_id": "AB123", "date": "2023-10-02", "free_entry": "True"}
    assert _fill(t, "Events for user 77 without free entry")["free_entry"] == "False"


def test_a_required_number_without_a_value_takes_the_described_default() -> None:
    t = tool(
        "list_logs",
        "List access logs.",
        {"page_size": {"type": "integer", "description": "Entries per page. Defaults to 100."}},
        ["page_size"],
    )
    assert _fill(t, "list the access logs") == {"page_size": 100}
    assert _fill(t, "list the access logs, ninety per page") == {"page_size": 90}


def test_required_parameters_take_values_first() -> None:
    t = tool(
        "transfer",
        "Transfer money.",
        {"note": {"type": "string"}, "amount": {"type": "number"}, "count": {"type": "integer"}},
        ["amount"],
    )
    args = _fill(t, "transfer 250")
    assert args == {"amount": 250}


def test_cache_reuses_the_index_for_an_equal_tool_list(selector: SyntheticSelector) -> None:
    first = selector._cache.index_for(copy.deepcopy(TOOLS))
    assert selector._cache.index_for(copy.deepcopy(TOOLS)) is first
    assert selector._cache.index_for([WEATHER]) is not first


def test_a_near_miss_list_answers_as_a_fresh_selector_would() -> None:
    tools = [tool(f"{verb}_{noun}", f"{verb.capitalize()} a {noun} of the account.") for verb in ("get", "delete")
             for noun in ("invoice", "order", "refund", "ticket")]  # fmt: skip
    cached = synthetic_selector()
    cached.select(tools, "warm the cache")
    for removed in range(len(tools)):
        near_miss = [t for i, t in enumerate(tools) if i != removed]
        for intent in ("delete the refund of the account", "show the invoice"):
            fresh = synthetic_selector().select(near_miss, intent)
            assert cached.select(near_miss, intent) == fresh, (removed, intent)
    assert any(index.remap is not None for index in cached._cache._sets.values())


def test_a_list_changed_in_place_is_indexed_again(selector: SyntheticSelector) -> None:
    tools = [WEATHER]
    assert selector.select(tools, "send an email to bo@example.com with subject 'Hi'").tool == NO_TOOL
    tools.append(EMAIL)
    assert selector.select(tools, "send an email to bo@example.com with subject 'Hi'").tool == "send_email"


def test_index_cache_is_bounded(tmp_path: Path) -> None:
    data = yaml.safe_load((selectors_dir() / "synthetic.yml").read_text())
    data["cache"] = {"tool_sets": 2, "tools": 3}
    path = tmp_path / "small-cache.yml"
    path.write_text(yaml.safe_dump(data))
    sel = synthetic_selector(path)
    for i in range(5):
        sel.select([tool(f"t{i}", f"Tool number {i} does thing{i}.")], f"do thing{i}")
    assert len(sel._cache._sets) == 2
    assert len(sel._cache._tools) == 3


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: d.update(surprise=1), "Additional properties"),
        (lambda d: d["decision"].update(threshold="high"), "decision/threshold"),
        (lambda d: d["bm25"].pop("k1"), "bm25"),
    ],
)
def test_invalid_profile_names_file_and_problem(tmp_path: Path, change: Any, problem: str) -> None:
    data = yaml.safe_load((selectors_dir() / "synthetic.yml").read_text())
    change(data)
    path = tmp_path / "bad.yml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(InputError) as err:
        synthetic_selector(path)
    assert str(path) in str(err.value)
    assert problem in str(err.value)


def test_profile_that_is_not_yaml_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.yml"
    path.write_text("version: 1\nname: [unclosed\n")
    with pytest.raises(InputError, match=r"broken\.yml:\d+: .*not valid YAML"):
        synthetic_selector(path)


def test_malformed_tools_and_requests_do_not_break_selection(selector: SyntheticSelector) -> None:
    weird = [
        {"name": "x", "description": None, "inputSchema": None},
        {"name": "y", "description": ["not", "text"], "inputSchema": {"properties": [1, 2]}},
        {
            "name": "set_mode",
            "description": "Set the mode",
            "inputSchema": {
                "type": "object",
                "properties": {"mode": {"enum": [1, None, "fast"]}, "n": {"type": ["integer", "null"]}},
                "required": ["mode", "n", 5],
            },
        },
    ]
    for intent in ("", "   ", "ok " * 3000):
        assert selector.select(weird, intent).tool == NO_TOOL
    sel = selector.select(weird, "set the mode to fast with 3 workers")
    assert sel.tool == "set_mode"
    assert sel.arguments == {"mode": "fast", "n": 3}


def test_value_finding_stays_linear_on_long_requests() -> None:
    # Thousands of dates or names once made the overlap checks quadratic; this must stay quick and exact.
    found = find_values("2023-01-01 and " * 3000 + "Bob went to Paris. " * 3000)
    assert len(found.dates) == 3000
    assert len(found.propers) == 3001  # every "Paris", and the one "Bob" that does not open a sentence


def test_profile_hash_follows_the_weights(tmp_path: Path) -> None:
    data = yaml.safe_load((selectors_dir() / "synthetic.yml").read_text())
    same = tmp_path / "same.yml"
    same.write_text(yaml.safe_dump(data))
    data["decision"]["threshold"] += 0.5
    changed = tmp_path / "changed.yml"
    changed.write_text(yaml.safe_dump(data))
    default = synthetic_selector().info.profile_hash
    assert synthetic_selector(same).info.profile_hash == default
    assert synthetic_selector(changed).info.profile_hash != default


def test_selectors_folder_is_data_only() -> None:
    assert not list(selectors_dir().glob("*.py"))


def test_a_long_run_of_near_miss_lists_keeps_deriving_from_the_full_index(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.audit.synthetic import cache as heuristic_cache

    built: list[int] = []
    real_build = heuristic_cache.build_index

    def counting_build(docs: list[Any]) -> Any:
        built.append(len(docs))
        return real_build(docs)

    monkeypatch.setattr(heuristic_cache, "build_index", counting_build)
    tools = [
        {"name": f"tool_{i}", "description": f"Handles record {i} of kind {i % 7}.", "inputSchema": {"type": "object"}}
        for i in range(120)
    ]
    selector = synthetic_selector()
    selector.select(tools, "handle a record")
    # More near-miss lists than the cache holds (64): the full list's index must stay cached.
    for removed in range(100):
        selector.select([t for i, t in enumerate(tools) if i != removed], "handle a record")
    assert built == [120]


def test_a_time_zone_is_not_an_owner_and_repository() -> None:
    """'America/New_York' names an IANA zone: no repository parameter is missing for it."""
    found = find_values("Show me the current time in America/New_York and the issues of acme/webshop.")
    assert found.owner_names == ["acme/webshop"]


def test_a_relative_file_path_is_one_path() -> None:
    """'config/settings.yaml' is a path in full: not 'settings.yaml' with 'config' left over as a request word."""
    found = find_values("Create the file config/settings.yaml in acme/webshop.")
    assert found.paths == ["config/settings.yaml"]
    assert found.owner_names == ["acme/webshop"]
    assert "config" in found.value_words


def test_a_word_inside_a_value_is_data_and_gets_no_synonyms() -> None:
    """On github-mcp-server after a real change to search_issues (pair f3cb662c, head), 'Search issues for
    "invoice export" in acme/billing-api.' reached ui_get's 'Fetch' through the quoted 'export' and its synonym
    group (download, save, fetch). A word written only inside a value matches as written; said as the request's
    own word it still has its synonyms."""
    path = shared_path("corpora", "pairs", "github__github-mcp-server__github__f3cb662c__head.json")
    toolset = load_definitions(path.name, text=path.read_text(encoding="utf-8"))
    tools = [t.model_dump(exclude_none=True, by_alias=True) for t in toolset.tools]
    selector = synthetic_selector()
    quoted = selector.select(tools, 'Search issues for "invoice export" in acme/billing-api.')
    assert quoted.tool != "ui_get" and "export" not in quoted.reason, quoted.reason
    # Nor does the repository's name ("billing-api" is no API): the changed tool keeps its request.
    assert quoted.tool == "search_issues", quoted.reason
    report = [tool("fetch_report", "Fetch the monthly sales report.")]
    said = selector.select(report, "Export the monthly sales report.")
    assert said.tool == "fetch_report" and "'export'" in said.reason, said.reason


def test_the_words_of_an_owner_name_string_are_no_evidence_for_a_tool() -> None:
    """'acme/billing-api' says which repository, in words its owner chose: its 'api' does not make a tool about
    APIs the answer to a request about issues."""
    repo = {"type": "string", "description": "Repository as owner/name"}
    tools = [
        tool("search_issues", "Search issues in a repository by text.", {"query": {"type": "string"}, "repo": repo}),
        tool("search_api_docs", "Search the API reference for billing.", {"q": {"type": "string"}}),
    ]
    picked = synthetic_selector().select(tools, 'Search issues for "invoice export" in acme/billing-api.')
    assert picked.tool == "search_issues", picked.reason
    assert "billing" not in picked.reason and "'api'" not in picked.reason, picked.reason
