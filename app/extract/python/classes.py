"""What `self.<attr>` is in a Python tool class: class attributes, properties, `__init__` with its arguments bound."""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field
from typing import Any

from app.extract.common import Unresolved
from app.extract.python.calls import Module, Opener
from app.extract.python.syntax import last_name
from app.extract.python.values import Constants

# Base classes followed above a class, and imports followed to find one (re-exports).
MAX_DEPTH = 8
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True)
class ClassRef:
    """A class and the module holding it (None: the file being read)."""

    node: ast.ClassDef
    module: Module | None = field(default=None, compare=False)


@dataclass
class Bound:
    """An expression with what its names mean: the parameters of the `__init__` it sits in."""

    expr: ast.expr | None
    owner: ClassRef
    env: dict[str, Bound] = field(default_factory=dict)
    why: str = ""  # when `expr` is None: why the value is known only at run time


def uses_self(call: ast.Call) -> bool:
    return any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
               for kw in call.keywords for n in ast.walk(kw.value))


class ClassAttributes:
    """Resolves `self.<attr>` for a class of the file being read, through its bases (this file's or imported
    modules'): class attributes, single-return properties, `self.x = ...` in `__init__` with the arguments of
    `super().__init__("get_file")` bound. Nothing is instantiated: a value given only where the class is built,
    or set under a condition, is Unresolved (a TC090)."""

    def __init__(self, tree: ast.Module, constants: Constants, opener: Opener | None) -> None:
        self.tree = tree
        self.constants = constants
        self.opener = opener
        self._foreign: dict[int, Constants] = {}

    # -- classes ------------------------------------------------------------------------------------------
    def lookup(self, name: str, module: Module | None, depth: int = 0) -> ClassRef | None:
        tree = module.tree if module is not None else self.tree
        found = [s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == name]
        if found:
            return ClassRef(found[0], module)
        opener = module.opener if module is not None else self.opener
        for stmt in tree.body:
            if isinstance(stmt, ast.ImportFrom) and opener is not None and depth < MAX_DEPTH:
                for alias in stmt.names:
                    if (alias.asname or alias.name) == name:
                        opened = opener(stmt.module or "", stmt.level)
                        return self.lookup(alias.name, opened, depth + 1) if opened is not None else None
        return None

    def mro(self, ref: ClassRef) -> list[ClassRef]:
        """The class and its known bases, depth first, each once (unknown bases are skipped)."""
        out: list[ClassRef] = []
        stack: list[tuple[ClassRef, int]] = [(ref, 0)]
        while stack:
            current, depth = stack.pop()
            if any(c.node is current.node for c in out):
                continue
            out.append(current)
            bases = [self.lookup(last_name(b) or "", current.module) for b in current.node.bases]
            stack.extend((b, depth + 1) for b in reversed(bases) if b is not None and depth < MAX_DEPTH)
        return out

    def subclasses(self, ref: ClassRef) -> list[ClassRef]:
        """Classes of this file with `ref` among their bases (any depth)."""
        classes = [ClassRef(s) for s in self.tree.body if isinstance(s, ast.ClassDef)]
        return [c for c in classes if c.node is not ref.node and any(b.node is ref.node for b in self.mro(c)[1:])]

    # -- attributes -----------------------------------------------------------------------------------------
    def attribute(self, mro: list[ClassRef], name: str, at: ast.AST) -> Bound:
        """What `self.<name>` is for an instance of mro[0]: set in the `__init__` chain, else a class attribute
        or a property returning one expression."""
        init = next((i for i, c in enumerate(mro) if _method(c.node, "__init__") is not None), None)
        if init is not None:
            assigned = self._init(mro, init, [], {}, 0)
            if name in assigned:
                return assigned[name]
        for ref in mro:
            for stmt in ref.node.body:
                if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                        for t in stmt.targets):
                    return Bound(stmt.value, ref)
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name \
                        and stmt.value is not None:
                    return Bound(stmt.value, ref)
                if isinstance(stmt, _FUNCTIONS) and stmt.name == name:
                    returned = _single_return(stmt)
                    if returned is None:
                        return Bound(None, ref, why=f"`{ref.node.name}.{name}` is computed by a method")
                    return Bound(returned, ref)
        return Bound(None, mro[0], why=f"`self.{name}` is given no value by `{mro[0].node.name}` or its known bases")

    def _init(self, mro: list[ClassRef], index: int, args: list[Bound], kwargs: dict[str, Bound],
              depth: int) -> dict[str, Bound]:
        owner = mro[index]
        fn = _method(owner.node, "__init__")
        if fn is None or depth > MAX_DEPTH:
            return {}
        env = _bind(fn, args, kwargs, owner)
        out: dict[str, Bound] = {}
        for stmt in fn.body:
            target = _self_target(stmt)
            if target is not None and isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
                out[target] = Bound(stmt.value, owner, env)
                continue
            call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
            nxt = self._next_init(mro, index, call) if call is not None else None
            if call is not None and nxt is not None:
                passed = call.args[1:] if not _is_super(call) else call.args
                out.update(self._init(mro, nxt, [Bound(a, owner, env) for a in passed],
                                      {k.arg: Bound(k.value, owner, env) for k in call.keywords if k.arg}, depth + 1))
            for sub in ast.walk(stmt):  # assigned under a condition or in a loop: known only at run time
                if sub is not stmt and isinstance(sub, (ast.Assign, ast.AnnAssign)):
                    name = _self_target(sub)
                    if name is not None:
                        out[name] = Bound(None, owner, why=f"`self.{name}` is set under a condition in "
                                                          f"`{owner.node.name}.__init__` (line {sub.lineno})")
        return out

    def _next_init(self, mro: list[ClassRef], index: int, call: ast.Call) -> int | None:
        """The class whose `__init__` a `super().__init__(...)` or `Base.__init__(self, ...)` call runs."""
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "__init__"):
            return None
        if _is_super(call):
            return next((i for i in range(index + 1, len(mro)) if _method(mro[i].node, "__init__")), None)
        named = last_name(call.func.value)
        start = next((i for i, c in enumerate(mro) if c.node.name == named), None)
        if start is None:
            return None
        return next((i for i in range(start, len(mro)) if _method(mro[i].node, "__init__")), None)

    # -- values -----------------------------------------------------------------------------------------------
    def materialize(self, bound: Bound, mro: list[ClassRef], at: ast.AST, busy: frozenset[str] = frozenset()
                    ) -> ast.expr:
        """An expression of this file for `bound`: parameters and `self.x` written in; a value from another
        module becomes a constant placed at `at` (its lines are not this file's)."""
        if bound.expr is None:
            raise Unresolved(bound.why, line=getattr(at, "lineno", 0), end_line=getattr(at, "end_lineno", None))
        if isinstance(bound.expr, ast.Name) and bound.expr.id in bound.env:
            return self.materialize(bound.env[bound.expr.id], mro, at, busy)
        if _self_attribute(bound.expr) is not None:
            name = _self_attribute(bound.expr) or ""
            if name in busy:
                raise Unresolved(f"`self.{name}` refers to itself", line=getattr(at, "lineno", 0))
            return self.materialize(self.attribute(mro, name, at), mro, at, busy | {name})
        node = _Substitute(self, bound, mro, at, busy).visit(copy.deepcopy(bound.expr))
        if bound.owner.module is None:
            return node  # type: ignore[no-any-return]
        value = self._constants(bound.owner.module).value(node)
        return ast.copy_location(ast.Constant(value=value), at)

    def as_constant(self, node: ast.expr, owner: ClassRef, at: ast.AST) -> ast.expr:
        if owner.module is None:
            return ast.copy_location(ast.Constant(value=self.constants.value(node)), node)
        return ast.copy_location(ast.Constant(value=self._constants(owner.module).value(node)), at)

    def _constants(self, module: Module) -> Constants:
        if id(module) not in self._foreign:
            self._foreign[id(module)] = Constants(module.tree, modules=module.modules, origin=module.path)
        return self._foreign[id(module)]


class _Substitute(ast.NodeTransformer):
    """Writes `self.x` and `__init__` parameters into an expression; into another module's expression, as
    constants (that module's Constants evaluates the rest)."""

    def __init__(self, attrs: ClassAttributes, bound: Bound, mro: list[ClassRef], at: ast.AST,
                 busy: frozenset[str]) -> None:
        self.attrs, self.bound, self.mro, self.at, self.busy = attrs, bound, mro, at, busy

    def _inner(self, inner: Bound) -> Any:
        node = self.attrs.materialize(inner, self.mro, self.at, self.busy)
        if self.bound.owner.module is not None and not isinstance(node, ast.Constant):
            return self.attrs.as_constant(node, ClassRef(self.mro[0].node), self.at)
        return node

    def visit_Name(self, node: ast.Name) -> Any:
        if node.id in self.bound.env:
            return self._inner(self.bound.env[node.id])
        return node

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        name = _self_attribute(node)
        if name is None:
            return self.generic_visit(node)
        return self._inner(Bound(node, self.bound.owner, self.bound.env))


def _bind(fn: ast.FunctionDef | ast.AsyncFunctionDef, args: list[Bound], kwargs: dict[str, Bound],
          owner: ClassRef) -> dict[str, Bound]:
    positional = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]][1:]  # without self
    defaults = dict(zip(reversed(positional), reversed(fn.args.defaults), strict=False))
    defaults.update({a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults, strict=True) if d})
    env: dict[str, Bound] = {}
    for name in [*positional, *(a.arg for a in fn.args.kwonlyargs)]:
        env[name] = Bound(defaults[name], owner) if name in defaults else Bound(
            None, owner, why=f"`{name}` is passed to `{owner.node.name}(...)` where it is built, at run time")
    env.update(dict(zip(positional, args, strict=False)))
    env.update({k: v for k, v in kwargs.items() if k in env})
    return env


def _method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    return next((s for s in cls.body if isinstance(s, _FUNCTIONS) and s.name == name), None)


def _single_return(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.expr | None:
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    decorated = any(last_name(d) in {"property", "cached_property"} for d in fn.decorator_list)
    if decorated and len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return body[0].value
    return None


def _self_attribute(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _self_target(stmt: ast.AST) -> str | None:
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) \
        else []
    names = [_self_attribute(t) for t in targets]
    return names[0] if len(names) == 1 else None


def _is_super(call: ast.Call) -> bool:
    func = call.func
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and \
        isinstance(func.value.func, ast.Name) and func.value.func.id == "super"
