"""JavaScript's operators on constant values: arithmetic, `+` on strings, template literals, as JS prints them."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from tree_sitter import Node

from app.extract.common import Unresolved
from app.extract.treesitter import fail, short, text, unescape

# Binary operators whose result follows from constant operands alone.
_ARITHMETIC: dict[str, Callable[[float, float], float]] = {
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / b,
    "%": math.fmod,
    "**": lambda a, b: a**b,
}
_MAX_EXACT = 2**53  # beyond this a JS number is no longer an exact integer


def binary(node: Node, value: Callable[[Node], Any]) -> Any:
    """`a + b` (numbers or strings), `a - b`, `a * b`, `a / b`, `a % b`, `a ** b` of constants."""
    operator = text(node.child_by_field_name("operator") or node)
    left = value(node.child_by_field_name("left"))  # type: ignore[arg-type]
    right = value(node.child_by_field_name("right"))  # type: ignore[arg-type]
    if operator == "+" and (isinstance(left, str) or isinstance(right, str)):
        return js_string(left) + js_string(right)
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right))
    if numbers and operator == "+":
        return _number(left + right)
    if numbers and operator in _ARITHMETIC:
        if operator in {"/", "%"} and right == 0:
            raise fail(node, f"`{short(node)}` divides by zero")
        try:
            return _number(_ARITHMETIC[operator](left, right))
        except (OverflowError, ValueError):
            raise fail(node, f"`{short(node)}` is out of range") from None
    raise fail(node, f"`{short(node)}` is computed at run time")


def template(node: Node, value: Callable[[Node], Any]) -> str:
    """A template literal whose `${...}` substitutions are constants."""
    parts: list[str] = []
    for child in node.named_children:
        if child.type == "string_fragment":
            parts.append(text(child))
        elif child.type == "escape_sequence":
            parts.append(unescape(text(child)))
        elif child.type == "template_substitution":
            inner = [c for c in child.named_children if c.type != "comment"]
            try:
                if len(inner) != 1:
                    raise fail(child, f"the substitution `{short(child)}`")
                parts.append(js_string(value(inner[0])))
            except Unresolved:
                # Named where the template is written: what it substitutes is known only at run time.
                raise fail(child, "a template literal with a substitution") from None
        elif child.type != "comment":
            parts.append(text(child))
    return "".join(parts)


def js_string(value: Any) -> str:
    """A value as JavaScript's String() writes it (arrays joined with commas)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        return repr(value)
    if isinstance(value, list):
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def _number(value: float) -> int | float:
    """JSON written by JavaScript has no 1.0: integral numbers print as integers."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= _MAX_EXACT:
        return int(value)
    if isinstance(value, int) and abs(value) > _MAX_EXACT:
        return float(value)
    return value
