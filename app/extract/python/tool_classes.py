"""Python tool classes read as tools: one per class that gives `Tool(name=self.name, ...)` its values."""

from __future__ import annotations

import ast
import copy

from app.extract.common import Draft, FileResult, Unresolved
from app.extract.python.calls import Opener
from app.extract.python.classes import Bound, ClassAttributes, ClassRef, uses_self
from app.extract.python.imports import speaks_mcp
from app.extract.python.lowlevel import LiteralReader
from app.extract.python.syntax import node_lines
from app.extract.python.values import Constants

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


class ClassTools:
    """Reads `Tool(name=self.name, ...)` once per class that gives the attributes values."""

    def __init__(self, tree: ast.Module, constants: Constants, opener: Opener | None, literals: LiteralReader,
                 result: FileResult) -> None:
        self.tree = tree
        self.literals = literals
        self.result = result
        self.attrs = ClassAttributes(tree, constants, opener)

    def local(self, call: ast.Call) -> list[Draft] | None:
        """The tools of a `Tool(...)` call using `self.x` in a method of a class of this file: one for the class
        and one for each subclass here that gives the values; None when the call is not in such a method."""
        owner = self._enclosing(call)
        if owner is None or not uses_self(call):
            return None
        method = _method_holding(owner.node, call)
        subclasses = [c for c in self.attrs.subclasses(owner) if self._inherits(c, owner, method)]
        drafts: list[Draft] = []
        problem: Unresolved | None = None
        for ref in [owner, *subclasses]:
            try:
                drafts.append(self._read(call, ref))
            except Unresolved as exc:
                problem = problem if problem is not None else exc
        if not drafts and problem is not None:
            where = " or its subclasses in this file" if subclasses else ""
            self.result.unresolved(f"the tool built by `{owner.node.name}`{where}", problem)
        return drafts

    def inherited(self) -> list[tuple[int, Draft]]:
        """Tools of classes of this file whose base class in another module builds the `Tool(...)`."""
        out: list[tuple[int, Draft]] = []
        for cls in (s for s in self.tree.body if isinstance(s, ast.ClassDef)):
            if not cls.bases:
                continue
            ref = ClassRef(cls)
            for base in self.attrs.mro(ref)[1:]:
                if base.module is None or not speaks_mcp(base.module.tree):
                    continue  # a base of this file: its Tool(...) is read where it is (local())
                for call in _tool_calls(base.node):
                    if not self._inherits(ref, base, _method_holding(base.node, call)):
                        continue  # overridden on the way down: the override builds the tool
                    try:
                        out.append((cls.lineno, self._read(call, ref, foreign=base)))
                    except Unresolved as exc:
                        if not self.attrs.subclasses(ref):  # a class others derive from may leave it to them
                            self.result.unresolved(f"the tool built by `{cls.name}`", exc)
        return out

    def _read(self, call: ast.Call, ref: ClassRef, *, foreign: ClassRef | None = None) -> Draft:
        mro = self.attrs.mro(ref)
        at: ast.AST = ref.node if foreign is not None else call
        keywords = []
        for kw in call.keywords:
            if kw.arg is None:
                continue
            value = kw.value
            if foreign is not None or uses_self_in(value):
                try:
                    value = self.attrs.materialize(Bound(copy.deepcopy(value), foreign or ref), mro, at)
                except Unresolved as exc:
                    if kw.arg == "name":
                        raise
                    self.result.unresolved(f"`{kw.arg}` of the tool built by `{ref.node.name}`", exc)
                    continue
            keywords.append(ast.keyword(arg=kw.arg, value=value))
        bound_call = ast.copy_location(ast.Call(func=call.func, args=[], keywords=keywords), at)
        draft = self.literals.read(bound_call)
        if draft is None:
            raise Unresolved("the Tool(...) it builds has no name", line=call.lineno)
        draft.tool_lines = node_lines(ref.node if foreign is not None or ref.node is not self._owner(call) else call)
        return draft

    def _inherits(self, ref: ClassRef, owner: ClassRef, method: str) -> bool:
        """True when `ref`'s method `method` is `owner`'s (no class in between overrides it)."""
        for cls in self.attrs.mro(ref):
            if any(isinstance(m, _FUNCTIONS) and m.name == method for m in cls.node.body):
                return cls.node is owner.node
        return False

    def _enclosing(self, call: ast.Call) -> ClassRef | None:
        owner = self._owner(call)
        return ClassRef(owner) if owner is not None else None

    def _owner(self, call: ast.Call) -> ast.ClassDef | None:
        for cls in (s for s in self.tree.body if isinstance(s, ast.ClassDef)):
            for method in (m for m in cls.body if isinstance(m, _FUNCTIONS)):
                if method.lineno <= call.lineno <= (method.end_lineno or method.lineno):
                    return cls
        return None


def uses_self_in(node: ast.expr) -> bool:
    return any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
               for n in ast.walk(node))


def _method_holding(cls: ast.ClassDef, call: ast.Call) -> str:
    return next((m.name for m in cls.body if isinstance(m, _FUNCTIONS)
                 and m.lineno <= call.lineno <= (m.end_lineno or m.lineno)), "")


def _tool_calls(cls: ast.ClassDef) -> list[ast.Call]:
    """`Tool(...)` calls using `self.x` in the methods of a class."""
    return [n for m in cls.body if isinstance(m, _FUNCTIONS) for n in ast.walk(m)
            if isinstance(n, ast.Call) and (getattr(n.func, "id", None) or getattr(n.func, "attr", None)) == "Tool"
            and uses_self(n)]
