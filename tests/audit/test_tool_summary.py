"""Per changed tool: scored cases, passes before → after, confusions, new findings; and which new findings
sit on the pull request's own lines (the check run's annotations)."""

from __future__ import annotations

from app.audit.engine import audit_pair
from app.audit.models import Dimension, Finding, Severity
from app.audit.results import Selection
from app.audit.tool_summary import findings_on_changed_tools
from tests.audit.helpers import ScriptedSelector, case, tool, toolset


def _comparison():
    base = toolset(tool("send_email", "Sends an email to a person."), tool("read_file", "Reads a file from disk."))
    head = toolset(tool("send_email", "Sends."), tool("read_file", "Reads a file from disk."), tool("post_chat", ""))
    cases = [case(f"m{i}", f"mail bob {i}", "send_email") for i in range(3)]
    cases += [case("r1", "read notes.txt", "read_file"), case("p1", "post in chat", "post_chat")]

    def answer(names: list[str], intent: str, fresh: bool) -> Selection:
        on_head = "post_chat" in names
        if "mail" in intent:
            # On head two of the three mail requests go to read_file.
            return Selection(tool="read_file" if on_head and not intent.endswith("0") else "send_email")
        if "chat" in intent:
            return Selection(tool="post_chat" if on_head else "NO_TOOL")
        return Selection(tool="read_file")

    return audit_pair(
        base, head, selector=ScriptedSelector(answer), user_cases=cases, intents_per_tool=0, negatives=False
    )


def test_each_changed_tool_gets_its_cases_passes_and_confusions() -> None:
    c = _comparison()
    by_tool = {t.tool: t for t in c.tool_summaries}
    assert set(by_tool) == {"send_email", "post_chat"}  # read_file did not change
    mail = by_tool["send_email"]
    assert (mail.scored_cases, mail.ran_before, mail.passed_before, mail.ran_after, mail.passed_after) == (
        3,
        3,
        3,
        3,
        1,
    )
    assert mail.confused_with == ["read_file"] and mail.fields == ["description"]
    chat = by_tool["post_chat"]
    assert chat.change == "added" and (chat.ran_before, chat.passed_before) == (None, None)
    assert (chat.ran_after, chat.passed_after) == (1, 1)
    assert chat.new_findings == sum(1 for f in c.findings_introduced if f.tool == "post_chat") > 0


def test_annotations_only_for_new_findings_on_changed_tools() -> None:
    c = _comparison()
    # A new finding on an unchanged tool (as a pair rule can give when its neighbour changes).
    elsewhere = Finding(
        rule_id="TC302",
        severity=Severity.INFO,
        dimension=Dimension.DISTINGUISHABILITY,
        message="overlap",
        tool="read_file",
        other_tool="send_email",
        file="t.json",
        line=3,
    )
    c = c.model_copy(update={"findings_introduced": [*c.findings_introduced, elsewhere]})
    on_changed = findings_on_changed_tools(c)
    assert elsewhere not in on_changed
    assert on_changed and all(f.tool in {"send_email", "post_chat"} for f in on_changed)
    assert set(on_changed) == {f for f in c.findings_introduced if f.tool in {"send_email", "post_chat"}}
