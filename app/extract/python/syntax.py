"""Small walks over Python syntax trees shared by the Python extractor: dotted names, keywords, statements."""

from __future__ import annotations

import ast

from app.audit.models import LineRange


def dotted(node: ast.AST) -> str | None:
    """`a.b.c` for a chain of names and attributes, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def last_name(node: ast.AST) -> str | None:
    """The last part of a name or attribute chain: `typing.Annotated` -> `Annotated`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


# Leaves and markers with nothing below them that matters here (contexts, operators, constants).
_SKIP = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.Constant)


def walk(root: ast.AST) -> list[ast.AST]:
    """Every node under `root` (root included), like ast.walk but without contexts and operators; faster."""
    out: list[ast.AST] = []
    stack = [root]
    while stack:
        node = stack.pop()
        out.append(node)
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                stack.extend(v for v in reversed(value) if isinstance(v, ast.AST) and not isinstance(v, _SKIP))
            elif isinstance(value, ast.AST) and not isinstance(value, _SKIP):
                stack.append(value)
    return out


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def statements(root: ast.AST, *, into_definitions: bool = True) -> list[ast.AST]:
    """Every statement under `root` (nested blocks included), in source order; expressions are not entered.
    With `into_definitions` False, the functions and classes defined under `root` are listed but not entered."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = [root]
    while stack:
        node = stack.pop()
        out.append(node)
        if not into_definitions and node is not root and isinstance(node, _DEFINITIONS):
            continue
        for name in _BLOCKS:
            block = getattr(node, name, None)
            if isinstance(block, list):
                stack.extend(reversed([b for b in block if isinstance(b, ast.AST)]))
    return out


def node_lines(node: ast.AST) -> LineRange:
    """The 1-based line range of a node."""
    start = getattr(node, "lineno", 1)
    return LineRange(start=start, end=getattr(node, "end_lineno", start))
