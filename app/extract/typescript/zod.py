"""zod schemas (read from a tree-sitter tree) to the JSON Schema the MCP TypeScript SDK lists.

Two flavours: zod 4 (`z.toJSONSchema`, draft-07, input side: no `additionalProperties` on input objects) and
zod 3 through zod-to-json-schema (older SDKs: `additionalProperties: false` on every object).
"""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from app.extract.common import Unresolved
from app.extract.treesitter import fail, short, text
from app.extract.typescript.values import Scope
from app.extract.typescript.zod_composites import Prop, composite_base, composite_modifier, enum_schema
from app.extract.typescript.zod_patterns import IGNORED_MODIFIERS, PRIMITIVE_TYPES, STRING_FORMATS, ZOD4_STRING_FORMATS

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
_SAFE = 9007199254740991


class Zod:
    """Converts zod expressions of one file; `zod4` picks the flavour, `output` the side (outputSchema)."""

    def __init__(self, scope: Scope, *, zod4: bool) -> None:
        self.scope = scope
        self.zod4 = zod4
        # A description or default that cannot be read is left out of its property and reported from here.
        self.problems: list[Unresolved] = []

    def root(self, node: Node, *, output: bool = False) -> dict[str, Any]:
        """A tool's inputSchema/outputSchema from a raw shape `{a: z.string()}`, a `z.object(...)` or `X.shape`."""
        target = self.scope.resolve(node)
        if target.type == "member_expression" and text(target.child_by_field_name("property") or target) == "shape":
            target = self.scope.resolve(target.child_by_field_name("object"))  # type: ignore[arg-type]
        if target.type == "object":
            schema = self.object_from_shape(target, output=output)
        else:
            schema = self.prop(target, output=output).schema
        return {"$schema": DRAFT_07, **schema}

    def object_from_shape(self, shape: Node, *, output: bool, strict: bool = False) -> dict[str, Any]:
        props: dict[str, Any] = {}
        required: list[str] = []
        for key, _key_node, value in self.scope.pairs(shape):
            prop = self.prop(value, output=output)
            props[key] = prop.schema
            if not prop.optional and (output or not prop.has_default):
                required.append(key)
        out: dict[str, Any] = {"type": "object", "properties": props}
        if required:
            out["required"] = required
        if not self.zod4 or output or strict:
            out["additionalProperties"] = False
        return out

    def prop(self, node: Node, *, output: bool = False) -> Prop:
        """One zod expression: a base (`z.string()`, a same-file schema constant) and its modifier chain."""
        chain: list[tuple[str, list[Node], Node]] = []
        current = self.scope.resolve(node)
        prop: Prop | None = None
        while current.type == "call_expression":
            func = current.child_by_field_name("function")
            arguments = current.child_by_field_name("arguments") or current
            args = [a for a in arguments.named_children if a.type != "comment"]
            if func is None or func.type != "member_expression":
                break
            obj = func.child_by_field_name("object")
            name = text(func.child_by_field_name("property") or func)
            if obj is not None and text(obj) in {"z", "zod", "z.coerce", "zod.coerce"}:
                prop = self._base(name, args, current, output=output)
                break
            chain.append((name, args, current))
            current = self.scope.resolve(obj) if obj is not None else current
        if prop is None:
            raise fail(current, f"`{short(current)}` is not a zod schema of this file")
        for name, args, call in reversed(chain):
            prop = self._modifier(prop, name, args, call, output=output)
        return prop

    def _base(self, name: str, args: list[Node], call: Node, *, output: bool) -> Prop:
        if name in {"bigint", "date"} and self.zod4:
            raise fail(call, f"zod 4 cannot list `z.{name}()` in JSON Schema (the server fails to list it)")
        if name in PRIMITIVE_TYPES:
            schema: dict[str, Any] = {"type": PRIMITIVE_TYPES[name]}
            if name == "bigint":
                schema["format"] = "int64"
            if name == "int" and self.zod4:
                schema.update(minimum=-_SAFE, maximum=_SAFE)
            if name == "date":
                schema["format"] = "date-time"
            return Prop(schema)
        if name == "preprocess" and len(args) == 2:
            # Listed as the schema values are checked against; its input accepts anything, so it is not required.
            inner = self.prop(args[1], output=output)
            inner.optional = inner.optional or (self.zod4 and not output)
            return inner
        if name in {"any", "unknown"}:
            return Prop({}, optional=not self.zod4)  # zod 3 objects treat an any-typed key as optional
        if name in STRING_FORMATS and self.zod4:  # zod 4 top-level formats: z.email(), z.url()
            return self._modifier(Prop({"type": "string"}), name, [], call, output=output)
        if name == "object" or name == "strictObject":
            return Prop(
                self.object_from_shape(args[0], output=output, strict=name == "strictObject")
                if args
                else {"type": "object", "properties": {}}
            )
        if name == "array" and args:
            return Prop({"type": "array", "items": self.prop(args[0], output=output).schema})
        if name == "enum" and args:
            if self.zod4 and self.scope.resolve(args[0]).type != "array":
                return Prop(enum_schema(self, args[0]))  # zod 4's z.enum of an enum-like object
            values = self.scope.value(args[0])
            if isinstance(values, dict):
                values = list(values.values())
            return Prop({"type": "string", "enum": values})
        if name == "literal" and args:
            value = self.scope.value(args[0])
            if value is None and not self.zod4:  # zod-to-json-schema: `typeof null` is "object"
                return Prop({"type": "object"})
            return Prop({**_type_of(value), "const": value})
        if name in {"union", "discriminatedUnion"} and args:
            options = self.scope.resolve(args[-1])
            if options.type != "array":
                raise fail(options, "union options that are not an array literal of this file")
            schemas = [self.prop(o, output=output).schema for o in options.named_children if o.type != "comment"]
            if name == "discriminatedUnion" and self.zod4:
                return Prop({"oneOf": schemas})
            return Prop(self._union(schemas))
        if name == "record" and args:
            value = self.prop(args[-1], output=output).schema
            out: dict[str, Any] = {"type": "object"}
            keys = self.prop(args[0], output=output).schema if len(args) == 2 else {"type": "string"}
            if self.zod4:
                out["propertyNames"] = keys
            elif keys.get("type") == "string" and len(keys) > 1:  # zod-to-json-schema: a checked or enum key
                out["propertyNames"] = {k: v for k, v in keys.items() if k != "type"}
            out["additionalProperties"] = value
            if self.zod4 and isinstance(keys.get("enum"), list):  # every key of an enum must be present
                out["required"] = list(keys["enum"])
            return Prop(out)
        composite = composite_base(self, name, args, call, output=output)
        if composite is not None:
            return composite
        raise fail(call, f"the zod schema `z.{name}(...)` is not supported")

    def _modifier(self, prop: Prop, name: str, args: list[Node], call: Node, *, output: bool) -> Prop:
        schema = prop.schema
        arg = (lambda: self.scope.value(args[0])) if args else (lambda: None)
        if name == "describe":
            try:
                schema["description"] = self.scope.string(args[0])
            except Unresolved as exc:
                self.problems.append(exc)
        elif name == "meta" and args:
            meta = self.scope.value(args[0])
            schema.update(meta if isinstance(meta, dict) else {})
        elif name == "optional":
            prop.optional = True
        elif name == "nullish":
            prop.optional = True
            prop.schema = self._nullable(schema)
        elif name == "nullable":
            prop.schema = self._nullable(schema)
        elif name == "default":
            prop.has_default = True
            try:
                schema["default"] = arg()
            except Unresolved as exc:
                self.problems.append(exc)
        elif name in {"min", "max", "length", "gte", "lte", "gt", "lt"} and args:
            self._bound(schema, name, arg())
        elif name in {"positive", "negative", "nonnegative", "nonpositive"}:
            key = {"positive": "gt", "negative": "lt", "nonnegative": "gte", "nonpositive": "lte"}[name]
            self._bound(schema, key, 0)
        elif name == "nonempty":
            schema["minItems" if schema.get("type") == "array" else "minLength"] = 1
        elif name == "int":
            schema["type"] = "integer"
            if self.zod4:
                schema.setdefault("minimum", -_SAFE)
                schema.setdefault("maximum", _SAFE)
        elif name in STRING_FORMATS or (self.zod4 and name in ZOD4_STRING_FORMATS):
            if self.zod4 and name in ZOD4_STRING_FORMATS:
                if args:
                    raise fail(call, f"options of `.{name}(...)` change the pattern zod lists")
                fmt, pattern = ZOD4_STRING_FORMATS[name]
                if fmt is not None:
                    schema["format"] = fmt
                if name == "base64":
                    schema["contentEncoding"] = "base64"
                schema["pattern"] = pattern
            else:
                schema["format"] = STRING_FORMATS[name]
        elif name == "regex" and args:
            regex = self.scope.resolve(args[0])
            if regex.type != "regex":
                raise fail(regex, "a regex that is not a literal")
            schema["pattern"] = text(regex.child_by_field_name("pattern") or regex)
        elif name == "array":
            return Prop({"type": "array", "items": schema}, prop.optional, prop.has_default)
        elif name == "strict" and schema.get("type") == "object":
            schema["additionalProperties"] = False
        elif name == "extend" and args and schema.get("type") == "object":
            extra = self.object_from_shape(self.scope.resolve(args[0]), output=output)
            schema["properties"] = {**schema["properties"], **extra["properties"]}
            required = [r for r in schema.get("required", []) if r not in extra["properties"]]
            required += extra.get("required", [])
            schema.pop("required", None)
            if required:
                schema["required"] = required
        elif composite_modifier(self, prop, name, args, call, output=output):
            pass
        elif name not in IGNORED_MODIFIERS:
            raise fail(call, f"the zod method `.{name}()` is not supported")
        return prop

    def _bound(self, schema: dict[str, Any], name: str, value: Any) -> None:
        kind = schema.get("type")
        if kind == "string" or kind == "array":
            suffix = "Length" if kind == "string" else "Items"
            if name in {"min", "length", "gte"}:
                schema[f"min{suffix}"] = value
            if name in {"max", "length", "lte"}:
                schema[f"max{suffix}"] = value
            return
        key = {
            "min": "minimum",
            "gte": "minimum",
            "max": "maximum",
            "lte": "maximum",
            "gt": "exclusiveMinimum",
            "lt": "exclusiveMaximum",
        }.get(name)
        if key is None:
            raise Unresolved(f"`.{name}()` on a {kind} schema", line=0)
        if self.zod4 and key in schema and isinstance(value, (int, float)):
            # zod 4 keeps the tighter of two bounds (z.int() starts at the safe-integer range).
            value = max(schema[key], value) if key in {"minimum", "exclusiveMinimum"} else min(schema[key], value)
        schema[key] = value
        if self.zod4:
            _drop_looser(schema)

    def _nullable(self, schema: dict[str, Any]) -> dict[str, Any]:
        # A bare type becomes a type list (zod 3 keeps a description beside it; zod 4 does not).
        plain = {"type"} if self.zod4 else {"type", "description"}
        bare = isinstance(schema.get("type"), str) and set(schema) <= plain
        if bare and not (not self.zod4 and schema["type"] == "integer"):  # zod 3: `.int()` is a check
            return {**schema, "type": [schema["type"], "null"]}
        return {"anyOf": [schema, {"type": "null"}]}

    def _union(self, schemas: list[dict[str, Any]]) -> dict[str, Any]:
        if not self.zod4 and schemas and all(set(s) == {"type", "const"} for s in schemas):
            kinds = {s["type"] for s in schemas}
            if len(kinds) == 1:
                return {"type": kinds.pop(), "enum": [s["const"] for s in schemas]}
        if schemas and all(set(s) == {"type"} and isinstance(s["type"], str) for s in schemas):
            return {"type": [s["type"] for s in schemas]}  # a union of bare types is a type list
        if self.zod4 and schemas and all(set(s) == {"type"} for s in schemas):  # zod 4 joins type lists too
            return {"type": [t for s in schemas for t in (s["type"] if isinstance(s["type"], list) else [s["type"]])]}
        return {"anyOf": schemas}


def _drop_looser(schema: dict[str, Any]) -> None:
    """zod 4 lists one lower and one upper bound: an exclusive bound wins when it is at least as tight."""
    if "minimum" in schema and "exclusiveMinimum" in schema:
        schema.pop("minimum" if schema["exclusiveMinimum"] >= schema["minimum"] else "exclusiveMinimum")
    if "maximum" in schema and "exclusiveMaximum" in schema:
        schema.pop("maximum" if schema["exclusiveMaximum"] <= schema["maximum"] else "exclusiveMaximum")


def _type_of(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, (int, float)):
        return {"type": "number"}
    if value is None:
        return {"type": "null"}
    return {"type": "string"}
