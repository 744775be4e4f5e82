"""Why the synthetic selector abstained: the reason names what was missing, and a failed run shows it."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from app.audit.models import NO_TOOL, Case, Provenance
from app.audit.results import Selection
from app.audit.selection import judge
from app.audit.synthetic.decision import Evidence
from app.audit.synthetic.explain import abstention_reason
from app.audit.synthetic.selector import SyntheticSelector
from app.selector_factory import synthetic_selector


def tool(name: str, description: str, properties: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {"type": "object", "properties": properties or {}}}


TICKETS = tool("get_ticket", "Fetch one support ticket by its id.", {"ticket_id": {"type": "string"}})
AGENTS = tool("list_agents", "List the support agents of the team.")


@pytest.fixture(scope="module")
def selector() -> SyntheticSelector:
    return synthetic_selector()


def test_the_reason_names_words_no_tool_covers_and_the_threshold(selector: SyntheticSelector) -> None:
    sel = selector.select([TICKETS, AGENTS], "Refund the invoice of my support plan and cancel the subscription")
    assert sel.tool == NO_TOOL
    assert '"refund"' in sel.reason and '"invoice"' in sel.reason
    assert "no tool covers" in sel.reason
    threshold = selector.profile.decision.threshold
    assert f"below the threshold {threshold:.2f}" in sel.reason
    assert 'matched "support"' in sel.reason


def test_the_reason_tells_words_other_tools_have_from_words_none_has() -> None:
    evidence = Evidence(**{f.name: 0.0 for f in fields(Evidence)} | {"required_filled": 0.0, "action_conflict": 1.0})
    text = abstention_reason(
        "get_ticket", nowhere=["payroll"], not_in_tool=["team", "agents"], matched=["ticket"],
        evidence=evidence, score=0.5, threshold=1.56,
    )  # fmt: skip
    assert text.startswith('no tool covers "payroll"; get_ticket lacks "team", "agents"; ')
    assert "another kind of action" in text and "required values" in text
    assert text.endswith('best tool get_ticket scored 0.50, below the threshold 1.56 (matched "ticket")')
    many = abstention_reason("t", nowhere=list("abcdef"), not_in_tool=[], matched=[], evidence=evidence,
                             score=0.0, threshold=1.0)  # fmt: skip
    assert '"d" and 2 more' in many


def test_no_shared_word_names_the_request_words(selector: SyntheticSelector) -> None:
    sel = selector.select([TICKETS, AGENTS], "Bake sourdough bread")
    assert sel.tool == NO_TOOL
    assert sel.reason.startswith("no tool covers any word of the request")
    assert '"bake"' in sel.reason and '"sourdough"' in sel.reason


def test_words_inside_values_need_not_be_covered(selector: SyntheticSelector) -> None:
    sel = selector.select([TICKETS, AGENTS], "Fetch support ticket zq-7781-blorp")
    assert sel.tool == "get_ticket"
    assert sel.arguments == {"ticket_id": "zq-7781-blorp"}


def test_a_failed_run_shows_the_selectors_reason() -> None:
    case = Case(id="c-1", intent="Refund the invoice", expected="get_ticket", provenance=Provenance.HUMAN_FIXTURE)
    reason = 'no tool covers "refund"; best tool get_ticket scored 0.10, below the threshold 1.56'
    run = judge(case, Selection(tool=NO_TOOL, reason=reason), None)
    assert not run.passed
    assert run.why == f"abstained (NO_TOOL): {reason}"
    bare = judge(case, Selection(tool=NO_TOOL), None)
    assert bare.why == "expected get_ticket but abstained"
