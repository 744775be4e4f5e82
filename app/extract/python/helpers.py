"""Python helper functions that only return an expression (`def page_props(): return {...}`), read with arguments."""

from __future__ import annotations

import ast
import copy
from typing import Any

from app.extract.python.syntax import last_name

# Decorators that leave what a function returns as written (memoizing ones).
_KEEPING = {"lru_cache", "cache", "staticmethod"}
Function = ast.FunctionDef | ast.AsyncFunctionDef


def returned_expression(fn: Function, call: ast.Call) -> ast.expr | str:
    """The expression `fn` returns for `call`, its parameters replaced by the arguments (or their defaults); or
    why it cannot be read so: a body other than one `return`, `*args`, an async or decorated function."""
    if isinstance(fn, ast.AsyncFunctionDef):
        return f"`{fn.name}` is a coroutine"
    if any(last_name(d.func if isinstance(d, ast.Call) else d) not in _KEEPING for d in fn.decorator_list):
        return f"`{fn.name}` is decorated"
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return f"`{fn.name}` does more than return one expression"
    args = fn.args
    if args.vararg or args.kwarg or any(isinstance(a, ast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords):
        return f"`{fn.name}` takes or is given arguments by unpacking"
    positional = [*args.posonlyargs, *args.args]
    if len(call.args) > len(positional):
        return f"`{fn.name}` is given more arguments than it takes"
    bound: dict[str, ast.expr] = {}
    defaults = dict(zip([a.arg for a in reversed(positional)], reversed(args.defaults), strict=False))
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None})
    bound.update(defaults)
    bound.update({a.arg: value for a, value in zip(positional, call.args, strict=False)})
    names = {a.arg for a in [*positional, *args.kwonlyargs]}
    for kw in call.keywords:
        if kw.arg not in names:
            return f"`{fn.name}` has no parameter `{kw.arg}`"
        bound[kw.arg] = kw.value  # type: ignore[index]
    missing = sorted(names - set(bound))
    if missing:
        return f"`{fn.name}` is called without `{missing[0]}`"
    return _Bind(bound).visit(copy.deepcopy(body[0].value))  # type: ignore[no-any-return]


class _Bind(ast.NodeTransformer):
    def __init__(self, bound: dict[str, ast.expr]) -> None:
        self.bound = bound

    def visit_Name(self, node: ast.Name) -> Any:
        return self.bound.get(node.id, node)  # an argument keeps its own lines

    def visit_Lambda(self, node: ast.Lambda) -> Any:
        return node  # its own parameters may hide ours
