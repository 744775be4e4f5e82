"""Code followed statically: Go methods of the module's own types building descriptions, and a Python listing
hook's transform applied to every tool (each from a small source written here, never run)."""

from __future__ import annotations

from pathlib import Path

from app.extract import extract_paths

GO_MOD = "module example.com/notes\n\ngo 1.23\n"

GO_METHOD = '''package tools

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type blurb struct {
	summary string
	uses    []string
	links   []string
}

func (b *blurb) Text() string {
	var sb strings.Builder
	sb.WriteString(b.summary)
	if len(b.uses) > 0 {
		sb.WriteString("\\nUse it to:\\n")
		for _, use := range b.uses {
			sb.WriteString(fmt.Sprintf("- %s\\n", use))
		}
	}
	if len(b.links) > 0 {
		sb.WriteString("See also: ")
	}
	return sb.String()
}

func ArchiveNote() *mcp.Tool {
	text := blurb{summary: "Archive a note.", uses: []string{"hide a note", "keep its history"}}
	return &mcp.Tool{Name: "archive_note", Description: text.Text()}
}
'''


def _write(folder: Path, files: dict[str, str]) -> Path:
    for name, body in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(body)
    return folder


def test_a_go_method_building_a_description_with_a_builder_is_followed(tmp_path: Path) -> None:
    folder = _write(tmp_path, {"go.mod": GO_MOD, "tools/notes.go": GO_METHOD})
    tools = extract_paths([folder])
    assert [t.name for t in tools.tools] == ["archive_note"]
    assert tools.tools[0].description == "Archive a note.\nUse it to:\n- hide a note\n- keep its history\n"
    assert not [f for f in tools.load_findings if f.tool == "archive_note"]


def test_a_go_method_ranging_over_a_map_is_a_finding_not_a_guess(tmp_path: Path) -> None:
    source = GO_METHOD.replace("uses    []string", "uses    map[string]string").replace(
        '[]string{"hide a note", "keep its history"}', 'map[string]string{"a": "hide a note", "b": "keep it"}')
    folder = _write(tmp_path, {"go.mod": GO_MOD, "tools/notes.go": source})
    tools = extract_paths([folder])
    assert tools.tools[0].description is None
    finding = next(f for f in tools.load_findings if f.tool == "archive_note")
    assert "ranges over a map" in finding.message and finding.line == 21


SERVER = '''from fastmcp import FastMCP

from .notes import notes_mcp


def _flatten(tool):
    schema = tool.inputSchema
    for name, prop in schema.get("properties", {}).items():
        options = prop.get("anyOf")
        if not isinstance(options, list):
            continue
        kept = [o for o in options if o != {"type": "null"}]
        if len(kept) == 1:
            prop.pop("anyOf")
            prop.update(kept[0])
    return tool


class NotesServer(FastMCP):
    async def _list_tools_mcp(self):
        listed = []
        for tool in await self.list_tools():
            mcp_tool = tool.to_mcp_tool()
            _flatten(mcp_tool)
            listed.append(mcp_tool)
        return listed


main = NotesServer(name="notes")
main.mount(notes_mcp, namespace="notes")
'''

NOTES = '''from fastmcp import FastMCP

notes_mcp = FastMCP(name="notes")


@notes_mcp.tool
def find(text: str | None = None, limit: int = 10) -> str:
    """Find notes."""
    return ""
'''


def test_a_listing_hooks_transform_is_applied_to_the_mounted_tools(tmp_path: Path) -> None:
    folder = _write(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": SERVER, "pkg/notes.py": NOTES})
    tools = extract_paths([folder])
    (tool,) = tools.tools
    assert tool.name == "notes_find"
    assert tool.input_schema["properties"]["text"] == {"type": "string", "default": None}
    hook = next(f for f in tools.load_findings if "NotesServer._list_tools_mcp" in f.message)
    assert "`_flatten` is applied to each tool as written" in hook.message


def test_a_transform_that_does_more_than_reshape_json_is_a_finding(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    server = SERVER.replace("    return tool\n", f"    open({str(marker)!r}, 'w')\n    return tool\n", 1)
    folder = _write(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": server, "pkg/notes.py": NOTES})
    tools = extract_paths([folder])
    assert not marker.exists()  # read, never run
    assert "anyOf" in tools.tools[0].input_schema["properties"]["text"]  # shown as declared
    finding = next(f for f in tools.load_findings if f.tool == "notes_find")
    assert "`open" in finding.message and finding.file.endswith("server.py") and finding.line == 16


def test_a_transform_that_never_ends_stops_with_a_finding(tmp_path: Path) -> None:
    server = SERVER.replace("    schema = tool.inputSchema\n", "    schema = tool.inputSchema\n    n = 0\n"
                            "    for _ in schema.get('x', [1]):\n        pass\n    def spin(k):\n"
                            "        return spin(k + 1)\n    spin(0)\n", 1)
    folder = _write(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": server, "pkg/notes.py": NOTES})
    tools = extract_paths([folder])
    finding = next(f for f in tools.load_findings if f.tool == "notes_find")
    assert "too deep" in finding.message


API = '''package api

import "github.com/google/jsonschema-go/jsonschema"

type Tool struct {
	Name        string
	Description string
	InputSchema *jsonschema.Schema
	Annotations ToolAnnotations
}

type ToolAnnotations struct {
	Title        string
	ReadOnlyHint *bool
}

type ServerTool struct {
	Tool    Tool
	Enabled bool
}
'''

TOOLS = '''package tools

import (
	"github.com/google/jsonschema-go/jsonschema"
	"k8s.io/utils/ptr"

	"example.com/notes/pkg/api"
)

func readOnly(title string) api.ToolAnnotations {
	return api.ToolAnnotations{Title: title, ReadOnlyHint: ptr.To(true)}
}

func All() []api.ServerTool {
	return []api.ServerTool{
		{Tool: api.Tool{Name: "ping", Description: "Check the service answers.",
			InputSchema: &jsonschema.Schema{Type: "object"}, Annotations: readOnly("Ping")}},
		{Tool: api.Tool{Name: "echo", Description: "Repeat a text.", InputSchema: &jsonschema.Schema{
			Type: "object", Properties: map[string]*jsonschema.Schema{"text": {Type: "string"}}}}},
	}
}
'''

CONVERT = '''package server

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"k8s.io/utils/ptr"

	"example.com/notes/pkg/api"
)

func toSdk(tool api.ServerTool) (*mcp.Tool, error) {
	schema := tool.Tool.InputSchema
	if schema == nil {
		return nil, fmt.Errorf("no schema")
	}
	if schema.Properties == nil {
		schema.Properties = make(map[string]*jsonschema.Schema)
	}
	return &mcp.Tool{
		Name:        tool.Tool.Name,
		Title:       tool.Tool.Annotations.Title,
		Description: tool.Tool.Description,
		InputSchema: schema,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: ptr.Deref(tool.Tool.Annotations.ReadOnlyHint, false)},
	}, nil
}
'''


def test_a_conversion_to_the_sdk_type_fills_what_it_fills_in_every_tool_of_that_type(tmp_path: Path) -> None:
    folder = _write(tmp_path, {"go.mod": GO_MOD, "pkg/api/types.go": API, "pkg/tools/all.go": TOOLS,
                               "pkg/server/convert.go": CONVERT})
    tools = extract_paths([folder])
    listed = {t["name"]: t for t in tools.to_mcp()}
    assert listed["ping"] == {"name": "ping", "title": "Ping", "description": "Check the service answers.",
                              "inputSchema": {"type": "object", "properties": {}},
                              "annotations": {"readOnlyHint": True, "idempotentHint": False}}
    assert listed["echo"]["inputSchema"] == {"type": "object", "properties": {"text": {"type": "string"}}}
    assert listed["echo"]["annotations"] == {"readOnlyHint": False, "idempotentHint": False}  # the go-sdk's
    assert "title" not in listed["echo"]
    assert not tools.load_findings  # the conversion is understood: neither a tool nor a problem


def test_a_conversion_that_changes_the_tool_otherwise_is_a_finding(tmp_path: Path) -> None:
    convert = CONVERT.replace("\treturn &mcp.Tool", "\tschema.Required = []string{\"id\"}\n\treturn &mcp.Tool")
    folder = _write(tmp_path, {"go.mod": GO_MOD, "pkg/api/types.go": API, "pkg/tools/all.go": TOOLS,
                               "pkg/server/convert.go": convert})
    tools = extract_paths([folder])
    (finding,) = tools.load_findings
    assert finding.file.endswith("convert.go") and finding.line == 21
    assert "schema.Required" in finding.message and "conversion `toSdk`" in finding.message


JOINED = '''from fastmcp import FastMCP

mcp = FastMCP(name="fields")
FIELDS = ["summary", "status"]


@mcp.tool(description="Read the fields " + ", ".join(FIELDS) + ".")
def read(fields: str = ",".join(FIELDS)) -> str:
    return fields
'''


def test_a_join_of_a_literal_list_is_read_and_a_join_of_a_set_is_a_finding(tmp_path: Path) -> None:
    (tmp_path / "listed.py").write_text(JOINED)
    (tmp_path / "unordered.py").write_text(JOINED.replace('["summary", "status"]', '{"summary", "status"}'))
    listed = extract_paths([tmp_path / "listed.py"])
    assert listed.tools[0].description == "Read the fields summary, status."
    assert listed.tools[0].input_schema["properties"]["fields"]["default"] == "summary,status"
    unordered = extract_paths([tmp_path / "unordered.py"])
    messages = [f.message for f in unordered.load_findings]
    assert messages and all("joins a set, in an order Python picks at run time" in m for m in messages)
    assert "default" not in unordered.tools[0].input_schema["properties"].get("fields", {})


REFLECTED = '''package tools

import "github.com/mark3labs/mcp-go/mcp"

type SearchArgs struct {
	Query string `json:"query" jsonschema:"description=What to search"`
}

func Search() mcp.Tool {
	return mcp.NewTool("search",
		mcp.WithDescription("Search notes."),
		mcp.WithInputSchema[SearchArgs](),
	)
}
'''


def test_a_schema_reflected_from_a_go_type_by_mcp_go_is_named_as_not_reproduced(tmp_path: Path) -> None:
    folder = _write(tmp_path, {"go.mod": GO_MOD, "tools.go": REFLECTED})
    tools = extract_paths([folder])
    assert [t.name for t in tools.tools] == ["search"]
    (finding,) = tools.load_findings
    assert finding.line == 12 and "`mcp.WithInputSchema[SearchArgs]()` derives the schema" in finding.message


def test_a_listing_hooks_method_is_applied_and_one_reading_the_servers_state_is_a_finding(tmp_path: Path) -> None:
    as_method = SERVER.replace("def _flatten(tool):", "def _unused():\n    return None\n\n\ndef _kept(tool):") \
        .replace("            _flatten(mcp_tool)", "            self._flatten(mcp_tool)") \
        .replace("    async def _list_tools_mcp(self):", "    @staticmethod\n    def _flatten(tool):\n"
                 "        prop = tool.inputSchema['properties']['text']\n"
                 "        prop.pop('anyOf')\n        prop['type'] = 'string'\n\n"
                 "    async def _list_tools_mcp(self):")
    folder = _write(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": as_method, "pkg/notes.py": NOTES})
    tools = extract_paths([folder])
    assert tools.tools[0].input_schema["properties"]["text"] == {"type": "string", "default": None}
    stateful = as_method.replace("    @staticmethod\n    def _flatten(tool):", "    def _flatten(self, tool):\n"
                                 "        tool.description = self.prefix")
    (folder / "pkg" / "server.py").write_text(stateful)
    tools = extract_paths([folder])
    finding = next(f for f in tools.load_findings if f.tool == "notes_find")
    assert "reads the server's state" in finding.message
    assert tools.tools[0].description == "Find notes."  # shown as declared


def test_a_conversion_field_set_to_a_constant_or_to_what_is_unknown(tmp_path: Path) -> None:
    convert = CONVERT.replace("		Description: tool.Tool.Description,", "		Description: \"Same for all\",") \
        .replace("		Title:       tool.Tool.Annotations.Title,", "		Title:       titles[tool.Tool.Name],")
    folder = _write(tmp_path, {"go.mod": GO_MOD, "pkg/api/types.go": API, "pkg/tools/all.go": TOOLS,
                               "pkg/server/convert.go": convert})
    tools = extract_paths([folder])
    assert {t.description for t in tools.tools} == {"Same for all"}
    (finding,) = tools.load_findings
    assert finding.line == 23 and "the field `Title`" in finding.message


CONFIGURED = '''package tools

import "github.com/modelcontextprotocol/go-sdk/mcp"

func Listing(verbose bool) *mcp.Tool {
	text := "List the notes."
	if verbose {
		text += " With their history."
	}
	return &mcp.Tool{Name: "list_notes", Description: text}
}
'''


def test_a_text_reassigned_under_a_run_time_condition_is_a_finding_naming_that_line(tmp_path: Path) -> None:
    folder = _write(tmp_path, {"go.mod": GO_MOD, "tools.go": CONFIGURED})
    tools = extract_paths([folder])
    assert tools.tools[0].description is None
    (finding,) = tools.load_findings
    assert finding.line == 10 and "`text` is changed at line 8" in finding.message
