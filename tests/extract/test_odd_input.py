"""Unusual but parseable code never crashes extraction: what cannot be read becomes TC090 findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.extract import extract_file

ODD = {
    "odd.py": """
from fastmcp import FastMCP
mcp = FastMCP("x")

@mcp.tool(name=)
def broken(): ...
""",
    "odd2.py": """
from fastmcp import FastMCP
from mcp.types import Tool
mcp = FastMCP("x")

@mcp.tool(annotations=ToolAnnotations(**hints), tags=set(TAGS))
async def weird(*args, **kwargs) -> "Unknown[int]":
    '''Odd but valid.'''

@mcp.tool()
@mcp.tool(name="second_name")
def twice(x: "int") -> None:
    '''Registered twice.'''

mcp.add_tool()
mcp.tool(lambda x: x)
Tool(name=f"{prefix}_x", inputSchema=build())
Tool(name="from_dict", inputSchema={**base, "type": "object"})
""",
    "odd.ts": """
server.registerTool("no_config");
server.registerTool();
server.tool();
server.registerTool("spread", { ...base, description: `a ${b}` }, h);
server.registerTool("shape_call", { inputSchema: makeShape() }, h);
server.registerTool("weird_zod", { inputSchema: { a: z.string().min(), b: z.tuple([]), c: z.enum(VALUES) } }, h);
const x = { name: 42, inputSchema: {} };
""",
    "odd.go": """
package odd

var a = mcp.NewTool()
var b = mcp.NewTool("no_options", mcp.WithDescription(), mcp.WithString())
var c = mcp.NewTool("bad_enum", mcp.WithString("p", mcp.Enum(), mcp.Description()))
var d = mcp.Tool{Name: "literal", InputSchema: &jsonschema.Schema{Type: "object", Properties: props}}
var e = []*mcp.Tool{{Name: 1}, {}}
""",
}


@pytest.mark.parametrize("name", sorted(ODD))
def test_odd_input_gives_findings_not_crashes(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(ODD[name])
    tools = extract_file(path, display_name=name)
    assert all(f.rule_id == "TC090" and f.file == name and f.line for f in tools.load_findings)
    assert tools.load_findings, "odd input should be reported"
    for tool in tools.tools:
        assert tool.name and isinstance(tool.input_schema, dict)


def test_what_could_be_read_is_still_listed(tmp_path: Path) -> None:
    path = tmp_path / "odd2.py"
    path.write_text(ODD["odd2.py"])
    tools = extract_file(path)
    assert {"weird", "twice", "second_name"} <= set(tools.names())
    weird = tools.by_name()["weird"]
    assert weird.annotations is None  # `ToolAnnotations(**hints)` is reported, not listed as `{}`
    messages = {f.message for f in tools.load_findings if f.tool == "weird"}
    assert any("passes arguments ToolChoice cannot name" in m for m in messages)
    assert all(f.line >= 5 for f in tools.load_findings if f.tool == "weird")  # the annotation's line, not 1


NOT_MCP = {
    "agent.py": """
from pydantic_ai import Agent
from langchain.tools import Tool

agent = Agent("model")

@agent.tool
def roll_die(ctx) -> str:
    '''Roll a six-sided die.'''
    return "4"

search = Tool(name="search", func=print, description="Search the web")
""",
    "agent.ts": """
import { tool } from "ai";
import { z } from "zod";
const registry = new Registry();
registry.tool("weather", "Weather in a city", { city: z.string() }, async () => "sunny");
export const tools = {
  forecast: tool({ description: "Forecast for a city", parameters: z.object({ city: z.string() }) }),
};
""",
    "agent.go": """
package agent

import "github.com/sashabaranov/go-openai"

var t = openai.NewTool("weather", openai.WithDescription("Weather in a city"))

var u = openai.Tool{Name: "forecast", Description: "Forecast for a city"}
""",
}


@pytest.mark.parametrize("name", sorted(NOT_MCP))
def test_other_frameworks_tools_are_not_mcp_tools(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(NOT_MCP[name])
    tools = extract_file(path, display_name=name)
    assert tools.tools == [] and tools.load_findings == []


def test_a_tools_module_importing_its_server_from_the_project(tmp_path: Path) -> None:
    path = tmp_path / "tools.py"
    path.write_text(
        "from google.cloud import storage\nfrom .server import mcp\n\n\n"
        "@mcp.tool()\ndef list_buckets(project: str) -> list[str]:\n    '''List the buckets of a project.'''\n"
        "    return []\n"
    )
    assert extract_file(path).names() == ["list_buckets"]
