"""Local names standing for a tool handler (`alias = self.find`, `handler = wrap(fn)`) and wrappers that keep it."""

from __future__ import annotations

import ast

from app.extract.python.syntax import last_name, statements

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def local_assignment(tree: ast.Module, name: str, at: ast.AST) -> ast.expr | None:
    """The value of the one `name = <expr>` before `at` in the innermost function holding `at` (else the
    module's top level); None when there is none or more than one (which one applies is known at run time)."""
    line = getattr(at, "lineno", 0)
    everywhere = assignments(tree, name, at)
    values = [s.value for s in everywhere if isinstance(s, ast.Assign)]
    if len(values) != 1 or len(everywhere) != 1 or values[0].lineno >= line:
        return None
    return values[0]


def assignments(tree: ast.Module, name: str, at: ast.AST) -> list[ast.stmt]:
    """Every statement assigning `name` in the innermost function holding `at` (else at module level)."""
    line = getattr(at, "lineno", 0)
    scope: ast.AST = tree
    for node in ast.walk(tree):
        if isinstance(node, _FUNCTIONS) and node.lineno <= line <= (node.end_lineno or node.lineno) and (
                scope is tree or node.lineno > getattr(scope, "lineno", 0)):
            scope = node
    body = statements(scope) if scope is not tree else list(tree.body)
    return [stmt for stmt in body
            if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and name in _targets(stmt)]


def _targets(stmt: ast.Assign | ast.AnnAssign | ast.AugAssign) -> set[str]:
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def keeps_signature(call: ast.Call, tree: ast.Module) -> bool:
    """True when `wrapper(fn)` calls a function of this module that returns `fn` itself or an inner function
    decorated with `functools.wraps(fn)` (whose signature and docstring are fn's, as inspect and pydantic see)."""
    if len(call.args) != 1 or call.keywords or not isinstance(call.func, ast.Name):
        return False
    wrappers = [s for s in tree.body if isinstance(s, _FUNCTIONS) and s.name == call.func.id]
    if len(wrappers) != 1 or not wrappers[0].args.args:
        return False
    wrapper = wrappers[0]
    param = wrapper.args.args[0].arg
    inner = {s.name: s for s in wrapper.body if isinstance(s, _FUNCTIONS) and _wraps(s, param)}
    own = statements(wrapper, into_definitions=False)
    returns = [s.value for s in own if isinstance(s, ast.Return) and s.value is not None]
    return bool(returns) and all(isinstance(r, ast.Name) and (r.id == param or r.id in inner) for r in returns)


def _wraps(fn: ast.FunctionDef | ast.AsyncFunctionDef, param: str) -> bool:
    return any(
        isinstance(d, ast.Call) and last_name(d.func) == "wraps" and len(d.args) == 1
        and isinstance(d.args[0], ast.Name) and d.args[0].id == param
        for d in fn.decorator_list
    )
