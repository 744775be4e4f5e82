"""Python expressions over known values: `a if t else b`, `a or b`, `not a`, `a == b`, `SPECS["x"]`."""

from __future__ import annotations

import ast
from typing import Any

from app.extract.common import Unresolved
from app.extract.python.syntax import dotted

# Comparisons whose result is known from known values.
_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.In: lambda a, b: a in b,
            ast.NotIn: lambda a, b: a not in b, ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b}


class Conditions:
    """The `Constants` part for choices over values that are known (mixed into python_values.Constants); a
    condition on anything read at run time (the environment, arguments) stays Unresolved, said by that part."""

    def value(self, node: ast.expr) -> Any:
        raise NotImplementedError

    def enum_member(self, node: ast.expr) -> tuple[ast.ClassDef, str] | None:
        raise NotImplementedError

    def condition_value(self, node: ast.expr) -> Any:
        """The value of a condition or a choice over known values (Python's truth rules)."""
        if isinstance(node, ast.IfExp):
            return self.value(node.body) if self.value(node.test) else self.value(node.orelse)
        if isinstance(node, ast.BoolOp):
            found: Any = None
            for operand in node.values:  # `or` stops at the first true value, `and` at the first false one
                found = self.value(operand)
                if bool(found) == isinstance(node.op, ast.Or):
                    return found
            return found
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.value(node.operand)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            if any(self.enum_member(side) is not None for side in (node.left, node.comparators[0])):
                raise Unresolved("a comparison with an Enum member (read as its value, it may compare otherwise)",
                                 line=node.lineno, end_line=node.end_lineno)
            left, right = self.value(node.left), self.value(node.comparators[0])
            if isinstance(node.ops[0], (ast.Is, ast.IsNot)) and not (left is None or right is None):
                raise Unresolved("an identity test of values other than None", line=node.lineno,
                                 end_line=node.end_lineno)
            try:
                return _COMPARE[type(node.ops[0])](left, right)
            except TypeError:
                raise Unresolved("a comparison of values of different types", line=node.lineno,
                                 end_line=node.end_lineno) from None
        if isinstance(node, ast.Subscript) and dotted(node.value) in {"os.environ", "environ"}:
            raise Unresolved(f"`{ast.unparse(node)[:60]}` reads an environment variable when the server runs",
                             line=node.lineno, end_line=node.end_lineno)
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            container, key = self.value(node.value), self.value(node.slice)
            if isinstance(container, dict) and isinstance(key, (str, int, float)) and key in container:
                return container[key]
            if isinstance(container, list) and isinstance(key, int) and -len(container) <= key < len(container):
                return container[key]
            raise Unresolved(f"`{ast.unparse(node)[:60]}` looks up {key!r}, which the value does not hold",
                             line=node.lineno, end_line=node.end_lineno)
        raise Unresolved(f"a {type(node).__name__.lower()} expression", line=getattr(node, "lineno", 0),
                         end_line=getattr(node, "end_lineno", None))


def is_condition(node: ast.expr) -> bool:
    """True for the expressions Conditions reads (subscripts too)."""
    return isinstance(node, (ast.IfExp, ast.BoolOp, ast.Compare, ast.Subscript)) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not))
