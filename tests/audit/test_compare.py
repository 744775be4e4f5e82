"""Before/after on the identical suite: regressions first, coverage apart, refusals, flip confirmation."""

from __future__ import annotations

import pytest

from app.audit.compare import check_comparable
from app.audit.engine import audit, audit_pair
from app.audit.models import Mode
from app.audit.results import Selection, SelectorInfo
from app.audit.rules.ruleset import load_rules
from app.audit.suite.build import build_suite
from app.errors import CompareError

from .helpers import ScriptedSelector, by_keyword, case, tool, toolset

BASE = toolset(
    tool("read_file", "Reads a file."),
    tool("send_email", "Sends an email."),
    tool("old_tool", "Does an old thing."),
)
HEAD = toolset(
    tool("read_file", "Reads a text file from disk and returns its contents."),
    tool("send_email", "Sends an email."),
    tool("new_tool", "Does a new thing."),
)
CASES = [
    case("c1", "read the file", "read_file"),
    case("c2", "email bob", "send_email"),
    case("c3", "old thing please", "old_tool"),
    case("c4", "new thing please", "new_tool"),
    case("c5", "tell me a joke", "NO_TOOL"),
]


def pair(selector: ScriptedSelector, **kw: object):
    return audit_pair(BASE, HEAD, selector=selector, user_cases=CASES, intents_per_tool=0, negatives=False, **kw)


def test_regressions_improvements_and_coverage() -> None:
    # On head, "email" requests go to read_file: a regression. "joke" now selects send_email: a regression.
    def answer(names: list[str], intent: str, fresh: bool) -> Selection:
        head = "new_tool" in names
        if "email" in intent:
            return Selection(tool="read_file" if head else "send_email")
        if "file" in intent:
            return Selection(tool="read_file" if head else "NO_TOOL")
        if "joke" in intent:
            return Selection(tool="send_email" if head else "NO_TOOL")
        return Selection(tool="NO_TOOL")

    comparison = pair(ScriptedSelector(answer))
    assert [d.case_id for d in comparison.regressions] == ["c2", "c5"]
    assert [d.case_id for d in comparison.improvements] == ["c1"]
    assert {(d.case_id, d.kind) for d in comparison.coverage} == {("c3", "coverage_removed"), ("c4", "coverage_added")}
    assert comparison.base.suite_hash == comparison.head.suite_hash == comparison.suite_hash
    changes = {(c.tool, c.change) for c in comparison.tool_changes}
    assert changes == {("read_file", "changed"), ("old_tool", "removed"), ("new_tool", "added")}
    assert next(c for c in comparison.tool_changes if c.tool == "read_file").fields == ["description"]
    deltas = comparison.score_deltas
    assert deltas["selection_accuracy"] == pytest.approx(
        comparison.head.scores.selection_accuracy - comparison.base.scores.selection_accuracy
    )


def test_rename_is_detected() -> None:
    base = toolset(tool("fetch_page", "Downloads a web page and returns its text content as markdown."))
    head = toolset(tool("fetch_url", "Downloads a web page and returns its text content as markdown."))
    c = audit_pair(base, head, selector=ScriptedSelector(by_keyword({})), intents_per_tool=0, negatives=False)
    assert [(t.tool, t.change, t.renamed_from) for t in c.tool_changes] == [("fetch_url", "renamed", "fetch_page")]


def test_refuses_different_suites_modes_and_settings() -> None:
    selector = ScriptedSelector(by_keyword({"file": "read_file"}))
    rules = load_rules()
    a = audit(
        BASE,
        suite=build_suite([BASE], user_cases=CASES[:1], intents_per_tool=0, negatives=False),
        selector=selector,
        rules=rules,
    )
    b = audit(
        BASE,
        suite=build_suite([BASE], user_cases=CASES[:2], intents_per_tool=0, negatives=False),
        selector=selector,
        rules=rules,
    )
    with pytest.raises(CompareError, match="different suites"):
        check_comparable(a, b)
    live = a.model_copy(update={"mode": Mode.LIVE_MODEL})
    with pytest.raises(CompareError, match="live_model"):
        check_comparable(a, live)
    other = a.model_copy(
        update={"selector": SelectorInfo(mode=Mode.SYNTHETIC, name="x", profile_hash="q" * 64, settings={})}
    )
    with pytest.raises(CompareError, match="selector settings"):
        check_comparable(a, other)


def test_flips_are_confirmed_by_fresh_repeats() -> None:
    flaky_calls = {"n": 0}

    def answer(names: list[str], intent: str, fresh: bool) -> Selection:
        head = "new_tool" in names
        if "file" in intent:  # stable improvement
            return Selection(tool="read_file" if head else "NO_TOOL")
        if "email" in intent:  # head answer flips between repeats
            if head and fresh:
                flaky_calls["n"] += 1
                return Selection(tool="send_email" if flaky_calls["n"] % 2 else "read_file")
            return Selection(tool="read_file" if head else "send_email")
        return Selection(tool="NO_TOOL")

    selector = ScriptedSelector(answer)
    comparison = pair(selector, repeats=2)
    assert [d.case_id for d in comparison.improvements] == ["c1"]
    assert [d.case_id for d in comparison.unstable] == ["c2"]
    assert comparison.regressions == []
    # 5 cases on 2 sides, minus 2 not runnable, plus 2 flips x 2 repeats x 2 sides.
    assert selector.calls == 8 + 8


def _flips(base: float, head_confidence: float):
    """A scripted selector's answers: c2 regresses and c1 improves, at these confidences on base and head."""

    def pick(names: list[str], intent: str, fresh: bool) -> Selection:
        head = "new_tool" in names
        confidence = head_confidence if head else base
        if "email" in intent:
            return Selection(tool="read_file" if head else "send_email", confidence=confidence)
        if "file" in intent:
            return Selection(tool="read_file" if head else "NO_TOOL", confidence=confidence)
        return Selection(tool="NO_TOOL", confidence=0.9)

    return pick


def test_a_change_decided_by_a_hair_is_marked_a_near_tie() -> None:
    """A synthetic answer with confidence under 0.55 on the head side is a near tie, still counted; a confident one
    is not; a model's own stated confidence never makes a near tie."""

    close = pair(ScriptedSelector(_flips(0.51, 0.51)))
    assert [(d.case_id, d.borderline) for d in close.regressions] == [("c2", True)]
    assert [(d.case_id, d.borderline) for d in close.improvements] == [("c1", True)]
    sure = pair(ScriptedSelector(_flips(0.8, 0.8)))
    assert [d.borderline for d in [*sure.regressions, *sure.improvements]] == [False, False]
    live = ScriptedSelector(_flips(0.51, 0.51))
    live._info = live.info.model_copy(update={"mode": Mode.LIVE_MODEL})
    assert not any(d.borderline for d in pair(live).regressions)


def test_a_pass_by_a_hair_that_becomes_a_firm_failure_is_a_near_tie() -> None:
    """The base's answer counts too: a right answer at 0.51 that the head answers wrong at 0.9 is a near tie, and
    so is the other way round; firm on both sides is not."""

    thin_base = pair(ScriptedSelector(_flips(0.51, 0.9)))
    assert [(d.case_id, d.borderline) for d in thin_base.regressions] == [("c2", True)]
    assert [(d.case_id, d.borderline) for d in thin_base.improvements] == [("c1", True)]
    firm = pair(ScriptedSelector(_flips(0.9, 0.9)))
    assert [d.borderline for d in [*firm.regressions, *firm.improvements]] == [False, False]
