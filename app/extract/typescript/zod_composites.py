"""zod schemas built from other schemas: tuples, native enums, intersections, `.or`/`.and`, the function forms
(`z.optional(x)`), `z.lazy`, and the object methods (partial, required, pick, omit, merge, catchall)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from tree_sitter import Node

from app.extract.treesitter import fail, short
from app.extract.typescript.values import Scope

# zod 4 (`util.escapeRegex`) and zod-to-json-schema (every character that is not a letter or a digit) escape
# the text of `.startsWith("...")` differently.
_ZOD4_SPECIAL = re.compile(r"[.*+?^${}()|[\]\\]")
_ZOD3_SPECIAL = re.compile(r"[^A-Za-z0-9]")
# (zod 4 format, zod 4 pattern, zod 3 pattern) of the string checks that write a pattern.
_TEXT_CHECKS = {
    "startsWith": ("starts_with", "^{}.*", "^{}"),
    "endsWith": ("ends_with", ".*{}$", "{}$"),
    "includes": ("includes", "{}", "{}"),
}
# Keys of an object schema that an intersection in zod 4 merges into one object.
_PLAIN_OBJECT = {"type", "properties", "required", "additionalProperties"}


@dataclass
class Prop:
    """One converted zod expression: its JSON Schema, and whether its key may be left out."""

    schema: dict[str, Any]
    optional: bool = False
    has_default: bool = False


class Zod(Protocol):
    """The converter of zod.py, as this module calls it."""

    scope: Scope
    zod4: bool

    def prop(self, node: Node, *, output: bool = False) -> Prop: ...

    def _modifier(self, prop: Prop, name: str, args: list[Node], call: Node, *, output: bool) -> Prop: ...

    def _union(self, schemas: list[dict[str, Any]]) -> dict[str, Any]: ...


def composite_base(zod: Zod, name: str, args: list[Node], call: Node, *, output: bool) -> Prop | None:
    """`z.<name>(...)` for the schemas of this module; None when `name` is none of them."""
    if name == "tuple" and args:
        items = zod.scope.resolve(args[0])
        if items.type != "array":
            raise fail(items, "tuple items that are not an array literal")
        schemas = [zod.prop(i, output=output).schema for i in items.named_children if i.type != "comment"]
        rest = zod.prop(args[1], output=output).schema if len(args) > 1 else None
        return Prop(tuple_schema(zod.zod4, schemas, rest))
    if name == "nativeEnum" and args:
        return Prop(enum_schema(zod, args[0]))
    if name == "intersection" and len(args) == 2:
        return Prop(intersection(zod.zod4, zod.prop(args[0], output=output).schema,
                                 zod.prop(args[1], output=output).schema, call))
    if name in {"optional", "nullable", "nullish", "readonly"} and args:
        inner = zod.prop(args[0], output=output)
        return zod._modifier(inner, name, [], call, output=output)
    if name == "lazy" and args:
        body = zod.scope.resolve(args[0])
        body = body.child_by_field_name("body") if body.type == "arrow_function" else None  # type: ignore[assignment]
        if body is None or body.type == "statement_block":
            raise fail(args[0], "a `z.lazy(...)` that does not return a schema expression")
        return zod.prop(body, output=output)
    if name == "never":
        return Prop({"not": {}})
    if name == "set" and args and not zod.zod4:  # zod 4 cannot list a set
        return Prop({"type": "array", "uniqueItems": True, "items": zod.prop(args[0], output=output).schema})
    return None


def composite_modifier(zod: Zod, prop: Prop, name: str, args: list[Node], call: Node, *, output: bool) -> bool:
    """Applies `.<name>(...)` when it is one of this module's methods; False when it is not."""
    schema = prop.schema
    if name in {"or", "and"} and args:
        other = zod.prop(args[0], output=output).schema
        prop.schema = zod._union([schema, other]) if name == "or" else intersection(zod.zod4, schema, other, call)
    elif name == "rest" and args and isinstance(schema.get("items"), list):
        schema["additionalItems"] = zod.prop(args[0], output=output).schema
        schema.pop("maxItems", None)
    elif name in {"multipleOf", "step"} and args:
        schema["multipleOf"] = zod.scope.value(args[0])
    elif name in _TEXT_CHECKS and args:
        if "pattern" in schema:
            raise fail(call, "a second pattern on one string (zod lists them as allOf)")
        fmt, pattern4, pattern3 = _TEXT_CHECKS[name]
        value = zod.scope.string(args[0])
        if zod.zod4:
            schema["format"] = fmt
            schema["pattern"] = pattern4.format(_ZOD4_SPECIAL.sub(lambda m: "\\" + m.group(), value))
        else:
            schema["pattern"] = pattern3.format(_ZOD3_SPECIAL.sub(lambda m: "\\" + m.group(), value))
    elif name == "readonly":
        if zod.zod4:
            schema["readOnly"] = True
    elif name in {"passthrough", "loose"} and schema.get("type") == "object":
        schema["additionalProperties"] = {} if zod.zod4 else True
    elif name == "catchall" and args and schema.get("type") == "object":
        schema["additionalProperties"] = zod.prop(args[0], output=output).schema
    elif name in {"partial", "required", "pick", "omit"} and schema.get("type") == "object":
        _object_keys(zod, schema, name, args)
    elif name == "merge" and args and schema.get("type") == "object":
        other = zod.prop(args[0], output=output).schema
        if other.get("type") != "object" or "properties" not in other:
            raise fail(args[0], f"`.merge({short(args[0])})` of something that is not a zod object")
        schema["properties"] = {**schema["properties"], **other["properties"]}
        required = [r for r in schema.get("required", []) if r not in other["properties"]]
        _set_required(schema, required + other.get("required", []))
    else:
        return False
    return True


def tuple_schema(zod4: bool, items: list[dict[str, Any]], rest: dict[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "array", "items": items}
    if zod4:
        out["additionalItems"] = rest if rest is not None else False
        if items:
            out["minItems"] = len(items)
    else:
        out["minItems"] = len(items)
        if rest is not None:
            out["additionalItems"] = rest
    if rest is None:
        out["maxItems"] = len(items)
    return out


def enum_schema(zod: Zod, node: Node) -> dict[str, Any]:
    """`z.nativeEnum(E)` / zod 4's `z.enum(E)` of a TS enum or a constant object: its values."""
    members = zod.scope.enum_members(node)
    if members is not None:
        values = [zod.scope.value(v) for v in members.values()]
    else:
        table = zod.scope.value(node)
        if not isinstance(table, dict):
            raise fail(node, f"`{short(node)}` is not an enum or an object of constants")
        # A numeric TS enum maps values back to names; zod leaves those reverse entries out.
        values = [v for k, v in table.items() if not isinstance(table.get(_js_key(v)), (int, float))]
    kinds = {"string" if isinstance(v, str) else "number" for v in values
             if isinstance(v, (str, int, float)) and not isinstance(v, bool)}
    if len(kinds) != 1 or len(values) != sum(1 for v in values if isinstance(v, (str, int, float))):
        if zod.zod4:
            return {"enum": values}
        return {"type": sorted(kinds, reverse=True), "enum": values}
    return {"type": kinds.pop(), "enum": values}


def intersection(zod4: bool, left: dict[str, Any], right: dict[str, Any], call: Node) -> dict[str, Any]:
    """zod 4 merges two plain objects into one; otherwise both list `allOf` (zod-to-json-schema flattens
    nested ones and drops `additionalProperties: false` from its members)."""
    if zod4:
        if all(s.get("type") == "object" and set(s) <= _PLAIN_OBJECT for s in (left, right)):
            props = dict(left.get("properties", {}))
            for key, value in right.get("properties", {}).items():
                props[key] = {"allOf": [props[key], value]} if key in props and props[key] != value else value
            out: dict[str, Any] = {"type": "object", "properties": props}
            required = list(dict.fromkeys([*left.get("required", []), *right.get("required", [])]))
            if required:
                out["required"] = required
            return out
        if any("anyOf" in s or "oneOf" in s for s in (left, right)):
            raise fail(call, "an intersection with a union (zod 4 rewrites it)")
        return {"allOf": [left, right]}
    members: list[dict[str, Any]] = []
    for schema in (left, right):
        nested = schema.get("allOf") if schema.get("type") != "string" else None
        for member in nested if isinstance(nested, list) else [schema]:
            if member.get("additionalProperties") is False:
                member = {k: v for k, v in member.items() if k != "additionalProperties"}
            members.append(member)
    return {"allOf": members}


def _object_keys(zod: Zod, schema: dict[str, Any], name: str, args: list[Node]) -> None:
    """`.partial()`, `.required()`, `.pick({...})`, `.omit({...})`, with or without a key mask."""
    keys = list(schema["properties"])
    mask = [k for k, _kn, _v in zod.scope.pairs(args[0])] if args else None
    required = list(schema.get("required", []))
    if name == "pick" or name == "omit":
        if mask is None:
            raise fail(args[0] if args else zod.scope.root, f"`.{name}()` without keys")
        kept = [k for k in keys if (k in mask) == (name == "pick")]
        schema["properties"] = {k: schema["properties"][k] for k in kept}
        required = [r for r in required if r in kept]
    elif name == "partial":
        required = [r for r in required if mask is not None and r not in mask]
    else:
        required = [k for k in keys if k in required or mask is None or k in mask]
    _set_required(schema, required)


def _set_required(schema: dict[str, Any], required: list[str]) -> None:
    properties = schema.pop("properties")
    additional = schema.pop("additionalProperties", None)
    schema.pop("required", None)
    schema["properties"] = properties
    if required:
        schema["required"] = required
    if additional is not None:
        schema["additionalProperties"] = additional


def _js_key(value: Any) -> str:
    """The property key JavaScript makes of a value (`1` -> "1")."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(int(value)) if float(value).is_integer() else repr(value)
    return str(value)
