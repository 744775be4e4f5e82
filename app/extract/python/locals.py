"""Variables of the Python functions around a use: one assigned once, unconditionally, is read like a constant."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from app.extract.common import Unresolved

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)
Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass
class _Scope:
    """What one function binds: its parameters, every assignment to each name, `global`/`nonlocal` names."""

    fn: Function
    parameters: set[str]
    bindings: dict[str, list[ast.AST]] = field(default_factory=dict)
    plain: dict[str, ast.Assign | ast.AnnAssign] = field(default_factory=dict)  # `name = value` run unconditionally
    declared: set[str] = field(default_factory=set)


class Locals:
    """The `Constants` part that reads names local to the functions around a use (mixed into Constants):
    innermost function first, as Python resolves a name; a parameter, or a variable set under a condition, in a
    loop or more than once, is known only at run time (Unresolved saying so)."""

    tree: ast.Module | None
    _foreign_depth: int
    _functions: list[Function] | None
    _local_scopes: dict[int, _Scope]

    def local(self, node: ast.Name) -> tuple[ast.expr, str] | None:
        """(the value assigned, where it is set) when a function around `node` binds its name; None when none does
        (then the module's names apply). Names inside values of other files are never looked up here."""
        if self.tree is None or self._foreign_depth:
            return None
        line = node.lineno
        if self._functions is None:
            self._functions = [n for n in ast.walk(self.tree) if isinstance(n, _FUNCTIONS)]
        around = [f for f in self._functions if f.body and f.body[0].lineno <= line <= (f.end_lineno or f.lineno)]
        for fn in sorted(around, key=lambda f: f.lineno, reverse=True):
            scope = self._scope(fn)
            name = node.id
            if name in scope.declared:
                return None if name not in scope.bindings else self._fail_local(node, "is declared `global` or "
                                                                                      f"`nonlocal` in `{fn.name}`")
            if name in scope.parameters:
                return self._fail_local(node, f"is a parameter of `{fn.name}`, known only when it is called")
            if name not in scope.bindings:
                continue
            assign = scope.plain.get(name)
            if assign is not None and assign.value is not None and len(scope.bindings[name]) == 1:
                return assign.value, f" (set in `{fn.name}`, line {assign.lineno})"
            first = scope.bindings[name][0]
            how = "more than once" if len(scope.bindings[name]) > 1 else "under a condition, in a loop or by unpacking"
            return self._fail_local(node, f"is set {how} in `{fn.name}` (line {getattr(first, 'lineno', 0)})")
        return None

    def _scope(self, fn: Function) -> _Scope:
        if id(fn) not in self._local_scopes:
            args = fn.args
            params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
            params.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
            scope = _Scope(fn, params)
            for stmt in fn.body:
                _collect(stmt, scope)
            for stmt in _unconditional(fn.body):
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    scope.plain.setdefault(stmt.targets[0].id, stmt)
                elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
                    scope.plain.setdefault(stmt.target.id, stmt)
            self._local_scopes[id(fn)] = scope
        return self._local_scopes[id(fn)]

    @staticmethod
    def _fail_local(node: ast.Name, why: str) -> tuple[ast.expr, str]:
        raise Unresolved(f"`{node.id}` {why}", line=node.lineno, end_line=getattr(node, "end_lineno", node.lineno))


def _unconditional(body: list[ast.stmt]) -> list[ast.stmt]:
    """Statements that run whenever the function runs to its end: its body and the bodies of `with` blocks in it."""
    out: list[ast.stmt] = []
    for stmt in body:
        out.append(stmt)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            out.extend(_unconditional(stmt.body))
    return out


def _collect(node: ast.AST, scope: _Scope) -> None:
    """Every name `node` binds in the function's own scope (nested functions and classes bind their name only)."""
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        scope.declared.update(node.names)
        return
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        scope.bindings.setdefault(node.name, []).append(node)
        return
    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
        scope.bindings.setdefault(node.id, []).append(node)
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        for alias in node.names:
            scope.bindings.setdefault((alias.asname or alias.name).split(".")[0], []).append(node)
    elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
        scope.bindings.setdefault(node.name, []).append(node)
    elif isinstance(node, ast.MatchMapping) and node.rest:
        scope.bindings.setdefault(node.rest, []).append(node)
    if isinstance(node, _SCOPES):
        for sub in ast.walk(node):  # a walrus in a comprehension binds in the function
            if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
                scope.bindings.setdefault(sub.target.id, []).append(sub)
        return
    for child in ast.iter_child_nodes(node):
        _collect(child, scope)
