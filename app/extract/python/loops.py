"""Python registrations inside `for` loops and comprehensions over literals: `for fn in [a, b]: mcp.tool()(fn)`,
`[Tool(name=k, ...) for k, v in SPECS.items()]` define one tool per element, read with the loop variables bound."""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator
from typing import Any

from app.extract.python.values import Constants

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def loop_bindings(tree: ast.Module, constants: Constants) -> dict[int, list[dict[str, ast.expr]]]:
    """Calls inside `for v in [a, b]` / `for k, v in {...}.items()` over literals: one binding per element."""
    out: dict[int, list[dict[str, ast.expr]]] = {}
    for loop in ast.walk(tree):
        if isinstance(loop, ast.For):
            target, iterable, body = loop.target, loop.iter, list[ast.AST](loop.body)
        elif isinstance(loop, _COMPREHENSIONS) and len(loop.generators) == 1 and not loop.generators[0].ifs \
                and not loop.generators[0].is_async:  # a filter would drop elements for reasons known at run time
            target, iterable = loop.generators[0].target, loop.generators[0].iter
            body = [loop.key, loop.value] if isinstance(loop, ast.DictComp) else [loop.elt]
        else:
            continue
        bindings = list(_bindings(target, iterable, constants))
        if not bindings:
            continue
        for node in (n for part in body for n in ast.walk(part)):
            if isinstance(node, ast.Call):
                out[id(node)] = [{**outer, **inner} for outer in out.get(id(node), [{}]) for inner in bindings]
    return out


def _bindings(target: ast.expr, iterable: ast.expr, constants: Constants) -> Iterator[dict[str, ast.expr]]:
    items = False
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute) and iterable.func.attr == "items":
        iterable, items = iterable.func.value, True
    if isinstance(iterable, ast.Name) and iterable.id in constants.nodes:
        iterable = constants.nodes[iterable.id]
    if items and isinstance(iterable, ast.Dict):
        pairs = zip(iterable.keys, iterable.values, strict=True)
        elements: list[ast.expr] = [ast.Tuple(elts=[k, v], ctx=ast.Load()) for k, v in pairs if k is not None]
    elif not items and isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
        elements = list(iterable.elts)
    else:
        return
    for element in elements:
        bound = _unpack(target, element)
        if bound is None:
            return
        yield bound


def _unpack(target: ast.expr, value: ast.expr) -> dict[str, ast.expr] | None:
    if isinstance(target, ast.Name):
        return {target.id: value}
    if isinstance(target, ast.Tuple) and isinstance(value, (ast.Tuple, ast.List)) and len(target.elts) == len(
            value.elts):
        out: dict[str, ast.expr] = {}
        for t, v in zip(target.elts, value.elts, strict=True):
            inner = _unpack(t, v)
            if inner is None:
                return None
            out.update(inner)
        return out
    return None


class _Substitute(ast.NodeTransformer):
    def __init__(self, binding: dict[str, ast.expr]) -> None:
        self.binding = binding

    def visit_Name(self, node: ast.Name) -> Any:
        if node.id in self.binding:
            return copy.deepcopy(self.binding[node.id])  # keeps the element's own lines
        return node


def bound(call: ast.Call, binding: dict[str, ast.expr]) -> ast.Call:
    """`call` with the loop variables replaced by one element's values (each keeps its lines); a `**spec` whose
    element is a dict literal becomes its keyword arguments (`Tool(**spec) for spec in SPECS`)."""
    out: ast.Call = _Substitute(binding).visit(copy.deepcopy(call))
    keywords: list[ast.keyword] = []
    for kw in out.keywords:
        spread = kw.value
        if kw.arg is None and isinstance(spread, ast.Dict) and all(
                isinstance(k, ast.Constant) and isinstance(k.value, str) for k in spread.keys):
            keywords.extend(ast.keyword(arg=str(k.value), value=v)
                            for k, v in zip(spread.keys, spread.values, strict=True) if isinstance(k, ast.Constant))
        else:
            keywords.append(kw)
    out.keywords = keywords
    return out
