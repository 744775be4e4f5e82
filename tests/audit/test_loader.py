"""Reading tool definitions: formats, locations, hashes, and errors that name file, line and tool."""

from __future__ import annotations

import json

import pytest

from app.audit.loader import DUPLICATE_NAME, MISSING_NAME, WRONG_FIELD_TYPE, load_definitions, merge_toolsets
from app.errors import DefinitionError

MCP = """{
  "tools": [
    {
      "name": "read_file",
      "description": "Reads a file.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "path": {"type": "string", "description": "Absolute path."}
        },
        "required": ["path"]
      }
    },
    {"name": "list_dir", "inputSchema": {"type": "object"}}
  ]
}
"""


def test_mcp_tools_list_with_line_locations() -> None:
    toolset = load_definitions("defs/tools.json", text=MCP)
    assert toolset.names() == ["read_file", "list_dir"]
    loc = toolset.tools[0].location
    assert loc is not None and loc.file == "defs/tools.json"
    assert loc.name_lines is not None and loc.name_lines.start == 4
    assert loc.description_lines is not None and loc.description_lines.start == 5
    assert loc.parameter_description_lines["path"].start == 9
    assert loc.tool_lines is not None and (loc.tool_lines.start, loc.tool_lines.end) == (3, 13)
    assert toolset.tools[1].description is None
    assert not toolset.load_findings


def test_yaml_block_description_spans_its_lines() -> None:
    text = (
        "tools:\n  - name: a\n    description: |\n      line one\n      line two\n"
        "    inputSchema:\n      type: object\n"
    )
    tool = load_definitions("t.yaml", text=text).tools[0]
    assert tool.description == "line one\nline two\n"
    assert tool.location is not None and tool.location.syntax == "yaml"
    assert tool.location.description_lines is not None
    assert (tool.location.description_lines.start, tool.location.description_lines.end) == (3, 5)


@pytest.mark.parametrize(
    "item",
    [
        {"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object"}}},
        {"name": "f", "description": "d", "parameters": {"type": "object"}},
        {"name": "f", "description": "d", "input_schema": {"type": "object"}},
        {"name": "f", "description": "d", "inputSchema": {"type": "object"}},
    ],
    ids=["openai-nested", "openai-flat", "anthropic", "mcp"],
)
def test_every_format_gives_the_same_tool(item: dict) -> None:
    tool = load_definitions("x.json", text=json.dumps([item])).tools[0]
    assert tool.definition() == {"name": "f", "description": "d", "inputSchema": {"type": "object"}}


def test_openai_nested_locations_point_inside_function() -> None:
    text = json.dumps(
        [{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object"}}}],
        indent=2,
    )
    tool = load_definitions("x.json", text=text).tools[0]
    assert tool.location is not None and tool.location.name_lines is not None
    assert '"name": "f"' in text.splitlines()[tool.location.name_lines.start - 1]


def test_hash_covers_definition_fields_only() -> None:
    a = load_definitions("a.json", text=MCP).tools[0]
    b = load_definitions("elsewhere/b.json", text="\n\n" + MCP).tools[0]
    assert a.definition_hash() == b.definition_hash()
    changed = a.model_copy(update={"description": "Reads a file from disk."})
    assert changed.definition_hash() != a.definition_hash()
    diff = {k for k, v in changed.field_hashes().items() if a.field_hashes()[k] != v}
    assert diff == {"description"}


def test_invalid_json_names_file_and_line() -> None:
    with pytest.raises(DefinitionError) as err:
        load_definitions("bad.json", text='{"tools": [\n  {"name": "a",}\n]}')
    assert err.value.file == "bad.json" and err.value.line == 2
    assert str(err.value).startswith("bad.json:2: invalid JSON")


def test_invalid_yaml_names_file_and_line() -> None:
    with pytest.raises(DefinitionError) as err:
        load_definitions("bad.yaml", text="tools:\n  - name: a\n   description: [unclosed\n")
    assert err.value.file == "bad.yaml" and err.value.line is not None


def test_missing_and_duplicate_names_are_findings_and_the_rest_is_read() -> None:
    text = json.dumps({"tools": [{"name": "a"}, {"description": "no name"}, {"name": "a"}, {"name": "b"}]}, indent=1)
    toolset = load_definitions("t.json", text=text)
    assert toolset.names() == ["a", "b"]
    rules = sorted(f.rule_id for f in toolset.load_findings)
    assert rules == sorted([MISSING_NAME, DUPLICATE_NAME])
    dup = next(f for f in toolset.load_findings if f.rule_id == DUPLICATE_NAME)
    assert dup.tool == "a" and dup.file == "t.json" and dup.line is not None


def test_wrong_field_types_are_reported_not_fatal() -> None:
    toolset = load_definitions("t.json", text=json.dumps([{"name": "a", "description": 3, "inputSchema": []}]))
    assert toolset.tools[0].description is None and toolset.tools[0].input_schema == {"type": "object"}
    assert {f.rule_id for f in toolset.load_findings} == {WRONG_FIELD_TYPE}


def test_not_tools_at_all() -> None:
    with pytest.raises(DefinitionError, match="no tool definitions found"):
        load_definitions("x.json", text='{"hello": 1}')
    with pytest.raises(DefinitionError, match="empty"):
        load_definitions("x.yaml", text="")


def test_merge_reports_names_defined_in_two_files() -> None:
    a = load_definitions("a.json", text=json.dumps([{"name": "x"}]))
    b = load_definitions("b.json", text=json.dumps([{"name": "x"}, {"name": "y"}]))
    merged = merge_toolsets([a, b])
    assert merged.names() == ["x", "y"]
    assert [f.file for f in merged.load_findings] == ["b.json"]
