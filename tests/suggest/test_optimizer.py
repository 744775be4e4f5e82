"""The optimizer: rewrites that keep the tool and pass their rules, reruns that support them, thieves rejected."""

from __future__ import annotations

import json

import pytest
from conftest import shared_path

from app.audit.loader import load_definitions
from app.audit.models import Suite, ToolSet
from app.audit.rules import evaluate, load_rules
from app.audit.suite.build import build_suite
from app.audit.synthetic.selector import SyntheticSelector
from app.suggest.models import Rewrite, RewriteContext, Suggestion, SuggestionReport
from app.suggest.optimizer import (
    MAX_DESCRIPTION_CHARS,
    SYNTHETIC_OPTIMIZER_NOTE,
    apply_rewrite,
    check_rewrite,
    replaced,
)
from app.suggest.rewrite import SyntheticRewriter, name_phrase
from app.suggest.run import suggest
from app.suggest.verify import measure

# Small and medium real tool sets: every one is rewritten and verified in a few seconds.
SERVERS = [
    "modelcontextprotocol__servers__filesystem.json",
    "modelcontextprotocol__servers__git.json",
    "modelcontextprotocol__servers__memory.json",
    "modelcontextprotocol__servers__slack.json",
    "modelcontextprotocol__servers__google-maps.json",
    "nspady__google-calendar-mcp__google-calendar.json",
]
SLOW_SERVERS = [
    "microsoft__playwright-mcp__playwright.json",
    "mongodb-js__mongodb-mcp-server__mongodb.json",
    "containers__kubernetes-mcp-server__kubernetes.json",
]


def _server(name: str) -> ToolSet:
    path = shared_path("corpora", "servers", name)
    return load_definitions(name, text=path.read_text(encoding="utf-8"))


class Thief:
    """A rewriter that pastes another tool's purpose into get_ticket's description."""

    name = "thief"

    def rewrite(self, context: RewriteContext) -> Rewrite | None:
        if context.tool.name != "get_ticket":
            return None
        stolen = " Use this to search tickets, find tickets about a problem, list open tickets and create a ticket."
        return Rewrite(tool="get_ticket", description=(context.tool.description or "") + stolen)


def _tool_after(toolset: ToolSet, report: SuggestionReport, tool: str) -> ToolSet:
    """The tool set with every suggestion for `tool` applied (description and parameters together)."""
    original = toolset.by_name()[tool]
    mine = [s for s in report.suggestions if s.tool == tool]
    rewrite = Rewrite(
        tool=tool,
        description=next((s.new for s in mine if s.field == "description"), None),
        parameters={s.parameter: s.new for s in mine if s.parameter},
    )
    return replaced(toolset, [apply_rewrite(original, rewrite)])


def _check_offered(toolset: ToolSet, suite: Suite, report: SuggestionReport, selector: SyntheticSelector) -> int:
    rules = load_rules()
    checked = 0
    for tool in sorted({s.tool for s in report.accepted}):
        original = toolset.by_name()[tool]
        after_set = _tool_after(toolset, report, tool)
        after = after_set.by_name()[tool]
        mine = [s for s in report.accepted if s.tool == tool]
        assert after.name == original.name
        assert sorted(after.properties) == sorted(original.properties)
        assert after.required == original.required
        for s in mine:
            assert s.field == "description" or s.parameter in original.properties
            if s.field == "description":
                assert len(s.new) <= MAX_DESCRIPTION_CHARS
                # Every sentence of the original is still there, verbatim.
                assert (original.description or "").strip() in s.new
        failing = {(f.rule_id, f.parameter) for f in evaluate(ToolSet(tools=[after]), rules=rules).findings}
        for s in mine:
            for rule in s.rules:
                assert (rule, s.parameter) not in failing, f"{tool} still fails {rule}"
        # The rerun shows the claimed effect.
        again = measure(after_set, suite=suite, selector=selector, rules=rules, rule_settings=None)
        claimed = mine[0].effect
        assert claimed is not None
        assert again.overall == pytest.approx(claimed.overall_after)
        assert claimed.overall_after >= claimed.overall_before - 1e-9
        assert claimed.own_passed_after >= claimed.own_passed_before
        assert not claimed.stolen
        checked += 1
    return checked


@pytest.mark.corpus
@pytest.mark.parametrize("server", SERVERS)
def test_offered_suggestions_keep_the_tool_pass_their_rules_and_show_the_claimed_effect(
    server: str, selector: SyntheticSelector
) -> None:
    toolset = _server(server)
    suite = build_suite([toolset])
    report = suggest(toolset, suite=suite, selector=selector, limit=8)
    assert SYNTHETIC_OPTIMIZER_NOTE in report.notes
    assert report.suggestions or report.skipped
    _check_offered(toolset, suite, report, selector)


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize("server", SLOW_SERVERS)
def test_larger_servers_too(server: str, selector: SyntheticSelector) -> None:
    toolset = _server(server)
    suite = build_suite([toolset])
    report = suggest(toolset, suite=suite, selector=selector, limit=10)
    _check_offered(toolset, suite, report, selector)


@pytest.mark.corpus
def test_filesystem_gets_accepted_suggestions_with_located_lines(selector: SyntheticSelector) -> None:
    toolset = _server("modelcontextprotocol__servers__filesystem.json")
    report = suggest(toolset, suite=build_suite([toolset]), selector=selector, limit=14)
    assert len(report.accepted) >= 3
    for s in report.accepted:
        loc = toolset.by_name()[s.tool].location
        assert loc is not None and s.lines == loc.description_lines
    assert report.combined is not None
    assert report.combined.overall_after >= report.combined.overall_before


def test_a_rewrite_that_steals_a_siblings_cases_is_rejected(
    demo: tuple[ToolSet, Suite], selector: SyntheticSelector
) -> None:
    toolset, suite = demo
    report = suggest(toolset, suite=suite, selector=selector, rewriter=Thief())
    [s] = report.suggestions
    assert s.tool == "get_ticket" and not s.accepted
    assert s.effect is not None and s.effect.stolen
    # The stolen cases belong to other tools (or NO_TOOL), never to get_ticket itself.
    expected = {c.id: c.expected for c in suite.cases}
    assert all(expected[cid] != "get_ticket" for cid in s.effect.stolen)
    assert "other tools' or NO_TOOL cases newly fail" in s.reason
    assert s.effect.regressed and "REGRESSED" in s.effect.summary()


def test_demo_rewrites_say_when_and_when_not_and_name_real_siblings(
    demo: tuple[ToolSet, Suite], selector: SyntheticSelector
) -> None:
    toolset, suite = demo
    report = suggest(toolset, suite=suite, selector=selector)
    names = set(toolset.names())
    assert report.accepted
    for s in report.suggestions:
        if s.field != "description":
            continue
        assert s.siblings == [] or set(s.siblings) <= names - {s.tool}
        for sibling in s.siblings:
            assert f"(use {sibling} instead)" in s.new
        if "TC103" in s.rules:
            assert "Use this " in s.new
    # Accepted and rejected alike carry their rerun (or the check that stopped them).
    assert all(s.effect is not None or s.reason.startswith("rejected:") for s in report.suggestions)


def test_check_rewrite_refuses_invented_identifiers_lost_facts_and_overlong_text(demo: tuple[ToolSet, Suite]) -> None:
    toolset, _ = demo
    tool = toolset.by_name()["create_ticket"]
    rules = load_rules()
    kwargs = {"tool_names": toolset.names(), "rules": rules, "rule_settings": None}
    base = tool.description or ""
    invented = Rewrite(tool=tool.name, description=base + " Use this with the assign_owner option.")
    assert "assign_owner" in (check_rewrite(tool, invented, **kwargs) or "")
    lost = Rewrite(tool=tool.name, description="Use this to open a thing.")
    assert "drops facts" in (check_rewrite(tool, lost, **kwargs) or "")
    long = Rewrite(tool=tool.name, description=base + " x" * 400)
    assert "characters" in (check_rewrite(tool, long, **kwargs) or "")
    bad_param = Rewrite(tool=tool.name, parameters={"nope": "A value."})
    assert "nope" in (check_rewrite(tool, bad_param, **kwargs) or "")
    targeted = Rewrite(tool=tool.name, description=base + " More words here.", rules=["TC104"])
    assert "TC104" in (check_rewrite(tool, targeted, **kwargs) or "")
    fine = Rewrite(tool=tool.name, description=base + " Use this when the user reports a problem.", rules=["TC103"])
    assert check_rewrite(tool, fine, **kwargs) is None


def test_the_synthetic_rewriter_is_deterministic_and_invents_no_parameters(demo: tuple[ToolSet, Suite]) -> None:
    toolset, _ = demo
    rewriter = SyntheticRewriter(load_rules())
    results = evaluate(toolset, rules=load_rules())
    for tool in toolset.tools:
        context = RewriteContext(
            tool=tool,
            findings=[f for f in results.findings if f.tool == tool.name],
            siblings=[],
            tool_names=toolset.names(),
        )
        first, second = rewriter.rewrite(context), rewriter.rewrite(context)
        assert first == second
        if first is not None:
            assert set(first.parameters) <= set(tool.properties)


def test_suggestion_parameter_property() -> None:
    s = Suggestion(tool="t", field="inputSchema.properties.status.description", old="a", new="b")
    assert s.parameter == "status"
    assert Suggestion(tool="t", field="description", old="a", new="b").parameter is None


@pytest.mark.corpus
def test_accepted_together_are_rerun_together_and_the_combination_holds(selector: SyntheticSelector) -> None:
    toolset = _server("modelcontextprotocol__servers__memory.json")
    suite = build_suite([toolset])
    report = suggest(toolset, suite=suite, selector=selector, limit=9)
    # Some rewrites pass alone but not with the others: they are rejected, saying so.
    assert any("together with the suggestions accepted before it" in s.reason for s in report.rejected)
    assert report.combined is not None
    tools = sorted({s.tool for s in report.accepted})
    together = [_tool_after(toolset, report, tool).by_name()[tool] for tool in tools]
    again = measure(replaced(toolset, together), suite=suite, selector=selector, rules=load_rules(), rule_settings=None)
    assert again.overall == pytest.approx(report.combined.overall_after)
    assert report.combined.overall_after >= report.combined.overall_before
    assert not report.combined.stolen


def test_name_phrases_put_a_trailing_action_verb_first_and_drop_shared_namespaces() -> None:
    verbs = SyntheticRewriter(load_rules())._verbs
    assert name_phrase("note_add", verbs=verbs) == "add note"
    assert name_phrase("sla_report", verbs=verbs) == "sla report"
    assert name_phrase("list_directory_with_sizes", verbs=verbs) == "list directory with sizes"
    assert name_phrase("jira_search", unlike="jira_get_issue", verbs=verbs) == "search"
    assert name_phrase("list_directory_with_sizes", unlike="list_directory", verbs=verbs).startswith("list")


def test_an_overlong_description_is_left_to_its_author(selector: SyntheticSelector) -> None:
    long = "Reads a file from disk and gives its text back to the caller in full. " * 10
    text = json.dumps({"tools": [
        {"name": "read_file", "description": long.strip(), "inputSchema": {"type": "object"}},
        {"name": "write_file", "description": "Write a file.", "inputSchema": {"type": "object"}},
    ]})
    toolset = load_definitions("t.json", text=text)
    report = suggest(toolset, suite=build_suite([toolset]), selector=selector)
    [skip] = [k for k in report.skipped if k.tool == "read_file"]
    assert "TC106" in skip.reason and "shorten it by hand" in skip.reason
    assert all(s.tool != "read_file" for s in report.suggestions)
