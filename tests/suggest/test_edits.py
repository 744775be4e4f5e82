"""In-place edits: only the changed string is rewritten, in the file's own quoting; golden files."""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path

import pytest
import yaml

from app.audit.loader import load_definitions
from app.audit.models import LineRange, ToolSet
from app.suggest.edits import apply_edits, line_edit, locate, unified_diff
from app.suggest.models import Suggestion
from app.suggest.optimizer import parameter_field

GOLDEN = Path(__file__).resolve().parent / "golden"
# New texts with what breaks naive quoting: double and single quotes, ': ', ' #', non-ASCII, backslash.
NEW_GET = 'Get an invoice. Use this when the user gives an id: "INV-7" #1 \\ café.'
NEW_LIST = "Lists invoices of a customer, newest first. Returns id, total and status. Do not use it to get invoice."
NEW_FORMAT = "Output format. One of: pdf, html."


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def _suggestions(toolset: ToolSet) -> list[Suggestion]:
    tools = toolset.by_name()
    out = []
    for name, new in (("get_invoice", NEW_GET), ("list_invoices", NEW_LIST)):
        tool = tools[name]
        assert tool.location is not None
        out.append(
            Suggestion(
                tool=name,
                field="description",
                old=tool.description,
                new=new,
                lines=tool.location.description_lines,
                syntax=tool.location.syntax,
                file=tool.location.file,
                accepted=True,
            )
        )
    get = tools["get_invoice"]
    assert get.location is not None
    out.append(
        Suggestion(
            tool="get_invoice",
            field=parameter_field("format"),
            old=get.properties["format"]["description"],
            new=NEW_FORMAT,
            lines=get.location.parameter_description_lines["format"],
            syntax=get.location.syntax,
            accepted=True,
        )
    )
    return out


def _changed_lines(before: str, after: str) -> set[int]:
    """1-based numbers of the lines of `before` that the edit replaced or removed."""
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    return {i + 1 for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal" for i in range(i1, i2)}


@pytest.mark.parametrize("name", ["tools.json", "tools.yaml"])
def test_edits_keep_the_rest_of_the_file_and_match_the_golden_file(name: str) -> None:
    before = (GOLDEN / name).read_text(encoding="utf-8")
    toolset = load_definitions(name, text=before)
    suggestions = _suggestions(toolset)
    edits = [locate(before, s) for s in suggestions]
    assert all(not isinstance(e, str) for e in edits), edits
    after = apply_edits(before, edits)  # type: ignore[arg-type]
    stem, ext = name.rsplit(".", 1)
    _golden(f"{stem}.after.{ext}", after)
    # The file still loads, with exactly the new texts.
    reloaded = load_definitions(name, text=after).by_name()
    assert (reloaded["get_invoice"].description or "").strip() == NEW_GET
    assert (reloaded["list_invoices"].description or "").strip() == NEW_LIST
    assert reloaded["get_invoice"].properties["format"]["description"] == NEW_FORMAT
    assert reloaded["get_invoice"].properties["invoice_id"] == toolset.by_name()["get_invoice"].properties["invoice_id"]
    # Only the lines holding the changed strings differ.
    changed = _changed_lines(before, after)
    allowed = {n for s in suggestions if s.lines for n in range(s.lines.start, s.lines.end + 1)}
    assert changed and changed <= allowed
    assert all(any(n in changed for n in range(s.lines.start, s.lines.end + 1)) for s in suggestions if s.lines)


def test_json_keeps_ascii_escapes_where_the_file_used_them() -> None:
    text = '{"tools": [{"name": "a", "description": "caf\\u00e9 time"}]}\n'
    toolset = load_definitions("a.json", text=text)
    tool = toolset.tools[0]
    assert tool.location is not None
    s = Suggestion(tool="a", field="description", old=tool.description, new="café time. Use this.",
                   lines=tool.location.description_lines, syntax="json")
    edit = locate(text, s)
    assert not isinstance(edit, str)
    after = apply_edits(text, [edit])
    assert "caf\\u00e9 time. Use this." in after
    assert json.loads(after)["tools"][0]["description"] == "café time. Use this."


def test_yaml_styles_are_kept_plain_single_double_literal_folded() -> None:
    before = (GOLDEN / "tools.yaml").read_text(encoding="utf-8")
    toolset = load_definitions("tools.yaml", text=before)
    tools = toolset.by_name()
    cases = {
        "refund_invoice": ("Refunds a paid invoice in full. Use this for refunds.", "description: >-"),
        "list_invoices": ("Lists invoices.\nReturns id, total and status.", "description: |"),
    }
    for name, (new, header) in cases.items():
        tool = tools[name]
        assert tool.location is not None
        s = Suggestion(tool=name, field="description", old=tool.description, new=new,
                       lines=tool.location.description_lines, syntax="yaml")
        edit = locate(before, s)
        assert not isinstance(edit, str)
        le = line_edit(before, edit)
        assert le.lines[0].strip() == header
        after = apply_edits(before, [edit])
        assert yaml.safe_load(after)["tools"][[t["name"] for t in yaml.safe_load(after)["tools"]].index(name)][
            "description"
        ].strip() == new.strip()


def test_python_plain_literals_are_edited_in_their_quote_style() -> None:
    before = (GOLDEN / "tools_source.py.txt").read_text(encoding="utf-8")
    s1 = Suggestion(tool="get_invoice", field="description", old="Get an invoice.",
                    new='Get an invoice. Use this when the user says "invoice".', lines=LineRange(start=6, end=6),
                    syntax="python")
    s2 = Suggestion(tool="list_invoices", field="description", old="Lists invoices; it's newest first.",
                    new="Lists invoices; it's newest first. Returns ids.", lines=LineRange(start=9, end=9),
                    syntax="python")
    edits = [locate(before, s1), locate(before, s2)]
    assert all(not isinstance(e, str) for e in edits), edits
    after = apply_edits(before, edits)  # type: ignore[arg-type]
    _golden("tools_source.after.py.txt", after)
    compile(after, "tools.py", "exec")
    assert "'Lists invoices; it\\'s newest first. Returns ids.'" in after


def test_text_that_is_not_one_literal_is_skipped_with_a_reason() -> None:
    text = 'T = Tool(name="a", description="Get " + "an invoice.")\n'
    s = Suggestion(tool="a", field="description", old="Get an invoice.", new="Get an invoice. Use this.",
                   lines=LineRange(start=1, end=1), syntax="python")
    assert "plain string literal" in str(locate(text, s))
    moved = Suggestion(tool="a", field="description", old="Something else", new="x", lines=LineRange(start=1, end=1),
                       syntax="json")
    assert "not found" in str(locate('{"description": "Get"}', moved))
    missing = Suggestion(tool="a", field=parameter_field("x"), old=None, new="x", syntax="json")
    assert "adding a key" in str(locate("{}", missing))


def test_line_edit_gives_whole_lines_for_a_suggestion_block() -> None:
    before = (GOLDEN / "tools.json").read_text(encoding="utf-8")
    toolset = load_definitions("tools.json", text=before)
    [s, *_] = _suggestions(toolset)
    edit = locate(before, s)
    assert not isinstance(edit, str)
    le = line_edit(before, edit)
    assert le.start == le.end == s.lines.start  # type: ignore[union-attr]
    original = before.splitlines()[le.start - 1]
    assert le.lines[0].startswith(original[: original.index('"description"')])
    assert le.lines[0].endswith(",")
    diff = unified_diff("tools.json", before, apply_edits(before, [edit]))
    assert diff.startswith("--- a/tools.json\n+++ b/tools.json\n")


def test_json_edits_the_description_value_when_the_same_text_is_also_the_title() -> None:
    text = '{"tools": [{"name": "a", "description": "Get it.", "title": "Get it.", "inputSchema": {}}]}\n'
    tool = load_definitions("a.json", text=text).tools[0]
    assert tool.location is not None
    s = Suggestion(tool="a", field="description", old="Get it.", new="Get it. Use this.",
                   lines=tool.location.description_lines, syntax="json")
    edit = locate(text, s)
    assert not isinstance(edit, str)
    data = json.loads(apply_edits(text, [edit]))["tools"][0]
    assert data["description"] == "Get it. Use this." and data["title"] == "Get it."
