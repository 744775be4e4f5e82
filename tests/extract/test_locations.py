"""Locations point at the source lines that hold a tool's name, description and parameter descriptions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.audit.models import LineRange, Tool
from app.extract import extract_file, extract_paths

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "extract"
SOURCES = sorted(p for p in FIXTURES.rglob("*") if p.suffix in {".py", ".ts", ".js", ".go"})


def _text(path: Path, lines: LineRange) -> str:
    return "\n".join(path.read_text(encoding="utf-8").split("\n")[lines.start - 1: lines.end])


def _words(value: str) -> str:
    """The first words of a text, as they appear in source (before escapes, quotes or line breaks)."""
    first = re.split(r"[\n'\"\\`]", value.strip(), maxsplit=1)[0]
    return " ".join(first.split()[:3])


def _tools(path: Path) -> list[Tool]:
    return extract_file(path, display_name=path.relative_to(FIXTURES).as_posix()).tools


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_lines_hold_the_text_they_claim(path: Path) -> None:
    for tool in _tools(path):
        loc = tool.location
        assert loc is not None and loc.file == path.relative_to(FIXTURES).as_posix()
        assert loc.syntax in {"python", "typescript", "javascript", "go"}
        assert loc.tool_lines and loc.tool_lines.start <= loc.tool_lines.end
        assert loc.name_lines is not None
        name_text = _text(path, loc.name_lines)
        # Mount prefixes (`billing_`, `reports_usage_`) are not in the source; the function's own name is.
        suffixes = [tool.name.split("_", i)[-1] for i in range(tool.name.count("_") + 1)]
        assert any(s in name_text for s in suffixes) or "NoteTools" in name_text, (tool.name, name_text)
        if tool.description and loc.description_lines:
            assert _words(tool.description) in " ".join(_text(path, loc.description_lines).split()), tool.name
        for param, lines in loc.parameter_description_lines.items():
            description = tool.properties[param]["description"]
            assert _words(description) in " ".join(_text(path, lines).split()), (tool.name, param)


def test_python_locations_in_detail() -> None:
    path = FIXTURES / "python" / "fastmcp_server.py"
    tools = {t.name: t for t in _tools(path)}
    get_ticket = tools["get_ticket"].location
    assert get_ticket is not None
    assert _text(path, get_ticket.name_lines).startswith("async def get_ticket(")  # type: ignore[arg-type]
    assert get_ticket.tool_lines.start == get_ticket.name_lines.start - 4  # type: ignore[union-attr]
    docstring = _text(path, get_ticket.description_lines)  # type: ignore[arg-type]
    assert docstring.lstrip().startswith('"""Fetch one ticket') and docstring.rstrip().endswith('"""')
    assert set(get_ticket.parameter_description_lines) == {"ticket_key", "include_comments", "comment_limit"}
    # A description held in a constant points at the constant, where an edit must land.
    search = tools["search"].location
    assert search is not None
    assert _text(path, search.description_lines).strip().startswith('"Search tickets')  # type: ignore[arg-type]
    assert search.description_lines.start < search.tool_lines.start  # type: ignore[union-attr]


def test_typescript_and_go_locations() -> None:
    ts = FIXTURES / "typescript" / "register_tool.ts"
    recipe = {t.name: t for t in _tools(ts)}["get_recipe"].location
    assert recipe is not None and recipe.syntax == "typescript"
    assert _text(ts, recipe.name_lines).startswith('const name = "get_recipe"')  # type: ignore[arg-type]
    assert set(recipe.parameter_description_lines) == {"id", "servings"}
    go = FIXTURES / "go" / "mcpgo" / "boards.go"
    cards = {t.name: t for t in _tools(go)}["list_cards"].location
    assert cards is not None and cards.syntax == "go"
    assert "TOOL_LIST_CARDS_DESCRIPTION" in _text(go, cards.description_lines)  # type: ignore[arg-type]
    assert _text(go, cards.parameter_description_lines["board_id"]).startswith("const boardIDDescription")


def test_mounted_tools_keep_their_own_file() -> None:
    tools = extract_paths([FIXTURES / "python" / "mounted"], root=FIXTURES)
    files = {t.name: t.location.file for t in tools.tools if t.location}
    assert files == {
        "billing_get_invoice": "python/mounted/billing.py",
        "reports_monthly_summary": "python/mounted/reports.py",
        "reports_usage_seats": "python/mounted/reports.py",
    }


def test_one_file_gets_the_namespace_a_nearby_file_mounts_it_with() -> None:
    billing = extract_file(FIXTURES / "python" / "mounted" / "billing.py", display_name="billing.py")
    assert billing.names() == ["billing_get_invoice"]
    assert [f.tool for f in billing.load_findings] == ["billing_get_invoice"]
    reports = extract_file(FIXTURES / "python" / "mounted" / "reports.py")
    assert reports.names() == ["reports_monthly_summary", "reports_usage_seats"]
