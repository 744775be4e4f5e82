"""TypeScript/JavaScript tools built by a local helper: `name: tool({ description, parameters, annotations,
execute })` entries of an object (the key is the tool's name) and `tool({ name, ... })` calls, with the fields
spread in from shared definitions (`...toolDefs.name`) and the parameters given as zod schemas or JSON Schema."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from app.extract.common import Draft, Unresolved
from app.extract.treesitter import span, text

# Keys that make an object given to a `...tool({...})` helper a tool definition.
_TOOL_KEYS = {"parameters", "inputSchema", "description"}


def read_helper_entry(reader: Any, call: Node) -> None:
    """One `x: tool({...})` entry or `tool({name, ...})` call, read with the reader of ts_source.py; other
    calls of such helpers are left alone."""
    if reader.other_library and not reader.speaks_mcp:
        return  # an agent library's `tool({...})` (the AI SDK's...), in a file that imports nothing of MCP
    arguments = call.child_by_field_name("arguments")
    config = next((a for a in arguments.named_children if a.type != "comment"), None) if arguments else None
    parent = call.parent
    entry = parent if parent is not None and parent.type == "pair" else None
    named = config is not None and any(
        c.type == "pair" and text(c.child_by_field_name("key") or c) in {"name", '"name"', "'name'"}
        for c in config.named_children
    )
    if config is None or (entry is None and not named):
        return  # the helper's own body (`return tool({...definition})`): no tool is named here
    try:
        pairs = {key: value for key, _k, value in reader.scope.pairs(config)}
    except Unresolved as exc:
        reader.result.unresolved("the definition of a tool built by a helper", exc)
        return
    if not _TOOL_KEYS & pairs.keys():
        return
    name_node = pairs["name"] if named else entry.child_by_field_name("key")  # type: ignore[union-attr]
    try:
        name = reader.scope.string(name_node) if named else reader.scope.key(entry)
    except Unresolved as exc:
        reader.result.unresolved("the name of a tool built by a helper", exc)
        return
    reader.claimed.add(config.id)
    if name_node is None:
        return
    lines = span(entry if entry is not None else call)
    draft = Draft(name=name, fields={}, tool_lines=lines, name_lines=span(name_node))
    reader._plain(draft, pairs, ("title",))
    if "description" in pairs:
        reader._description(draft, pairs["description"])
    schema = pairs.get("parameters", pairs.get("inputSchema"))
    draft.fields["inputSchema"] = {"type": "object", "properties": {}}
    if schema is not None:
        reader._schema(draft, "inputSchema", schema, literal=reader.scope.resolve(schema).type == "object"
                       and "type" in {k for k, _kn, _v in reader.scope.pairs(schema)})
    if "outputSchema" in pairs:
        reader._schema(draft, "outputSchema", pairs["outputSchema"], output=True)
    reader._plain(draft, pairs, ("annotations", "_meta", "icons"))
    reader.result.drafts.append(draft)
