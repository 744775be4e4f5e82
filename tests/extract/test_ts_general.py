"""TypeScript/JavaScript extraction in general: fastmcp's `addTool`, constants resolved within a file and through
relative imports, and zod schemas beyond the basic ones (each on a small source written here, never run)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.audit.models import ToolSet
from app.extract import extract_file, extract_paths

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
SAFE = 9007199254740991
ZOD4_PACKAGE = json.dumps({"dependencies": {"fastmcp": "^4.20.0", "zod": "^4.1.0"}})
ZOD3_PACKAGE = json.dumps({"dependencies": {"@modelcontextprotocol/sdk": "^1.10.0", "zod": "^3.25.0"}})


def _write(folder: Path, files: dict[str, str], *, package: str = ZOD4_PACKAGE) -> None:
    (folder / "package.json").write_text(package, encoding="utf-8")
    for name, source in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")


def _read(folder: Path, name: str) -> ToolSet:
    return extract_file(folder / name, display_name=name)


def _by_name(tools: ToolSet) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in tools.to_mcp()}


# ---------------------------------------------------------------------------------------------------------------
# 1. fastmcp: server.addTool / server.addTools, listed as fastmcp lists them

FASTMCP_LIMITS = """\
export const SHELVES = ["front", "back"] as const;
export const BOUNDS = { seconds: 60 * 60 * 24, page: 1000 * 5 };
export const KIND = "parcel";
"""

FASTMCP_SERVER = """\
import { FastMCP } from "fastmcp";
import { z } from "zod";
import { SHELVES, BOUNDS, KIND } from "./limits.js";

const server = new FastMCP({ name: "depot", version: "1.0.0" });

const shelveTool = {
  name: `${KIND}_shelve`,
  description: "Put a " + KIND + " on a shelf of the depot.",
  parameters: z.object({
    code: z.string().describe("Label printed on the parcel"),
    shelf: z.enum(SHELVES).default("front"),
    sender: z.object({ city: z.boolean() }).optional(),
    slot: z.tuple([z.number(), z.number()]),
    hold: z.number().int().max(BOUNDS.seconds).describe(`Seconds to keep it, at most ${BOUNDS.seconds}`),
  }),
  annotations: { destructiveHint: false, title: "Shelve" },
  execute: async () => "done",
};

server.addTool(shelveTool);
server.addTool({
  name: "depot_status",
  description: "Say whether the depot is open.",
  execute: async () => "open",
});
server.addTools([
  { name: "count_parcels", parameters: z.object({ shelf: z.string().optional() }), execute: async () => "0" },
]);
"""


def test_fastmcp_tools_are_listed_as_fastmcp_lists_them(tmp_path: Path) -> None:
    # Expected values: what fastmcp 4.20 (zod 4.6.7) sent over tools/list for this server, run once by hand.
    _write(tmp_path, {"limits.ts": FASTMCP_LIMITS, "server.ts": FASTMCP_SERVER})
    tools = _read(tmp_path, "server.ts")
    assert tools.load_findings == []
    listed = _by_name(tools)
    assert list(listed) == ["parcel_shelve", "depot_status", "count_parcels"]
    assert listed["parcel_shelve"] == {
        "name": "parcel_shelve",
        "description": "Put a parcel on a shelf of the depot.",
        "inputSchema": {
            "$schema": DRAFT_07,
            "type": "object",
            "properties": {
                "code": {"type": "string", "description": "Label printed on the parcel"},
                "shelf": {"default": "front", "type": "string", "enum": ["front", "back"]},
                "sender": {"type": "object", "properties": {"city": {"type": "boolean"}}, "required": ["city"],
                           "additionalProperties": False},
                "slot": {"type": "array", "items": [{"type": "number"}, {"type": "number"}],
                         "additionalItems": False, "minItems": 2, "maxItems": 2},
                "hold": {"type": "integer", "minimum": -SAFE, "maximum": 86400,
                         "description": "Seconds to keep it, at most 86400"},
            },
            "required": ["code", "slot", "hold"],
            "additionalProperties": False,
        },
        "annotations": {"title": "Shelve", "destructiveHint": False},
    }
    assert listed["depot_status"] == {
        "name": "depot_status",
        "description": "Say whether the depot is open.",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
    }
    assert listed["count_parcels"]["inputSchema"] == {
        "$schema": DRAFT_07, "type": "object", "properties": {"shelf": {"type": "string"}},
        "additionalProperties": False,
    }
    shelve = tools.tools[0]
    assert shelve.location is not None and shelve.location.tool_lines.start == 21  # where it is added
    assert shelve.location.name_lines is not None and shelve.location.name_lines.start == 8
    assert shelve.location.parameter_description_lines["code"].start == 11


def test_fastmcp_tools_defined_in_other_modules_and_factories(tmp_path: Path) -> None:
    _write(tmp_path, {
        "tools/weigh.ts": """\
import { z } from "zod";
const UNIT = "grams";
export const weighTool = {
  name: "weigh_parcel",
  description: `Weigh a parcel in ${UNIT}.`,
  parameters: z.object({ code: z.string() }),
  execute: async () => "1",
};
export default { name: "tare_scale", description: "Zero the scale.", execute: async () => "ok" };
""",
        "tools/index.ts": 'export * from "./weigh.js";\n',
        "server.ts": """\
import { FastMCP } from "fastmcp";
import { z } from "zod";
import { weighTool } from "./tools/index.js";
import tare from "./tools/weigh.js";

const UNIT = "pounds";  // not the unit of weigh.ts: its own constant is read there
const server = new FastMCP({ name: "scales", version: "1.0.0" });

function labelTool() {
  return { name: "print_label", description: "Print a label.", parameters: z.object({}), execute: async () => "" };
}
const routeTool = (hub: string) => ({ name: "route_parcel", description: `Send it through ${hub}.` });

server.addTools([weighTool, tare]);
server.addTool(labelTool());
server.addTool(routeTool("north"));
""",
    })
    tools = _read(tmp_path, "server.ts")
    listed = _by_name(tools)
    assert list(listed) == ["weigh_parcel", "tare_scale", "print_label", "route_parcel"]
    assert listed["weigh_parcel"]["description"] == "Weigh a parcel in grams."
    assert listed["weigh_parcel"]["inputSchema"]["required"] == ["code"]
    assert listed["print_label"]["inputSchema"] == {
        "$schema": DRAFT_07, "type": "object", "properties": {}, "additionalProperties": False}
    # The factory's parameter is known only when it runs: a finding at the template, never a guess.
    assert "description" not in listed["route_parcel"]
    [finding] = tools.load_findings
    assert finding.rule_id == "TC090" and finding.tool == "route_parcel"
    assert finding.file == "server.ts" and finding.line == 12


def test_fastmcp_parameters_that_are_not_read_are_a_finding(tmp_path: Path) -> None:
    _write(tmp_path, {"server.ts": """\
import { FastMCP } from "fastmcp";
import * as v from "valibot";

const server = new FastMCP({ name: "mixed", version: "1.0.0" });
server.addTool({ name: "find_box", parameters: v.object({ id: v.string() }), execute: async () => "" });
for (const extra of loadExtras()) {
  server.addTool(extra);
}
"""})
    tools = _read(tmp_path, "server.ts")
    assert tools.names() == ["find_box"]
    assert "inputSchema" not in tools.to_mcp()[0] or tools.to_mcp()[0]["inputSchema"] == {"type": "object"}
    lines = sorted((f.line, f.tool) for f in tools.load_findings)
    assert lines == [(5, "find_box"), (7, None)]
    assert all(f.file == "server.ts" for f in tools.load_findings)


def test_add_tool_of_a_file_that_imports_nothing_of_mcp_needs_a_tool_shape(tmp_path: Path) -> None:
    _write(tmp_path, {"menu.ts": """\
const menu = new Menu();
menu.addTool({ name: "scissors", icon: "cut" });
"""})
    tools = _read(tmp_path, "menu.ts")
    assert tools.names() == []
    assert not any("addTool" in f.message for f in tools.load_findings)


def test_fastmcp_with_zod3_lists_every_object_closed(tmp_path: Path) -> None:
    _write(tmp_path, {"server.ts": """\
import { FastMCP } from "fastmcp";
import { z } from "zod";
const server = new FastMCP({ name: "old", version: "1.0.0" });
server.addTool({
  name: "stack_boxes",
  parameters: z.object({ boxes: z.array(z.object({ id: z.string() })) }),
  execute: async () => "",
});
"""}, package=ZOD3_PACKAGE)
    [tool] = _read(tmp_path, "server.ts").to_mcp()
    assert tool["inputSchema"] == {
        "$schema": DRAFT_07,
        "type": "object",
        "properties": {"boxes": {"type": "array", "items": {
            "type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"],
            "additionalProperties": False}}},
        "required": ["boxes"],
        "additionalProperties": False,
    }


# ---------------------------------------------------------------------------------------------------------------
# 2. Constants: template literals, arithmetic, `as const` arrays, object members, through relative imports

SDK_CONSTANTS = """\
export const AREA = "garden";
export const SIZES = ["small", "large"] as const;
export const LIMITS = { day: 60 * 60 * 24, batch: 1000 * 5, nested: { top: 2 ** 4 - 1 } };
const HIDDEN = "plots";
export const TOPIC = `${AREA} ${HIDDEN}`;
export default "Tend the " + AREA + ".";
"""

SDK_SERVER = """\
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { AREA, SIZES, LIMITS, TOPIC } from "./constants.js";
import * as c from "./constants.js";
import intro from "./constants.js";

const HIDDEN = "rows";  // a different constant of the same name as one in constants.ts
const server = new McpServer({ name: "garden", version: "1.0.0" });

server.registerTool(
  `${AREA}_water`,
  {
    description: `${intro} Waters the ${TOPIC} for ${LIMITS.day / 60} minutes.`,
    inputSchema: {
      size: z.enum(SIZES).describe(`One of ${SIZES.join(", ")}`),
      wait: z.number().max(LIMITS.day).default(c.LIMITS.batch),
      depth: z.number().int().max(LIMITS.nested.top).describe("Depth in " + c.AREA + " units"),
      ratio: z.number().max(10 / 4).min(-(3 % 2)),
    },
  },
  async () => ({ content: [] })
);
"""


def test_constants_resolve_within_the_file_and_through_relative_imports(tmp_path: Path) -> None:
    _write(tmp_path, {"constants.ts": SDK_CONSTANTS, "server.ts": SDK_SERVER})
    tools = _read(tmp_path, "server.ts")
    assert tools.load_findings == []
    [tool] = tools.to_mcp()
    assert tool["name"] == "garden_water"
    assert tool["description"] == "Tend the garden. Waters the garden plots for 1440 minutes."
    props = tool["inputSchema"]["properties"]
    assert props["size"] == {"type": "string", "enum": ["small", "large"], "description": "One of small, large"}
    assert props["wait"] == {"type": "number", "maximum": 86400, "default": 5000}
    assert props["depth"] == {
        "type": "integer", "minimum": -SAFE, "maximum": 15, "description": "Depth in garden units"}
    assert props["ratio"] == {"type": "number", "maximum": 2.5, "minimum": -1}


def test_values_known_only_at_run_time_are_findings_naming_file_and_line(tmp_path: Path) -> None:
    _write(tmp_path, {"server.ts": """\
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "shed", version: "1.0.0" });
const owner = process.env.OWNER;
const SLOTS = 4;
server.registerTool("lock_shed", {
  description: `Lock the shed of ${owner}.`,
  inputSchema: { minutes: z.number().max(SLOTS / 0), code: z.string().max(Date.now() * 2) },
}, async () => ({ content: [] }));
"""})
    tools = _read(tmp_path, "server.ts")
    [tool] = tools.to_mcp()
    assert "description" not in tool
    found = sorted((f.file, f.line, f.tool) for f in tools.load_findings)
    assert found == [("server.ts", 7, "lock_shed"), ("server.ts", 8, "lock_shed")]
    assert "a template literal with a substitution" in tools.load_findings[0].message


def test_enums_of_typescript_in_zod(tmp_path: Path) -> None:
    _write(tmp_path, {
        "kinds.ts": 'export enum Soil { Clay = "clay", Sand = "sand" }\nexport enum Counted { One, Two }\n',
        "server.ts": """\
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { Soil, Counted } from "./kinds.js";
const server = new McpServer({ name: "soil", version: "1.0.0" });
server.registerTool("test_soil", { inputSchema: { soil: z.nativeEnum(Soil), named: z.enum(Soil) } },
  async () => ({ content: [] }));
server.registerTool("count_soil", { inputSchema: { n: z.nativeEnum(Counted) } }, async () => ({ content: [] }));
""",
    })
    tools = _read(tmp_path, "server.ts")
    listed = _by_name(tools)
    assert listed["test_soil"]["inputSchema"]["properties"] == {
        "soil": {"type": "string", "enum": ["clay", "sand"]},
        "named": {"type": "string", "enum": ["clay", "sand"]},
    }
    [finding] = tools.load_findings
    assert finding.tool == "count_soil" and finding.line == 7 and "without a written value" in finding.message


# ---------------------------------------------------------------------------------------------------------------
# 3. zod constructors and methods: each listed exactly as zod lists it, in both flavours

# (zod expression, listed by zod 4.6.7's z.toJSONSchema, listed by zod-to-json-schema 3.25 on zod 3.25)
ZOD_CASES = [
    (
        'z.tuple([z.string(), z.number().int()]).describe("Start and end")',
        {'type': 'array',
         'items': [{'type': 'string'},
                   {'type': 'integer', 'minimum': -9007199254740991, 'maximum': 9007199254740991}],
         'additionalItems': False,
         'minItems': 2,
         'maxItems': 2,
         'description': 'Start and end'},
        {'type': 'array',
         'minItems': 2,
         'maxItems': 2,
         'items': [{'type': 'string'}, {'type': 'integer'}],
         'description': 'Start and end'},
    ),
    (
        'z.tuple([z.string()]).rest(z.number())',
        {'type': 'array',
         'items': [{'type': 'string'}],
         'additionalItems': {'type': 'number'},
         'minItems': 1},
        {'type': 'array',
         'minItems': 1,
         'items': [{'type': 'string'}],
         'additionalItems': {'type': 'number'}},
    ),
    (
        'z.nativeEnum(Shade)',
        {'type': 'string', 'enum': ['light', 'dark']},
        {'type': 'string', 'enum': ['light', 'dark']},
    ),
    (
        'z.nativeEnum({ Low: 1, High: 2 })',
        {'type': 'number', 'enum': [1, 2]},
        {'type': 'number', 'enum': [1, 2]},
    ),
    (
        'z.nativeEnum({ A: "a", B: 2 })',
        {'enum': ['a', 2]},
        {'type': ['string', 'number'], 'enum': ['a', 2]},
    ),
    (
        'z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() }))',
        {'type': 'object',
         'properties': {'a': {'type': 'string'}, 'b': {'type': 'number'}},
         'required': ['a', 'b']},
        {'allOf': [{'type': 'object', 'properties': {'a': {'type': 'string'}}, 'required': ['a']},
                   {'type': 'object', 'properties': {'b': {'type': 'number'}}, 'required': ['b']}]},
    ),
    (
        'z.object({ a: z.string() }).and(z.object({ b: z.number() }))',
        {'type': 'object',
         'properties': {'a': {'type': 'string'}, 'b': {'type': 'number'}},
         'required': ['a', 'b']},
        {'allOf': [{'type': 'object', 'properties': {'a': {'type': 'string'}}, 'required': ['a']},
                   {'type': 'object', 'properties': {'b': {'type': 'number'}}, 'required': ['b']}]},
    ),
    (
        'z.intersection(z.string(), z.string().min(2))',
        {'allOf': [{'type': 'string'}, {'type': 'string', 'minLength': 2}]},
        {'allOf': [{'type': 'string'}, {'type': 'string', 'minLength': 2}]},
    ),
    (
        'z.string().or(z.number())',
        {'type': ['string', 'number']},
        {'type': ['string', 'number']},
    ),
    (
        'z.union([z.string(), z.number()]).or(z.boolean())',
        {'type': ['string', 'number', 'boolean']},
        {'anyOf': [{'type': ['string', 'number']}, {'type': 'boolean'}]},
    ),
    (
        'z.nullable(z.string())',
        {'type': ['string', 'null']},
        {'type': ['string', 'null']},
    ),
    (
        'z.optional(z.string())',
        {'type': 'string'},
        {'type': 'string'},
    ),
    (
        'z.record(z.enum(["a", "b"]), z.number())',
        {'type': 'object',
         'propertyNames': {'type': 'string', 'enum': ['a', 'b']},
         'additionalProperties': {'type': 'number'},
         'required': ['a', 'b']},
        {'type': 'object',
         'additionalProperties': {'type': 'number'},
         'propertyNames': {'enum': ['a', 'b']}},
    ),
    (
        'z.record(z.string().min(1), z.number())',
        {'type': 'object',
         'propertyNames': {'type': 'string', 'minLength': 1},
         'additionalProperties': {'type': 'number'}},
        {'type': 'object', 'additionalProperties': {'type': 'number'}, 'propertyNames': {'minLength': 1}},
    ),
    (
        'z.literal(2.5)',
        {'type': 'number', 'const': 2.5},
        {'type': 'number', 'const': 2.5},
    ),
    (
        'z.number().multipleOf(5)',
        {'type': 'number', 'multipleOf': 5},
        {'type': 'number', 'multipleOf': 5},
    ),
    (
        'z.object({ a: z.string(), b: z.number() }).partial()',
        {'type': 'object', 'properties': {'a': {'type': 'string'}, 'b': {'type': 'number'}}},
        {'type': 'object',
         'properties': {'a': {'type': 'string'}, 'b': {'type': 'number'}},
         'additionalProperties': False},
    ),
    (
        'z.object({ a: z.string(), b: z.number() }).partial({ a: true })',
        {'type': 'object',
         'properties': {'a': {'type': 'string'}, 'b': {'type': 'number'}},
         'required': ['b']},
        {'type': 'object',
         'properties': {'a': {'type': 'string'}, 'b': {'type': 'number'}},
         'required': ['b'],
         'additionalProperties': False},
    ),
    (
        'z.object({ a: z.string(), b: z.number() }).pick({ a: true })',
        {'type': 'object', 'properties': {'a': {'type': 'string'}}, 'required': ['a']},
        {'type': 'object',
         'properties': {'a': {'type': 'string'}},
         'required': ['a'],
         'additionalProperties': False},
    ),
    (
        'z.object({ a: z.string(), b: z.number() }).omit({ a: true })',
        {'type': 'object', 'properties': {'b': {'type': 'number'}}, 'required': ['b']},
        {'type': 'object',
         'properties': {'b': {'type': 'number'}},
         'required': ['b'],
         'additionalProperties': False},
    ),
    (
        'z.object({ a: z.string() }).merge(z.object({ b: z.number() }))',
        {'type': 'object',
         'properties': {'a': {'type': 'string'}, 'b': {'type': 'number'}},
         'required': ['a', 'b']},
        {'type': 'object',
         'properties': {'a': {'type': 'string'}, 'b': {'type': 'number'}},
         'required': ['a', 'b'],
         'additionalProperties': False},
    ),
    (
        'z.object({ a: z.string().optional(), b: z.number() }).required()',
        {'type': 'object',
         'properties': {'a': {'type': 'string'}, 'b': {'type': 'number'}},
         'required': ['a', 'b']},
        {'type': 'object',
         'properties': {'a': {'type': 'string'}, 'b': {'type': 'number'}},
         'required': ['a', 'b'],
         'additionalProperties': False},
    ),
    (
        'z.object({ a: z.string() }).passthrough()',
        {'type': 'object',
         'properties': {'a': {'type': 'string'}},
         'required': ['a'],
         'additionalProperties': {}},
        {'type': 'object',
         'properties': {'a': {'type': 'string'}},
         'required': ['a'],
         'additionalProperties': True},
    ),
    (
        'z.object({ a: z.string() }).catchall(z.number())',
        {'type': 'object',
         'properties': {'a': {'type': 'string'}},
         'required': ['a'],
         'additionalProperties': {'type': 'number'}},
        {'type': 'object',
         'properties': {'a': {'type': 'string'}},
         'required': ['a'],
         'additionalProperties': {'type': 'number'}},
    ),
    (
        'z.string().startsWith("id.")',
        {'type': 'string', 'format': 'starts_with', 'pattern': '^id\\..*'},
        {'type': 'string', 'pattern': '^id\\.'},
    ),
    (
        'z.string().endsWith("z")',
        {'type': 'string', 'format': 'ends_with', 'pattern': '.*z$'},
        {'type': 'string', 'pattern': 'z$'},
    ),
    (
        'z.never()',
        {'not': {}},
        {'not': {}},
    ),
    (
        'z.lazy(() => z.string())',
        {'type': 'string'},
        {'type': 'string'},
    ),
    (
        'z.string().readonly()',
        {'readOnly': True, 'type': 'string'},
        {'type': 'string'},
    ),
]


def _listed(tmp_path: Path, expression: str, *, zod4: bool) -> tuple[dict[str, Any], list[str]]:
    source = f"""\
import {{ McpServer }} from "@modelcontextprotocol/sdk/server/mcp.js";
import {{ z }} from "zod";
const Shade = {{ Light: "light", Dark: "dark" }};
const server = new McpServer({{ name: "probe", version: "1.0.0" }});
server.registerTool("probe", {{ inputSchema: {{ x: {expression} }} }}, async () => ({{ content: [] }}));
"""
    folder = tmp_path / ("zod4" if zod4 else "zod3")  # the flavour is read from package.json, once per folder
    folder.mkdir()
    _write(folder, {"probe.ts": source}, package=ZOD4_PACKAGE if zod4 else ZOD3_PACKAGE)
    tools = _read(folder, "probe.ts")
    schema = tools.to_mcp()[0]["inputSchema"]
    return schema["properties"]["x"], [f.message for f in tools.load_findings]


@pytest.mark.parametrize(("expression", "zod4", "zod3"), ZOD_CASES, ids=[c[0][:40] for c in ZOD_CASES])
def test_zod_schema_is_listed_as_zod_lists_it(
    tmp_path: Path, expression: str, zod4: dict[str, Any], zod3: dict[str, Any]
) -> None:
    assert _listed(tmp_path, expression, zod4=True) == (zod4, [])
    assert _listed(tmp_path, expression, zod4=False) == (zod3, [])


@pytest.mark.parametrize("expression", [
    "z.string().startsWith(\"a\").endsWith(\"b\")",  # zod lists two patterns as allOf
    "z.intersection(z.object({ a: z.string() }), z.union([z.object({ b: z.string() }), z.object({ c: z.string() })]))",
    "z.date()",  # zod 4 fails to list it at all
])
def test_zod_forms_not_reproduced_are_findings(tmp_path: Path, expression: str) -> None:
    source = f"""\
import {{ McpServer }} from "@modelcontextprotocol/sdk/server/mcp.js";
import {{ z }} from "zod";
const server = new McpServer({{ name: "probe", version: "1.0.0" }});
server.registerTool("probe", {{ inputSchema: {{ x: {expression} }} }}, async () => ({{ content: [] }}));
"""
    _write(tmp_path, {"probe.ts": source})
    tools = _read(tmp_path, "probe.ts")
    [finding] = tools.load_findings
    assert finding.rule_id == "TC090" and finding.file == "probe.ts" and finding.line == 4


def test_optional_function_forms_leave_the_key_out_of_required(tmp_path: Path) -> None:
    _write(tmp_path, {"probe.ts": """\
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "probe", version: "1.0.0" });
server.registerTool("probe", { inputSchema: { a: z.optional(z.string()), b: z.nullable(z.string()) } },
  async () => ({ content: [] }));
"""})
    [tool] = _read(tmp_path, "probe.ts").to_mcp()
    assert tool["inputSchema"]["required"] == ["b"]


def test_a_folder_of_fastmcp_tools_is_read_whole(tmp_path: Path) -> None:
    _write(tmp_path, {"limits.ts": FASTMCP_LIMITS, "server.ts": FASTMCP_SERVER})
    tools = extract_paths([tmp_path], root=tmp_path)
    assert tools.names() == ["parcel_shelve", "depot_status", "count_parcels"]
