"""Which object a Python expression is, statically: `Settings()`, a factory's `get_settings()`, `self.settings`."""

from __future__ import annotations

import ast
from collections.abc import Callable

from app.extract.python.syntax import dotted

# Steps followed from a name to the object it holds (a name, a factory, an attribute set in `__init__`).
MAX_STEPS = 8
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
Function = ast.FunctionDef | ast.AsyncFunctionDef


def module_functions(tree: ast.Module) -> dict[str, Function]:
    """Module-level functions by name (factories such as `get_settings`)."""
    return {stmt.name: stmt for stmt in tree.body if isinstance(stmt, _FUNCTIONS)}


class Instances:
    """The `Constants` part that finds the `Cls(...)` call behind an object (mixed into python_values.Constants):
    a module name assigned once, `factory()` whose body returns `Cls()` (also cached, `@lru_cache`, or kept in a
    module-level variable set only to `None` and `Cls()`), and `self.<attr>` set in the enclosing class's
    `__init__` or class body. Anything else (a parameter, a value set under a condition) is not followed."""

    nodes: dict[str, ast.expr]
    class_defs: dict[str, ast.ClassDef]
    functions: dict[str, Function]
    tree: ast.Module | None
    local: Callable[[ast.Name], tuple[ast.expr, str] | None]  # python_locals.Locals.local

    def namespace(self, name: str) -> dict[str, ast.expr | ast.ClassDef | Function] | None:
        raise NotImplementedError

    def instance(self, node: ast.expr, at: ast.AST, steps: int = 0) -> tuple[ast.Call, ast.ClassDef] | None:
        """The `Cls(...)` call that built the object `node` stands for, and the class; None when not known."""
        if steps > MAX_STEPS:
            return None
        if isinstance(node, ast.Name):  # a variable of the function around it first (a parameter is Unresolved)
            local = self.local(node)
            target = local[0] if local is not None else self.nodes.get(node.id)
            return self.instance(target, at, steps + 1) if target is not None else None
        if isinstance(node, ast.Call):
            cls = self._built_class(node.func)
            if cls is not None:
                return node, cls
            factory = self._function(node.func)
            built = _returned(factory, self.nodes) if factory is not None and not node.args and not node.keywords \
                else None
            return self.instance(built, at, steps + 1) if built is not None else None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            assigned = self._self_attribute(node.attr, at)
            return self.instance(assigned, at, steps + 1) if assigned is not None else None
        return None

    def _built_class(self, func: ast.expr) -> ast.ClassDef | None:
        if isinstance(func, ast.Name):
            return self.class_defs.get(func.id)
        if isinstance(func, ast.Attribute):
            found = (self.namespace(dotted(func.value) or "") or {}).get(func.attr)
            return found if isinstance(found, ast.ClassDef) else None
        return None

    def _function(self, func: ast.expr) -> Function | None:
        if isinstance(func, ast.Name):
            return self.functions.get(func.id)
        if isinstance(func, ast.Attribute):
            found = (self.namespace(dotted(func.value) or "") or {}).get(func.attr)
            return found if isinstance(found, _FUNCTIONS) else None
        return None

    def _self_attribute(self, attr: str, at: ast.AST) -> ast.expr | None:
        """What `self.<attr>` is set to, unconditionally, in `__init__` (or the body) of the class around `at`."""
        cls = _enclosing_class(self.tree, getattr(at, "lineno", 0)) if self.tree is not None else None
        if cls is None:
            return None
        init = next((s for s in cls.body if isinstance(s, _FUNCTIONS) and s.name == "__init__"), None)
        found: ast.expr | None = None
        for stmt in init.body if init is not None else []:
            value = _assigned(stmt, lambda t: isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                              and t.value.id == "self" and t.attr == attr)
            if value is not None:
                found = value
            elif any(_assigned(sub, lambda t: isinstance(t, ast.Attribute) and t.attr == attr) is not None
                     for sub in ast.walk(stmt) if sub is not stmt):
                return None  # set under a condition or in a loop: known only at run time
        if found is not None:
            return found
        return next((v for s in cls.body if (v := _assigned(s, lambda t: isinstance(t, ast.Name) and t.id == attr))
                     is not None), None)


def _assigned(stmt: ast.AST, matches: Callable[[ast.expr], bool]) -> ast.expr | None:
    """The value of `<target> = value` when its one target matches."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and matches(stmt.targets[0]):
        return stmt.value
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None and matches(stmt.target):
        return stmt.value
    return None


def _enclosing_class(tree: ast.Module, line: int) -> ast.ClassDef | None:
    """The innermost class of the module (at any depth) with a method spanning `line`."""
    found = None
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for method in (m for m in cls.body if isinstance(m, _FUNCTIONS)):
            if method.lineno <= line <= (method.end_lineno or method.lineno) and (
                    found is None or cls.lineno > found.lineno):
                found = cls
    return found


def _returned(fn: Function, nodes: dict[str, ast.expr]) -> ast.expr | None:
    """The object a factory returns: its only `return Cls(...)`, or a module variable that the module and the
    function set only to `None` and one same `Cls(...)` (the cached-singleton shape)."""
    returns = [n.value for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value is not None]
    if len(returns) == 1 and isinstance(returns[0], ast.Call):
        return returns[0]
    names = {r.id for r in returns if isinstance(r, ast.Name)}
    if len(names) != 1 or len(returns) != sum(isinstance(r, ast.Name) for r in returns):
        return None
    name = names.pop()
    built = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    module_value = nodes.get(name)
    if isinstance(module_value, ast.Call):
        built.append(module_value)
    calls = [b for b in built if not (isinstance(b, ast.Constant) and b.value is None)]
    if calls and all(isinstance(c, ast.Call) and ast.dump(c) == ast.dump(calls[0]) for c in calls):
        return calls[0]
    return None

