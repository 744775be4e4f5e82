"""Go: JSON Schemas derived from Go types the way google/jsonschema-go's `For[T]` derives them, which is also
how the go-sdk's `mcp.AddTool(server, &mcp.Tool{...}, handler)` lists a tool whose InputSchema is not given (from
the handler's input and output types). Types are followed to their declarations inside the module.

The rules (jsonschema-go v0.3): string, boolean, integer (unsigned ones with `minimum: 0`, sized ones with their
range), number; `*T` allows null (`"type": ["null", T]`); slices `["null", "array"]` with items; arrays with
`minItems = maxItems = length`; `map[string]T` an object with `additionalProperties: T`; `any` unrestricted;
structs an object with `additionalProperties: false`, one property per exported field under its `json` name
(`json:"-"` skipped), required unless `omitempty`/`omitzero`, the `jsonschema:"..."` tag as description, fields
of embedded structs promoted; time.Time and slog.Level are strings."""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Node

from app.extract.treesitter import fail, short, text

_INTEGER_RANGES = {
    "int": None, "int64": None, "uint": (0, None), "uint64": (0, None), "uintptr": (0, None),
    "int8": (-128, 127), "uint8": (0, 255), "byte": (0, 255), "int16": (-32768, 32767), "uint16": (0, 65535),
    "int32": (-2147483648, 2147483647), "rune": (-2147483648, 2147483647), "uint32": (0, 4294967295),
}
_BASIC: dict[str, dict[str, Any]] = {"string": {"type": "string"}, "bool": {"type": "boolean"},
                                     "float32": {"type": "number"}, "float64": {"type": "number"}, "any": {}}
# Standard-library types jsonschema-go maps to strings (they marshal to JSON strings).
_STRINGS = {"time.Time", "slog.Level", "big.Int", "big.Rat", "big.Float"}
_TAG = re.compile(r'(\w+):"((?:[^"\\]|\\.)*)"')
# How deep named types may nest (a cycle stops earlier).
MAX_DEPTH = 32


def for_type(scope: Any, node: Node, *, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """The schema jsonschema-go's For[T] gives the type written at `node` (read in `scope`'s package)."""
    kind = node.type
    if len(seen) > MAX_DEPTH:
        raise fail(node, f"the type `{short(node)}` nests too deep")
    if kind in {"parenthesized_type", "type_elem"} and node.named_children:
        return for_type(scope, node.named_children[0], seen=seen)
    if kind == "pointer_type":
        inner = for_type(scope, node.named_children[0], seen=seen)
        if isinstance(inner.get("type"), str):
            inner["type"] = ["null", inner["type"]]
        return inner
    if kind == "slice_type":
        return {"type": ["null", "array"], "items": for_type(scope, node.child_by_field_name("element"), seen=seen)}  # type: ignore[arg-type]
    if kind == "array_type":
        length = int(text(node.child_by_field_name("length")), 0)  # type: ignore[arg-type]
        items = for_type(scope, node.child_by_field_name("element"), seen=seen)  # type: ignore[arg-type]
        return {"type": "array", "items": items, "minItems": length, "maxItems": length}
    if kind == "map_type":
        if text(node.child_by_field_name("key") or node) != "string":
            raise fail(node, f"the map type `{short(node)}` has keys that are not strings")
        return {"type": "object",
                "additionalProperties": for_type(scope, node.child_by_field_name("value"), seen=seen)}  # type: ignore[arg-type]
    if kind == "interface_type":
        return {}
    if kind == "struct_type":
        return _struct(scope, node, seen)
    if kind == "type_identifier":
        return _named(scope, text(node), node, seen)
    if kind == "qualified_type":
        return _qualified(scope, node, seen)
    raise fail(node, f"the type `{short(node)}` cannot be turned into a schema statically")


def _named(scope: Any, name: str, node: Node, seen: tuple[str, ...]) -> dict[str, Any]:
    if name in _BASIC:
        return dict(_BASIC[name])
    if name in _INTEGER_RANGES:
        out: dict[str, Any] = {"type": "integer"}
        bounds = _INTEGER_RANGES[name]
        if bounds is not None:
            out["minimum"] = bounds[0]
            if bounds[1] is not None:
                out["maximum"] = bounds[1]
        return out
    declared = scope.types.get(name)
    if declared is None:
        raise fail(node, f"the type `{name}` is not declared in this package")
    key = f"{id(scope.types)}.{name}"
    if key in seen:
        raise fail(node, f"the type `{name}` refers to itself")
    type_node, imports = declared
    return for_type(scope.in_file(imports), type_node, seen=(*seen, key))


def _qualified(scope: Any, node: Node, seen: tuple[str, ...]) -> dict[str, Any]:
    if text(node) in _STRINGS:
        return {"type": "string"}
    package = scope._package(node.child_by_field_name("package"))
    name = text(node.child_by_field_name("name") or node)
    if package is None or name not in package.types:
        raise fail(node, f"the type `{text(node)}` is not declared in this module")
    return _named(scope._package_scope(package), name, node, seen)


def _struct(scope: Any, node: Node, seen: tuple[str, ...]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    required: list[str] = []
    fields = next((c for c in node.named_children if c.type == "field_declaration_list"), None)
    for field in fields.named_children if fields is not None else []:
        if field.type != "field_declaration":
            continue
        names = [text(n) for n in field.children_by_field_name("name")]
        type_node = field.child_by_field_name("type")
        tags = dict(_TAG.findall(text(field.child_by_field_name("tag") or field)[1:-1])) \
            if field.child_by_field_name("tag") is not None else {}
        if type_node is None:
            continue
        if not names:  # embedded: its fields are promoted (jsonschema-go skips the field itself)
            embedded = for_type(scope, type_node, seen=seen)
            for key, value in embedded.get("properties", {}).items():
                properties.setdefault(key, value)
            required.extend(r for r in embedded.get("required", []) if r not in required)
            continue
        json_name, _, options = tags.get("json", "").partition(",")
        if json_name == "-" and not options:
            continue
        for name in names:
            if not name[:1].isupper():
                continue
            prop = for_type(scope, type_node, seen=seen)
            if "jsonschema" in tags:
                prop["description"] = tags["jsonschema"].replace('\\"', '"')
            key = json_name or name
            properties[key] = prop
            if not {"omitempty", "omitzero"} & set(options.split(",")):
                required.append(key)
    out: dict[str, Any] = {"type": "object"}
    if properties:
        out["properties"] = properties
    if required:
        out["required"] = required
    out["additionalProperties"] = False
    return out


def generic_for(node: Node) -> Node | None:
    """The T of `jsonschema.For[T](...)` (parsed as a call or as a conversion to a generic type)."""
    func = node.child_by_field_name("function") if node.type == "call_expression" else node.child_by_field_name("type")
    arguments = node.child_by_field_name("type_arguments") if node.type == "call_expression" else None
    if func is not None and func.type == "generic_type":
        arguments, func = func.child_by_field_name("type_arguments"), func.child_by_field_name("type")
    if func is None or arguments is None or not text(func).endswith("jsonschema.For"):
        return None
    return arguments.named_children[0] if arguments.named_children else None


def handler_types(handler: Node, scope: Any) -> tuple[Any, Node | None, Node | None] | None:
    """(scope of its package, input type, output type) of a go-sdk handler `func(ctx, req, in In) (*R, Out, error)`
    given by name (this package or another of the module) or as a function literal."""
    decl: Node | None = None
    owner = scope
    if handler.type == "func_literal":
        decl = handler
    elif handler.type == "identifier" and text(handler) in scope.functions:
        decl, imports = scope.functions[text(handler)]
        owner = scope.in_file(imports)
    elif handler.type == "selector_expression":
        package = scope._package(handler.child_by_field_name("operand"))
        found = package.functions.get(text(handler.child_by_field_name("field") or handler)) if package else None
        if found is not None:
            decl, owner = found[0], scope._package_scope(package).in_file(found[1])
    if decl is None:
        return None
    params = _types(decl.child_by_field_name("parameters"))
    results = _types(decl.child_by_field_name("result"))
    return owner, (params[2] if len(params) == 3 else None), (results[1] if len(results) == 3 else None)


def _types(node: Node | None) -> list[Node]:
    out: list[Node] = []
    for param in node.named_children if node is not None and node.type == "parameter_list" else []:
        if param.type == "parameter_declaration" and param.child_by_field_name("type") is not None:
            out.extend([param.child_by_field_name("type")] * max(1, len(param.children_by_field_name("name"))))  # type: ignore[list-item]
    return out
