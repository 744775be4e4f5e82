"""Go local schema variables: `schema := &jsonschema.Schema{...}` read when only known changes touch it before use
(`WithPagination(schema)` with a package schema helper, `schema.Properties["k"] = ...`)."""

from __future__ import annotations

import re

from tree_sitter import Node

from app.extract.common import Unresolved
from app.extract.go.scope_reads import ScopeReads
from app.extract.treesitter import captures, text

_FUNCTIONS = {"function_declaration", "method_declaration", "func_literal"}
_DECLARATIONS = "(short_var_declaration) @d"
# Values a later statement cannot change in place (only a reassignment could, which is looked for).
_IMMUTABLE = {"interpreted_string_literal", "raw_string_literal", "int_literal", "float_literal", "binary_expression",
              "call_expression", "selector_expression", "true", "false"}


class LocalVariables(ScopeReads):
    """Mixed into GoScope: finds the value of a local variable and the properties set on it."""

    schema_helpers: dict[str, list[tuple[str, Node]]]
    patches: dict[int, list[tuple[str, Node]]]
    map_patches: dict[int, list[tuple[str, Node]]]
    _locals: dict[tuple[int, str], Node | None]
    # (use, name) -> the line where a local variable is changed (its value then depends on what runs).
    reassigned: dict[tuple[int, str], int]

    def _local(self, use: Node) -> Node | None:
        key = (use.start_byte, text(use))
        if key not in self._locals:
            self._locals[key] = self._find_local(use)
        return self._locals[key]

    def _find_local(self, use: Node) -> Node | None:
        """The value of `name := <expr>` in the enclosing function when nothing but known schema changes touch
        `name` in between (`WithPagination(name)` with a package helper, `name.Properties["k"] = ...`)."""
        name = text(use)
        function = use.parent
        while function is not None and function.type not in _FUNCTIONS:
            function = function.parent
        body = function.child_by_field_name("body") if function is not None else None
        if body is None:
            return None
        mentions = len(re.findall(rf"\b{re.escape(name)}\b", text(body)))
        if mentions == 2:  # declared and used once, nothing in between: find the declaration in C
            for decl in captures("go", _DECLARATIONS, body).get("d", []):
                left, right = decl.child_by_field_name("left"), decl.child_by_field_name("right")
                if left is not None and right is not None and text(left) == name and len(right.named_children) == 1:
                    return right.named_children[0]
            return None
        value: Node | None = None
        uses = 0
        patches: list[tuple[str, Node]] = []
        entries: list[tuple[str, Node]] = []
        declarations, changed = 0, False
        stack = [body]
        while stack:
            node = stack.pop()
            if node.type == "identifier" and text(node) == name:
                uses += 1
                continue
            if node.type in {"short_var_declaration", "var_spec"}:
                left = node.child_by_field_name("left") or node.child_by_field_name("name")
                right = node.child_by_field_name("right") or node.child_by_field_name("value")
                if left is not None and right is not None and text(left) == name and len(right.named_children) == 1:
                    value = right.named_children[0]
                    declarations += 1
            if _changes(node, name) and not changed:
                changed = True
                self.reassigned[(use.start_byte, name)] = node.start_point[0] + 1
            entry = self._map_entry(node, name)
            if entry is not None:
                entries.append(entry)
                continue
            patch = self._patch(node, name)
            if patch is not None:
                patches.extend(patch)
                continue
            stack.extend(reversed(node.named_children))
        if value is not None and declarations == 1 and not changed and not patches and not entries and \
                value.type in _IMMUTABLE:
            return value  # a text or number written once and never changed: the same at every use
        if value is None or uses != 2:  # the declaration and the reference being resolved
            return None
        self.patches[value.id] = patches
        self.map_patches[value.id] = entries
        return value

    def _map_entry(self, node: Node, name: str) -> tuple[str, Node] | None:
        """`name["k"] = v` on a local map (`props := make(map[string]*jsonschema.Schema)`): ("k", v);
        `maps.Copy(name, other)`: ("", other), every entry of `other`."""
        call = node.named_children[0] if node.type == "expression_statement" and node.named_children else None
        if call is not None and call.type == "call_expression" and text(call.child_by_field_name("function") or call) \
                == "maps.Copy":
            args = [a for a in (call.child_by_field_name("arguments") or call).named_children if a.type != "comment"]
            return ("", args[1]) if len(args) == 2 and text(args[0]) == name else None
        if node.type != "assignment_statement":
            return None
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        target = left.named_children[0] if left is not None and len(left.named_children) == 1 else None
        if target is None or target.type != "index_expression" or right is None or len(right.named_children) != 1:
            return None
        operand, index = target.child_by_field_name("operand"), target.child_by_field_name("index")
        if operand is None or text(operand) != name or index is None:
            return None
        try:
            return self.string(index), right.named_children[0]
        except Unresolved:
            return None

    def _patch(self, node: Node, name: str) -> list[tuple[str, Node]] | None:
        """Properties set by a statement `Helper(name)` or `name.Properties["k"] = v`; None for other nodes."""
        if node.type == "expression_statement" and node.named_children:
            call = node.named_children[0]
            func = call.child_by_field_name("function") if call.type == "call_expression" else None
            args = [a for a in (call.child_by_field_name("arguments") or call).named_children if a.type != "comment"]
            if func is not None and text(func) in self.schema_helpers and len(args) == 1 and text(args[0]) == name:
                return self.schema_helpers[text(func)]
        if node.type == "assignment_statement":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            target = left.named_children[0] if left is not None and len(left.named_children) == 1 else None
            if target is not None and target.type == "index_expression" and right is not None:
                operand = target.child_by_field_name("operand")
                index = target.child_by_field_name("index")
                if operand is not None and text(operand) == f"{name}.Properties" and index is not None:
                    try:
                        return [(self.string(index), right.named_children[0])]
                    except Unresolved:
                        return None
        return None


def _changes(node: Node, name: str) -> bool:
    """True for a statement that assigns `name` again (`name = ...`, `name += ...`, `name++`) or takes `&name`."""
    if node.type in {"assignment_statement", "inc_statement", "dec_statement"}:
        left = node.child_by_field_name("left") or (node.named_children[0] if node.named_children else None)
        return left is not None and re.match(rf"{re.escape(name)}\b", text(left)) is not None
    if node.type == "unary_expression" and text(node.child_by_field_name("operator") or node) == "&":
        operand = node.child_by_field_name("operand")
        return operand is not None and text(operand) == name
    return False
