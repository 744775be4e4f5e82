"""Tools of the TypeScript `fastmcp` framework: `server.addTool({name, description, parameters, execute})` and
`server.addTools([...])`, with the definitions written in place, in constants, imported, or returned by a
factory function of this file; listed as fastmcp lists them."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from app.extract.common import Draft, Unresolved
from app.extract.treesitter import call_args, fail, local_span, short, span, text

# What fastmcp's tools/list sends for a tool without `parameters`.
EMPTY_PARAMETERS: dict[str, Any] = {"additionalProperties": False, "properties": {}, "type": "object"}
# Keys of an object passed to `addTool` that make it a tool definition of fastmcp's shape.
_TOOL_KEYS = {"execute", "parameters"}
# How many nested spreads of tool arrays are followed (`addTools([...common, ...extra])`).
_MAX_SPREAD_DEPTH = 4


def read_fastmcp_call(reader: Any, call: Node) -> None:
    """One `x.addTool(def)` or `x.addTools([defs])` call, read with the reader of ts_source.py."""
    if reader.other_library and not reader.speaks_mcp:
        return
    func = call.child_by_field_name("function")
    method = text(func.child_by_field_name("property") or func) if func is not None else ""
    args = call_args(call)
    if not args:
        return
    if method == "addTool":
        _definition(reader, args[0], call)
        return
    try:
        definitions = _elements(reader, args[0], 0)
    except Unresolved as exc:
        if reader.speaks_mcp:
            reader.result.unresolved("the tools added with `.addTools()`", exc)
        return
    for node in definitions:
        _definition(reader, node, call)


def _elements(reader: Any, node: Node, depth: int) -> list[Node]:
    target = reader.scope.resolve(node)
    if target.type != "array" or depth > _MAX_SPREAD_DEPTH:
        raise fail(node, f"`{short(node)}` is not an array literal of this file")
    out: list[Node] = []
    for child in target.named_children:
        if child.type == "spread_element" and child.named_children:
            out.extend(_elements(reader, child.named_children[0], depth + 1))
        elif child.type != "comment":
            out.append(child)
    return out


def _definition(reader: Any, node: Node, call: Node) -> None:
    scope = reader.scope
    try:
        target = _returned_object(scope, scope.resolve(node))
        pairs = {key: value for key, _k, value in scope.pairs(target)}
    except Unresolved as exc:
        if reader.speaks_mcp:
            reader.result.unresolved("the definition of a tool added with `.addTool()`", exc)
        return
    if "name" not in pairs or not (_TOOL_KEYS & pairs.keys() or reader.speaks_mcp):
        return  # another library's `addTool`, in a file that imports nothing of MCP
    try:
        name = scope.string(pairs["name"])
    except Unresolved as exc:
        reader.result.unresolved("the name of a tool added with `.addTool()`", exc)
        return
    reader.claimed.add(target.id)
    # The registration site, as for `registerTool(name, config)`: tools are listed in the order they are added.
    lines = local_span(scope.root, node) or span(call)
    draft = Draft(name=name, fields={}, tool_lines=lines, name_lines=scope.lines(pairs["name"], or_reference=True))
    if "description" in pairs:
        reader._description(draft, pairs["description"])
    if "parameters" in pairs:
        reader._schema(draft, "inputSchema", pairs["parameters"])
        if "inputSchema" in draft.fields:
            draft.fields["inputSchema"] = strict_json_schema(draft.fields["inputSchema"])
    else:
        draft.fields["inputSchema"] = dict(EMPTY_PARAMETERS)
    if "outputSchema" in pairs:  # converted like the parameters (the input side), left as converted
        reader._schema(draft, "outputSchema", pairs["outputSchema"])
    reader._plain(draft, pairs, ("annotations", "_meta"))
    reader.result.drafts.append(draft)


def _returned_object(scope: Any, target: Node) -> Node:
    """`makeTool()` of a function of this file that returns an object literal: that object (its names must be
    constants; a value taken from the function's parameters is a finding when read)."""
    if target.type != "call_expression":
        return target
    func = target.child_by_field_name("function")
    function = _function(scope, func) if func is not None and func.type == "identifier" else None
    if function is None or function.type not in {"arrow_function", "function_expression", "function",
                                                  "function_declaration"}:
        return target
    body = function.child_by_field_name("body")
    if body is not None and body.type == "statement_block":
        returns = [s for s in body.named_children if s.type == "return_statement"]
        body = returns[-1].named_children[0] if len(returns) == 1 and returns[-1].named_children else None
    if body is None:
        return target
    body = scope.resolve(body)
    return body if body.type == "object" else target


def _function(scope: Any, name: Node) -> Node | None:
    """The function a name calls: a `const f = () => ...` or a `function f() {...}` declared at the top level."""
    target = scope.resolve(name)
    if target.type != "identifier":
        return target
    for statement in scope.root.named_children:
        declared = statement.child_by_field_name("declaration") if statement.type == "export_statement" else statement
        if declared is not None and declared.type == "function_declaration":
            own = declared.child_by_field_name("name")
            if own is not None and text(own) == text(name):
                return declared
    return None


def strict_json_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """fastmcp's `strictJsonSchema` (xsschema): `additionalProperties: false` on the schema and on each
    property whose type is "object", recursively."""
    out = {**schema, "additionalProperties": False}
    properties = schema.get("properties")
    if isinstance(properties, dict):
        out["properties"] = {
            key: strict_json_schema(value) if isinstance(value, dict) and value.get("type") == "object" else value
            for key, value in properties.items()
        }
    else:
        out.pop("properties", None)
    return out
