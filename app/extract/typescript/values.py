"""Evaluate JavaScript/TypeScript literal expressions from a tree-sitter tree (constants of the same file)."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from app.extract.common import Unresolved
from app.extract.treesitter import ValueLines, captures, fail, short, string_children, text
from app.extract.typescript.classes import bind_classes
from app.extract.typescript.imports import DEFAULT_EXPORT, ModuleLoader, bind_imports
from app.extract.typescript.operators import binary, template

# Wrappers that do not change a value: `(x)`, `x as T`, `x satisfies T`, `x!`.
_TRANSPARENT = {"parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression"}


_DECLARATIONS = "(variable_declarator name: (identifier) value: (_)) @v"
_ENUMS = "(enum_declaration) @enum"
_DEFAULT = "(program (export_statement value: (_) @value))"

__all__ = ["ModuleLoader", "Scope"]


class Scope(ValueLines):
    """`const NAME = <expr>` declarations of one file: top-level ones, else ones declared exactly once anywhere.
    Values imported from other files are resolved in the scope of their own file (`owners`)."""

    def __init__(
        self, root: Node, *, language: str = "typescript", modules: ModuleLoader | None = None
    ) -> None:
        self.root = root
        self.nodes: dict[str, Node] = {}
        self.namespaces: dict[str, dict[str, Node]] = {}
        self.owners: dict[Node, Scope] = {root: self}  # the root of each file read -> that file's scope
        counts: dict[str, int] = {}
        anywhere: dict[str, Node] = {}
        for node in captures(language, _DECLARATIONS, root).get("v", []):
            name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            if name is None or value is None:
                continue
            key = text(name)
            counts[key] = counts.get(key, 0) + 1
            anywhere[key] = value
            if _top_level(node):
                self.nodes[key] = value
        for key, value in anywhere.items():
            if key not in self.nodes and counts[key] == 1:
                self.nodes[key] = value
        # `enum ToolName { ECHO = "echo" }`: members with a written value (TypeScript only).
        self.enums: dict[str, dict[str, Node]] = {}
        self.enum_sizes: dict[str, int] = {}  # members with or without a written value
        if language != "javascript":
            for enum in captures(language, _ENUMS, root).get("enum", []):
                name, body = enum.child_by_field_name("name"), enum.child_by_field_name("body")
                members = {
                    text(m.child_by_field_name("name")): m.child_by_field_name("value")  # type: ignore[arg-type]
                    for m in (body.named_children if body is not None else [])
                    if m.type == "enum_assignment" and m.child_by_field_name("value") is not None
                }
                if name is not None:
                    self.enums[text(name)] = members  # type: ignore[assignment]
                    self.enum_sizes[text(name)] = sum(
                        1 for m in (body.named_children if body is not None else [])
                        if m.type in {"enum_assignment", "property_identifier", "string"})
        for value in captures(language, _DEFAULT, root).get("value", []):
            self.nodes[DEFAULT_EXPORT] = value
        bind_classes(self.nodes, root)
        # `this.x` -> the class field defining it, while a tool class is read (ts_classes.py); else None.
        self.fields: dict[str, Node] | None = None
        if modules is not None:
            bind_imports(self, root, language, modules)
        self._busy: set[str] = set()

    def _owner(self, node: Node) -> Scope:
        """The scope of the file `node` is written in (an imported module's, or this one's)."""
        top = node
        while top.parent is not None:
            top = top.parent
        return self.owners.get(top, self)

    def _member(self, node: Node) -> Node | None:
        """`ns.X` of an imported namespace, `Enum.X` of an enum, `CONSTS.X` of a same-file object literal."""
        obj = node.child_by_field_name("object")
        if node.type == "subscript_expression":  # `CONSTS["x"]` with a string key
            index = node.child_by_field_name("index")
            if obj is None or index is None or index.type != "string":
                return None
            key = string_children(index)
        else:
            prop = node.child_by_field_name("property")
            if obj is None or prop is None or prop.type != "property_identifier":
                return None
            key = text(prop)
        if obj.type == "identifier":
            for table in (self.namespaces.get(text(obj)), self.enums.get(text(obj))):
                if table is not None and key in table:
                    return table[key]
        target = self.resolve(obj)
        if target.type == "object":
            for child in target.named_children:
                if child.type == "pair" and text(child.child_by_field_name("key") or child).strip("\"'") == key:
                    return child.child_by_field_name("value")
        return None

    def enum_members(self, node: Node) -> dict[str, Node] | None:
        """The members of the TS enum `node` names (None: not an enum); an enum with members whose values
        TypeScript numbers itself is a finding."""
        owner = self._owner(node)
        name = text(node)
        if node.type != "identifier" or name not in owner.enums:
            return None
        members = owner.enums[name]
        if owner.enum_sizes.get(name, len(members)) != len(members):
            raise fail(node, f"the enum `{name}` has members without a written value")
        return members

    def resolve(self, node: Node) -> Node:
        """Follow identifiers and transparent wrappers to the expression that defines the value."""
        seen: set[tuple[int, str]] = set()
        while True:
            owner = self._owner(node) if node.type in {"identifier", "member_expression",
                                                        "subscript_expression"} else self
            if node.type in _TRANSPARENT and node.named_children:
                node = node.named_children[0]
            elif (field := self._field(node)) is not None and (0, field) not in seen:
                seen.add((0, field))
                node = self.fields[field]  # type: ignore[index]
            elif node.type == "identifier" and text(node) in owner.nodes and (id(owner), text(node)) not in seen:
                seen.add((id(owner), text(node)))
                node = owner.nodes[text(node)]
            elif node.type in {"member_expression", "subscript_expression"}:
                member = owner._member(node)
                if member is None:
                    return node
                node = member
            else:
                return node

    def _field(self, node: Node) -> str | None:
        """`x` of `this.x` when the class being read defines a field `x`."""
        if self.fields is None or node.type != "member_expression":
            return None
        obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
        if obj is None or prop is None or obj.type != "this" or text(prop) not in self.fields:
            return None
        return text(prop)

    def value(self, node: Node) -> Any:
        node = self.resolve(node)
        kind = node.type
        if kind == "string":
            return string_children(node)
        if kind == "template_string":
            return template(node, self.value)
        if kind == "number":
            return _number(text(node), node)
        if kind in {"true", "false"}:
            return kind == "true"
        if kind == "null":
            return None
        if kind == "array":
            out: list[Any] = []
            for child in node.named_children:
                if child.type == "spread_element":
                    spread = self.value(child.named_children[0])
                    if not isinstance(spread, list):
                        raise fail(child, "a spread of a non-array")
                    out.extend(spread)
                elif child.type != "comment":
                    out.append(self.value(child))
            return out
        if kind == "object":
            return self.object(node)
        if kind == "binary_expression":
            return binary(node, self.value)
        if kind == "unary_expression" and text(node).startswith(("-", "+")):
            operand = self.value(node.named_children[0])
            if isinstance(operand, (int, float)) and not isinstance(operand, bool):
                return -operand if text(node).startswith("-") else operand
        if kind == "call_expression":
            return self._call(node)
        if kind == "identifier":
            if text(node) == "undefined":
                return None
            raise fail(node, f"`{text(node)}` is not a constant defined in this file")
        raise fail(node, f"`{short(node)}` is computed at run time")

    def object(self, node: Node) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for child in node.named_children:
            if child.type == "pair":
                out[self.key(child)] = self.value(child.child_by_field_name("value"))  # type: ignore[arg-type]
            elif child.type == "shorthand_property_identifier":
                out[text(child)] = self.value(child)
            elif child.type == "spread_element":
                spread = self.value(child.named_children[0])
                if not isinstance(spread, dict):
                    raise fail(child, "a spread of a non-object")
                out.update(spread)
            elif child.type != "comment":
                raise fail(child, f"an object member `{short(child)}`")
        return out

    def pairs(self, node: Node) -> list[tuple[str, Node, Node]]:
        """(key, key node, value node) of an object literal, spreads of same-file objects expanded."""
        node = self.resolve(node)
        if node.type != "object":
            raise fail(node, f"`{short(node)}` is not an object literal of this file")
        out: list[tuple[str, Node, Node]] = []
        for child in node.named_children:
            if child.type == "pair":
                key_node = child.child_by_field_name("key")
                out.append((self.key(child), key_node, child.child_by_field_name("value")))  # type: ignore[arg-type]
            elif child.type == "shorthand_property_identifier":
                out.append((text(child), child, child))
            elif child.type == "spread_element":
                out.extend(self.pairs(self.shape_of(child.named_children[0])))
            elif child.type == "method_definition":
                name = child.child_by_field_name("name")
                out.append((text(name) if name else "", child, child))
        return out

    def shape_of(self, node: Node) -> Node:
        """The object literal behind `X.shape` or `z.object({...})` (zod shapes spread into others); else `node`."""
        target = self.resolve(node)
        if target.type == "member_expression" and text(target.child_by_field_name("property") or target) == "shape":
            target = self.resolve(target.child_by_field_name("object"))  # type: ignore[arg-type]
        if target.type == "call_expression" and text(target.child_by_field_name("function") or target).endswith(
            ".object"
        ):
            arguments = target.child_by_field_name("arguments") or target
            args = [a for a in arguments.named_children if a.type != "comment"]
            if args:
                return self.resolve(args[0])
        return target

    def key(self, pair: Node) -> str:
        key = pair.child_by_field_name("key")
        if key is None:
            raise fail(pair, "an object key")
        if key.type in {"property_identifier", "number"}:
            return text(key)
        if key.type == "string":
            return string_children(key)
        if key.type == "computed_property_name" and key.named_children:
            value = self.value(key.named_children[0])
            if isinstance(value, str):
                return value
        raise fail(key, f"the computed key `{short(key)}`")

    def string(self, node: Node) -> str:
        value = self.value(node)
        if not isinstance(value, str):
            raise fail(node, f"`{short(node)}` is not a string")
        return value

    def _call(self, node: Node) -> Any:
        func = node.child_by_field_name("function")
        if func is not None and func.type == "member_expression":
            prop = func.child_by_field_name("property")
            obj = func.child_by_field_name("object")
            name = text(prop) if prop else ""
            args = [a for a in (node.child_by_field_name("arguments") or node).named_children if a.type != "comment"]
            if name in {"trim", "trimEnd", "trimStart"} and obj is not None and not args:
                value = self.string(obj)
                return value.strip() if name == "trim" else value.rstrip() if name == "trimEnd" else value.lstrip()
            if name == "join" and obj is not None and len(args) <= 1:
                items = self.value(obj)
                sep = self.string(args[0]) if args else ","
                if isinstance(items, list) and all(isinstance(i, str) for i in items):
                    return sep.join(items)
        raise fail(node, f"a call `{short(node)}` computed at run time")


def _top_level(node: Node) -> bool:
    parent = node.parent
    while parent is not None and parent.type in {"lexical_declaration", "variable_declaration", "export_statement"}:
        parent = parent.parent
    return parent is None or parent.type == "program"


def _number(raw: str, node: Node) -> int | float:
    raw = raw.replace("_", "")
    try:
        if raw.lower().startswith(("0x", "0o", "0b")):
            return int(raw, 0)
        value = float(raw)
    except ValueError:
        raise Unresolved(f"the number `{raw}`", line=node.start_point[0] + 1) from None
    # JSON written by JavaScript has no 1.0: integral numbers print as integers.
    return int(value) if value.is_integer() and abs(value) < 2**63 else value

