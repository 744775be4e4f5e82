"""Go extraction by general mechanisms: the module's own functions that build tools from their parameters, the
handler types a wrapper passes on to the go-sdk, and schema builders made of functional options (each from small
Go sources written here, read and never built or run)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.audit.models import ToolSet
from app.extract import extract_paths

GO_MOD = "module example.com/orchard\n\ngo 1.23\n"

KIT = '''package kit

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type Opt func(*server.ServerTool)

func Quiet() Opt {
	return func(t *server.ServerTool) {}
}

// MustTool builds a tool and its handler; every call is one tool.
func MustTool[H server.ToolHandlerFunc](name, description string, handler H, opts ...Opt) server.ServerTool {
	t := mcp.NewTool(name, mcp.WithDescription(description))
	st := server.ServerTool{Tool: t, Handler: server.ToolHandlerFunc(handler)}
	for _, o := range opts {
		o(&st)
	}
	return st
}

func Define(name, description string, opts ...mcp.ToolOption) mcp.Tool {
	return mcp.NewTool(name, append([]mcp.ToolOption{mcp.WithDescription(description)}, opts...)...)
}

func TextParam(name, description string) mcp.ToolOption {
	return mcp.WithString(name, mcp.Description(description), mcp.Required())
}

func Handle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return nil, nil
}
'''

TREES = '''package tools

import (
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"example.com/orchard/kit"
)

func All(s *server.MCPServer) []server.ServerTool {
	s.AddTool(kit.Define("prune_tree", "Prune one fruit tree.",
		mcp.WithNumber("height", mcp.Description("Height to keep, in cm")),
		kit.TextParam("variety", "The apple variety"),
	), kit.Handle)
	return []server.ServerTool{
		kit.MustTool("list_trees", "List the trees of the orchard.", kit.Handle, kit.Quiet()),
		kit.MustTool("count_apples", "Count the apples on one tree.", kit.Handle),
	}
}
'''


def _write(folder: Path, files: dict[str, str]) -> Path:
    for name, body in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(body)
    return folder


def _read(folder: Path, files: dict[str, str]) -> ToolSet:
    return extract_paths([_write(folder, {"go.mod": GO_MOD, **files})], root=folder)


def _line(source: str, fragment: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if fragment in line)


def _by_name(tools: ToolSet) -> dict[str, Any]:
    return {t.name: t for t in tools.tools}


def test_a_wrapper_given_name_and_description_lists_one_tool_at_each_call(tmp_path: Path) -> None:
    tools = _read(tmp_path, {"kit/kit.go": KIT, "tools/trees.go": TREES})
    listed = _by_name(tools)
    assert list(listed) == ["prune_tree", "list_trees", "count_apples"]
    assert listed["list_trees"].description == "List the trees of the orchard."
    assert listed["count_apples"].input_schema == {"type": "object", "properties": {}, "required": []}
    where = listed["list_trees"].location
    assert where is not None and where.file == "tools/trees.go"
    line = _line(TREES, '"list_trees"')
    assert where.tool_lines.start == line and where.name_lines is not None and where.name_lines.start == line
    assert where.description_lines is not None and where.description_lines.start == line
    assert not tools.load_findings  # the wrapper's own file is no silent registration site


def test_options_handed_through_a_wrapper_are_read_where_they_are_written(tmp_path: Path) -> None:
    tools = _read(tmp_path, {"kit/kit.go": KIT, "tools/trees.go": TREES})
    prune = _by_name(tools)["prune_tree"]
    assert prune.description == "Prune one fruit tree."
    assert prune.input_schema == {
        "type": "object",
        "properties": {"height": {"type": "number", "description": "Height to keep, in cm"},
                       "variety": {"type": "string", "description": "The apple variety"}},
        "required": ["variety"],
    }
    assert prune.location is not None
    assert prune.location.parameter_description_lines["height"].start == _line(TREES, "Height to keep")


NESTED = '''package tools

import (
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"example.com/orchard/kit"
)

type Shed struct {
	server *server.MCPServer
}

func (s *Shed) Add(name, description string) {
	tool := mcp.NewTool(name, mcp.WithDescription(description), mcp.WithReadOnlyHintAnnotation(true))
	s.server.AddTool(tool, kit.Handle)
}

func readOnly(name, description string) server.ServerTool {
	return kit.MustTool(name, description, kit.Handle, kit.Quiet())
}

func Register(shed *Shed) []server.ServerTool {
	shed.Add("list_tools", "List the tools in the shed.")
	local := &Shed{}
	local.Add("lend_tool", "Lend a tool to a neighbour.")
	return []server.ServerTool{readOnly("harvest_log", "Show the harvest log.")}
}
'''


def test_a_wrapper_calling_a_wrapper_and_a_method_building_tools_are_followed(tmp_path: Path) -> None:
    tools = _read(tmp_path, {"kit/kit.go": KIT, "tools/shed.go": NESTED})
    listed = _by_name(tools)
    assert list(listed) == ["list_tools", "lend_tool", "harvest_log"]
    assert listed["harvest_log"].description == "Show the harvest log."
    assert next(t for t in tools.to_mcp() if t["name"] == "lend_tool")["annotations"]["readOnlyHint"] is True
    harvest = listed["harvest_log"].location
    assert harvest is not None and harvest.tool_lines.start == _line(NESTED, '"harvest_log"')
    assert [f.file for f in tools.load_findings] == ["kit/kit.go"]  # only `Define`, which nothing here calls


EXTRA = '''package kit

import (
	"os"

	"github.com/mark3labs/mcp-go/mcp"
)

func Suffixed(name, description string) mcp.Tool {
	return mcp.NewTool(name, mcp.WithDescription(description+os.Getenv("TOOL_SUFFIX")))
}

func Lowered(name string) mcp.Tool {
	name = name + "_v2"
	return mcp.NewTool(name, mcp.WithDescription("Renamed when it runs."))
}
'''

UNKNOWN = '''package tools

import (
	"github.com/mark3labs/mcp-go/server"

	"example.com/orchard/kit"
)

var names = []string{"water", "feed"}

func Dynamic() []server.ServerTool {
	out := []server.ServerTool{}
	for _, n := range names {
		out = append(out, kit.MustTool(n+"_trees", "Care for the trees.", kit.Handle))
	}
	return out
}

func Others() {
	_ = kit.Suffixed("graft_tree", "Graft a branch.")
	_ = kit.Lowered("plant_tree")
}
'''


def test_what_only_the_running_program_knows_is_a_finding_at_the_call(tmp_path: Path) -> None:
    tools = _read(tmp_path, {"kit/kit.go": KIT, "kit/extra.go": EXTRA, "tools/unknown.go": UNKNOWN})
    assert [t.name for t in tools.tools] == ["graft_tree"]
    assert tools.tools[0].description is None
    messages = {f.line: f.message for f in tools.load_findings if f.file == "tools/unknown.go"}
    assert len(messages) == 3 and not [f for f in tools.load_findings if f.file == "kit/extra.go"]
    assert "`n`" in messages[_line(UNKNOWN, "kit.MustTool(n")]
    suffixed = messages[_line(UNKNOWN, "kit.Suffixed")]
    assert "os.Getenv" in suffixed and f"(kit/extra.go, line {_line(EXTRA, 'TOOL_SUFFIX')})" in suffixed
    assert "`name`" in messages[_line(UNKNOWN, "kit.Lowered")]  # it is changed before use: not the argument


def test_a_function_building_a_tool_from_its_parameters_that_nobody_calls_is_a_finding(tmp_path: Path) -> None:
    tools = _read(tmp_path, {"kit/kit.go": KIT, "kit/extra.go": EXTRA})
    assert tools.tools == []
    named = [f for f in tools.load_findings if f.file == "kit/extra.go"]
    assert [f.line for f in named] == [_line(EXTRA, "return mcp.NewTool(name, mcp.WithDescription(description"),
                                       _line(EXTRA, 'return mcp.NewTool(name, mcp.WithDescription("Renamed')]
    assert "`name` is changed at line" in named[1].message


SDK_KIT = '''package sdkkit

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func Register[In, Out any](s *mcp.Server, name, description string,
	h func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, Out, error)) {
	log.Printf("registering %s", name)
	tool := &mcp.Tool{Name: name, Description: description}
	mcp.AddTool(s, tool, h)
}

func Build(name, description string) *mcp.Tool {
	return &mcp.Tool{Name: name, Description: description}
}
'''

SDK_TOOLS = '''package sdktools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"example.com/orchard/sdkkit"
)

type PickArgs struct {
	Row   string `json:"row" jsonschema:"the row of trees to pick"`
	Limit int    `json:"limit,omitempty" jsonschema:"stop after this many crates"`
}

type PickResult struct {
	Crates int `json:"crates"`
}

type SellArgs struct {
	Crate string `json:"crate" jsonschema:"the crate to sell"`
}

func pick(ctx context.Context, req *mcp.CallToolRequest, in PickArgs) (*mcp.CallToolResult, PickResult, error) {
	return nil, PickResult{}, nil
}

func sell(ctx context.Context, req *mcp.CallToolRequest, in SellArgs) (*mcp.CallToolResult, any, error) {
	return nil, nil, nil
}

func Setup(s *mcp.Server) {
	sdkkit.Register(s, "pick_apples", "Pick the ripe apples of one row.", pick)
	mcp.AddTool(s, sdkkit.Build("sell_crate", "Sell one crate at the market."), sell)
}
'''


def test_a_go_sdk_wrapper_passing_its_handler_on_lists_the_schema_of_the_handlers_types(tmp_path: Path) -> None:
    tools = _read(tmp_path, {"sdkkit/kit.go": SDK_KIT, "sdktools/tools.go": SDK_TOOLS})
    listed = {t["name"]: t for t in tools.to_mcp()}
    assert list(listed) == ["pick_apples", "sell_crate"]
    assert listed["pick_apples"]["inputSchema"] == {
        "type": "object",
        "properties": {"row": {"type": "string", "description": "the row of trees to pick"},
                       "limit": {"type": "integer", "description": "stop after this many crates"}},
        "required": ["row"],
        "additionalProperties": False,
    }
    assert listed["pick_apples"]["outputSchema"]["properties"] == {"crates": {"type": "integer"}}
    assert listed["sell_crate"]["inputSchema"]["properties"] == {
        "crate": {"type": "string", "description": "the crate to sell"}}
    assert not tools.load_findings


SCHEMA = '''package schema

import (
	"os"

	"github.com/google/jsonschema-go/jsonschema"
)

type Option func(s *jsonschema.Schema)

type PropOption func(parent *jsonschema.Schema, name string, prop *jsonschema.Schema)

func New(opts ...Option) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	for _, o := range opts {
		o(s)
	}
	return s
}

func Required() PropOption {
	return func(parent *jsonschema.Schema, name string, prop *jsonschema.Schema) {
		parent.Required = append(parent.Required, name)
	}
}

func Max(n float64) PropOption {
	return func(parent *jsonschema.Schema, name string, prop *jsonschema.Schema) {
		prop.Maximum = &n
	}
}

func property(kind, name, description string, popts []PropOption) Option {
	return func(s *jsonschema.Schema) {
		p := &jsonschema.Schema{Type: kind, Description: description}
		for _, o := range popts {
			o(s, name, p)
		}
		s.Properties[name] = p
	}
}

func WithString(name, description string, popts ...PropOption) Option {
	return property("string", name, description, popts)
}

func WithNumber(name, description string, popts ...PropOption) Option {
	return property("number", name, description, popts)
}

func WithEnvDefault(name string) Option {
	return func(s *jsonschema.Schema) {
		s.Properties[name] = &jsonschema.Schema{Type: "string", Description: os.Getenv("HELP_" + name)}
	}
}
'''

SCHEMA_TOOLS = '''package sdktools

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"example.com/orchard/schema"
)

func Water() *mcp.Tool {
	return &mcp.Tool{
		Name:        "water_row",
		Description: "Water one row of trees.",
		InputSchema: schema.New(
			schema.WithString("row", "The row to water", schema.Required()),
			schema.WithNumber("litres", "Water per tree", schema.Max(40)),
		),
	}
}

func Spray() *mcp.Tool {
	return &mcp.Tool{
		Name:        "spray_row",
		Description: "Spray one row against pests.",
		InputSchema: schema.New(schema.WithEnvDefault("product")),
	}
}
'''


def test_a_schema_builder_of_functional_options_is_followed_through_its_closures(tmp_path: Path) -> None:
    tools = _read(tmp_path, {"schema/schema.go": SCHEMA, "sdktools/water.go": SCHEMA_TOOLS})
    water = _by_name(tools)["water_row"]
    assert water.input_schema == {
        "type": "object",
        "properties": {"row": {"type": "string", "description": "The row to water"},
                       "litres": {"type": "number", "description": "Water per tree", "maximum": 40}},
        "required": ["row"],
    }


def test_a_schema_builder_step_the_program_decides_when_running_is_a_finding_naming_its_line(tmp_path: Path) -> None:
    tools = _read(tmp_path, {"schema/schema.go": SCHEMA, "sdktools/water.go": SCHEMA_TOOLS})
    (finding,) = tools.load_findings
    assert finding.tool == "spray_row" and finding.file == "sdktools/water.go"
    assert finding.line == _line(SCHEMA_TOOLS, "schema.WithEnvDefault")
    assert "os.Getenv" in finding.message and f"(schema/schema.go, line {_line(SCHEMA, 'HELP_')})" in finding.message
    assert "inputSchema" not in tools.to_mcp()[0] or tools.to_mcp()[0]["name"] != "spray_row"


MAP_BUILDER = '''package args

import "encoding/json"

type Arg func(map[string]any)

func Object(list ...Arg) json.RawMessage {
	s := map[string]any{"type": "object", "properties": map[string]any{}}
	for _, a := range list {
		a(s)
	}
	raw, _ := json.Marshal(s)
	return raw
}

func Text(name, description string, required bool) Arg {
	return func(s map[string]any) {
		s["properties"].(map[string]any)[name] = map[string]any{"type": "string", "description": description}
		if required {
			names, _ := s["required"].([]string)
			s["required"] = append(names, name)
		}
	}
}
'''

MAP_TOOLS = '''package tools

import (
	"github.com/mark3labs/mcp-go/mcp"

	"example.com/orchard/args"
)

var Label = mcp.NewTool("label_crate",
	mcp.WithDescription("Print a label for a crate."),
	mcp.WithRawInputSchema(args.Object(
		args.Text("crate", "The crate to label", true),
		args.Text("note", "A note", false),
	)),
)
'''


def test_a_map_schema_builder_with_type_assertions_is_followed(tmp_path: Path) -> None:
    tools = _read(tmp_path, {"args/args.go": MAP_BUILDER, "tools/label.go": MAP_TOOLS})
    assert tools.tools[0].input_schema == {
        "type": "object",
        "properties": {"crate": {"type": "string", "description": "The crate to label"},
                       "note": {"type": "string", "description": "A note"}},
        "required": ["crate"],
    }
    assert not tools.load_findings
