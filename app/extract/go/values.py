"""Evaluate Go literal expressions from a tree-sitter tree: strings, numbers, same-file constants, composite
literals of jsonschema.Schema and maps, and the default text of `t("KEY", "default")` translation helpers.
Composite literals are read in app/extract/go/composites.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tree_sitter import Node

from app.extract.common import Unresolved
from app.extract.go import methods as go_methods
from app.extract.go.bound import argument_value
from app.extract.go.calls import HelperCalls
from app.extract.go.composites import CompositeLiterals
from app.extract.go.declarations import GoModule, imports_of, type_specs
from app.extract.go.known import KnownCalls
from app.extract.go.locals import LocalVariables
from app.extract.go.statements import Closure
from app.extract.go.structs import for_type, generic_for
from app.extract.treesitter import ValueLines, fail, short, text, unescape

_COMPARISONS = {"==", "!=", "&&", "||"}


class GoScope(LocalVariables, HelperCalls, KnownCalls, CompositeLiterals, ValueLines):
    """Package-level `const`/`var` declarations of one file; with `module` and `functions`, the helpers of the
    module are followed (app/extract/go/calls.py)."""

    def __init__(self, root: Node, *, module: GoModule | None = None) -> None:
        self.root = root
        self.module = module
        self.imports = imports_of(root)
        self.functions: dict[str, tuple[Node, dict[str, str]]] = {}
        self.types = {name: (node, self.imports) for name, node in type_specs(root).items()}
        self.env: dict[str, Any] = {}
        # Parameter -> the argument nodes of the call being read and the caller's scope (app/extract/go/wrappers.py).
        self.arguments: dict[str, Any] = {}
        self.call: Any = None  # that call (a go_wrappers.CallSite), None outside a function read at a call
        self.wrapped: dict[Any, Any] = {}  # what go_wrappers found once per run (tool-building functions)
        self.depth = 0
        self.load_package = None
        self.package: Any = None  # the GoPackage this file belongs to, when read from disk
        self.folder: Path | None = None  # the folder of that package, when read from disk
        # Schema helpers of the package: name -> properties it sets (`schema.Properties["page"] = ...`).
        self.schema_helpers: dict[str, list[tuple[str, Node]]] = {}
        # Properties set on a local schema variable between its declaration and its use, by value node id.
        self.patches: dict[int, list[tuple[str, Node]]] = {}
        self.map_patches: dict[int, list[tuple[str, Node]]] = {}
        self._locals: dict[tuple[int, str], Node | None] = {}
        self.reassigned: dict[tuple[int, str], int] = {}
        self.nodes: dict[str, Node] = {}
        for decl in root.named_children:
            if decl.type not in {"const_declaration", "var_declaration"}:
                continue
            specs = [s for s in _descendants(decl) if s.type in {"const_spec", "var_spec"}]
            for spec in specs:
                names = [c for c in spec.children_by_field_name("name")]
                values = spec.child_by_field_name("value")
                exprs = [v for v in values.named_children] if values is not None else []
                for name, value in zip(names, exprs, strict=False):
                    self.nodes[text(name)] = value

    def resolve(self, node: Node) -> Node:
        seen: set[str] = set()
        while True:
            if node.type in {"parenthesized_expression", "literal_element"} and node.named_children:
                node = node.named_children[0]
            elif node.type == "identifier" and (text(node) in self.env or text(node) in self.arguments):
                return node
            elif node.type == "identifier" and text(node) in self.nodes and text(node) not in seen:
                seen.add(text(node))
                node = self.nodes[text(node)]
            elif node.type == "identifier" and text(node) not in seen and (local := self._local(node)) is not None:
                seen.add(text(node))
                node = local
            else:
                return node

    def value(self, node: Node) -> Any:
        target = self.resolve(node)
        if target.type == "identifier" and text(target) in self.env:
            return self.env[text(target)]
        if target.type == "identifier" and text(target) in self.arguments:
            return argument_value(self, text(target))
        if target is node or node.type != "identifier":
            return self._entries(self.patched(self._value(target), self.patches.get(target.id, [])), target)
        try:
            return self._entries(self.patched(self._value(target), self.patches.get(target.id, [])), target)
        except Unresolved as exc:
            line = node.start_point[0] + 1
            where = f" (line {exc.line})" if exc.line != line else ""
            raise Unresolved(f"`{text(node)}`{where}: {exc.why}", line=line) from None

    def _value(self, node: Node) -> Any:
        kind = node.type
        if kind == "interpreted_string_literal":
            return "".join(
                unescape(text(c), go=True) if c.type == "escape_sequence" else text(c) for c in node.named_children
            )
        if kind == "raw_string_literal":
            return "".join(text(c) for c in node.named_children).replace("\r", "")
        if kind in {"int_literal", "float_literal"}:
            raw = text(node).replace("_", "")
            number = int(raw, 0) if kind == "int_literal" else float(raw)
            return int(number) if isinstance(number, float) and number.is_integer() else number
        if kind in {"true", "false"}:
            return kind == "true"
        if kind == "nil":
            return None
        if kind == "selector_expression" and (found := go_methods.field_of(self, node))[0]:
            return found[1]
        if kind == "selector_expression" and isinstance(held := self._held(node), dict):
            return held.get(self.json_key(text(node.child_by_field_name("field") or node)))  # absent: Go's nil
        if kind == "index_expression" and isinstance(held := self._held(node), (dict, list)):
            index = self.value(node.child_by_field_name("index"))  # type: ignore[arg-type]
            if isinstance(held, dict):
                return held.get(index)  # absent: the zero value, nil for the maps of schemas
            if isinstance(index, int) and 0 <= index < len(held):
                return held[index]
        if kind == "type_assertion_expression":
            return self.value(node.child_by_field_name("operand"))  # type: ignore[arg-type]  # known: its type
        if kind == "func_literal":
            return Closure(node, self.env)
        if kind == "selector_expression" and self.module is not None:
            return self.qualified(node)
        if kind == "binary_expression" and (op := text(node.child_by_field_name("operator") or node)) in {
                "<", ">", "<=", ">="}:
            return go_methods.ordered(self, node, op)
        if kind == "binary_expression" and text(node.child_by_field_name("operator") or node) in _COMPARISONS:
            return self.compare(node)
        if kind == "binary_expression" and text(node.child_by_field_name("operator") or node) == "+":
            left = self.value(node.child_by_field_name("left"))  # type: ignore[arg-type]
            right = self.value(node.child_by_field_name("right"))  # type: ignore[arg-type]
            if type(left) is type(right) and isinstance(left, (str, int, float)):
                return left + right
        if kind == "unary_expression":
            operand = node.child_by_field_name("operand")
            op = text(node.child_by_field_name("operator") or node)
            if operand is not None and op == "&":
                return self.value(operand)
            if operand is not None and op == "!" and isinstance(negated := self.value(operand), bool):
                return not negated
            if operand is not None and op == "-":
                number = self.value(operand)
                if isinstance(number, (int, float)):
                    return -number
        if kind == "composite_literal":
            return self.composite(node)
        if kind in {"call_expression", "type_conversion_expression"} and generic_for(node) is not None:
            return for_type(self, generic_for(node)), None  # type: ignore[arg-type]  # jsonschema.For[T](opts)
        if kind == "call_expression":
            return self._call(node)
        if kind == "literal_value":
            return self._literal_value(node, schema=True)
        if kind == "identifier" and (line := self.reassigned.get((node.start_byte, text(node)))) is not None:
            raise fail(node, f"`{short(node)}` is changed at line {line}, so its value depends on what runs")
        raise fail(node, f"`{short(node)}` is computed at run time")

    def _held(self, node: Node) -> Any:
        """The map or list a helper's variable holds under `x.Field` or `x[k]` (None when it is not one)."""
        operand = node.child_by_field_name("operand")
        if operand is None or (operand.type == "identifier" and text(operand) not in self.env):
            return None
        try:
            return self.value(operand)
        except Unresolved:
            return None

    def _entries(self, value: Any, target: Node) -> Any:
        """A local map with the entries later statements set on it."""
        entries = self.map_patches.get(target.id)
        if entries and isinstance(value, dict):
            value = dict(value)
            for key, node in entries:  # key "": all entries of another map (`maps.Copy`)
                value.update((self.value(node) or {}) if key == "" else {key: self._element(node, schema=True)})
        return value

    def patched(self, schema: Any, patches: list[tuple[str, Node]]) -> Any:
        """`schema` with the properties a helper or later statements set on it."""
        if patches and isinstance(schema, dict):
            properties = schema.setdefault("properties", {})
            for key, node in patches:
                properties[key] = self._element(node, schema=True)
        return schema

    def string(self, node: Node) -> str:
        value = self.value(node)
        if not isinstance(value, str):
            raise fail(node, f"`{short(node)}` is not a string")
        return value


def _descendants(node: Node) -> list[Node]:
    out: list[Node] = []
    stack = list(node.named_children)
    while stack:
        current = stack.pop(0)
        out.append(current)
        if current.type in {"const_spec_list", "var_spec_list"}:
            stack[:0] = list(current.named_children)
    return out
