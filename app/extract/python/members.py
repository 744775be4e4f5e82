"""`A.B` and `helper()` in Python values: Enum members, class attributes, imported modules, returning helpers."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.extract.common import Unresolved
from app.extract.python.enums import (
    REPR_PYTHON,
    enum_kind,
    member,
    member_name,
    member_nodes,
    member_text,
    member_values,
)
from app.extract.python.helpers import returned_expression
from app.extract.python.instances import Instances
from app.extract.python.project import python_at_least
from app.extract.python.settings import instance_attribute
from app.extract.python.syntax import dotted

# What an imported module gives: its module-level constants, classes and functions, by name.
Definitions = dict[str, "ast.expr | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef"]


def class_members(cls: ast.ClassDef) -> dict[str, ast.expr]:
    """Class attributes: `NAME = value` (Enum members too) and `NAME: T = value`."""
    out = {
        a.target.id: a.value for a in cls.body
        if isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name) and a.value is not None
    }
    out.update({
        a.targets[0].id: a.value
        for a in cls.body
        if isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)
    })
    return out


def module_imports(tree: ast.Module) -> dict[str, tuple[str, int]]:
    """Names bound to whole modules, as (module, level) to load: `import pkg.texts as texts`, `import texts`
    (`pkg.texts` when written without `as`), and `from . import texts` (tried when `texts` is no name of the
    package's `__init__`)."""
    out: dict[str, tuple[str, int]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                out[alias.asname or alias.name] = (alias.name, 0)
        elif isinstance(stmt, ast.ImportFrom):
            for alias in stmt.names:
                if alias.name != "*":
                    full = f"{stmt.module}.{alias.name}" if stmt.module else alias.name
                    out.setdefault(alias.asname or alias.name, (full, stmt.level))
    return out


class MemberReader(Instances):
    """The `Constants` part that reads `owner.attr` (mixed into python_values.Constants)."""

    nodes: dict[str, ast.expr]
    classes: dict[str, dict[str, ast.expr]]
    class_defs: dict[str, ast.ClassDef]
    notes: list[Unresolved]
    origin: Path | None
    local_classes: set[int]
    _namespaces: dict[str, Definitions | None]
    _modules: Callable[[str, int], Definitions | None] | None
    _module_names: dict[str, tuple[str, int]]
    foreign: set[int]
    foreign_classes: dict[str, ast.ClassDef]
    _enums: dict[int, list[tuple[str, Any]]]
    _python_311: bool | str | None
    _busy: set[str]
    _foreign_depth: int

    def value(self, node: ast.expr) -> Any:
        raise NotImplementedError

    def _merge(self, found: Definitions) -> None:
        """An imported module's names, for the names used inside its values (this file's own names win)."""
        for name, node in found.items():
            if isinstance(node, ast.ClassDef):
                self.foreign_classes.setdefault(name, node)
            elif isinstance(node, ast.expr) and name not in self.nodes:
                self.nodes[name] = node
                self.foreign.add(id(node))

    def namespace(self, name: str) -> Definitions | None:
        """The definitions of the module `name` is bound to (`import pkg.texts as texts`), else None."""
        if name not in self._namespaces:
            where = self._module_names.get(name)
            found = self._modules(*where) if where is not None and self._modules is not None else None
            self._namespaces[name] = found
            if found:
                self._merge(found)
        return self._namespaces[name]

    def _member(self, node: ast.Attribute) -> Any:
        """`Kind.MEMBER` (its value, which pydantic sends for a text field), `Kind.MEMBER.value` and `.name`, a class
        attribute `Cls.ATTR`, a constant of an imported module `texts.INTRO`, a field of a settings object."""
        if node.attr in {"value", "name"}:
            found = self.enum_member(node.value)
            if found is not None:
                cls, name = found
                values = self._enum_values(cls, node)
                return self._foreign_call(lambda: member(values, name) if node.attr == "value"
                                          else member_name(cls, name, values), cls, node)
        target = node.value if node.attr == "value" else node  # `.value` of a class attribute of unknown bases
        if isinstance(target, ast.Attribute):
            found = self.enum_member(target)
            if found is not None:
                cls, name = found
                return self._foreign_call(lambda: member(self._enum_values(cls, node), name), cls, node)
            owner_class = self._class(target.value)
            if owner_class is not None and target.attr in class_members(owner_class):
                return self._foreign_value(class_members(owner_class)[target.attr], owner_class, node)
        spaced = self.namespace(dotted(node.value) or "") if isinstance(node.value, (ast.Name, ast.Attribute)) \
            else None
        if spaced is not None and isinstance(spaced.get(node.attr), ast.expr):
            return self._imported(spaced[node.attr], node)  # type: ignore[arg-type]
        owner = self.instance(node.value, node)
        if owner is not None:  # `settings.x` of `settings = Settings()`, `get_settings().x`, `self.settings.x`
            call, cls = owner
            key = f"{id(call)}.{node.attr}"
            if key in self._busy:
                raise Unresolved(f"`{ast.unparse(node)[:60]}` refers to itself", line=node.lineno)
            value, note = instance_attribute(call, node.attr, self.class_defs, node, cls=cls,
                                             imported=id(cls) not in self.local_classes)
            self._busy.add(key)
            try:
                found_value = self.value(value)
            finally:
                self._busy.discard(key)
            if note is not None:
                self.notes.append(note)
            return found_value
        raise Unresolved(f"`{ast.unparse(node)}` is not a constant defined in this file", line=node.lineno,
                         end_line=node.end_lineno)

    def enum_member(self, node: ast.expr) -> tuple[ast.ClassDef, str] | None:
        """(the Enum class, the member's name) when `node` is `Kind.MEMBER` of an Enum class known here."""
        if not isinstance(node, ast.Attribute):
            return None
        cls = self._class(node.value)
        if cls is None or enum_kind(cls, self.class_defs) is None:
            return None
        names = {name for name, _ in member_nodes(cls)}
        return (cls, node.attr) if node.attr in names else None

    def enum_text(self, node: ast.expr, *, formatted: bool) -> str | None:
        """What `f"{Kind.MEMBER}"` (formatted) or `str(Kind.MEMBER)` gives; None when `node` is no Enum member."""
        found = self.enum_member(node)
        if found is None:
            return None
        cls, name = found
        if self._python_311 == "unknown":
            self._python_311 = python_at_least(self.origin, REPR_PYTHON)
        kind = enum_kind(cls, self.class_defs)
        assert kind is not None
        value = self._foreign_call(lambda: member(self._enum_values(cls, node), name), cls, node)
        return member_text(cls, name, value, formatted=formatted, kind=kind,
                           classes=self.class_defs, python_311=self._python_311, at=node)  # type: ignore[arg-type]

    def _enum_values(self, cls: ast.ClassDef, at: ast.AST) -> list[tuple[str, Any]]:
        if id(cls) not in self._enums:
            self._enums[id(cls)] = self._foreign_call(lambda: member_values(cls, self.class_defs, self.value), cls, at)
        return self._enums[id(cls)]

    def _class(self, node: ast.expr) -> ast.ClassDef | None:
        """The class `node` names: one of this file, one imported by name, or `module.Cls` of an imported module."""
        if isinstance(node, ast.Name):
            return self.class_defs.get(node.id) if node.id in self.classes else None
        if isinstance(node, ast.Attribute):
            spaced = self.namespace(dotted(node.value) or "")
            found = spaced.get(node.attr) if spaced is not None else None
            if isinstance(found, ast.ClassDef):
                self.class_defs.setdefault(found.name, found)
                return found
        return None

    def _foreign_value(self, node: ast.expr, cls: ast.ClassDef, at: ast.AST) -> Any:
        return self._foreign_call(lambda: self.value(node), cls, at)

    def _foreign_call(self, read: Any, cls: ast.ClassDef, at: ast.AST) -> Any:
        """`read()`, with a failure inside a class of another file said at the line that uses it."""
        if id(cls) in self.local_classes:
            return read()
        self._foreign_depth += 1
        try:
            return read()
        except Unresolved as exc:
            line = getattr(at, "lineno", 0)
            raise Unresolved(f"`{ast.unparse(at)[:60]}` (imported `{cls.name}`): {exc.why}", line=line,
                             end_line=getattr(at, "end_lineno", line)) from None
        finally:
            self._foreign_depth -= 1

    def _imported(self, node: ast.expr, at: ast.Attribute) -> Any:
        self._foreign_depth += 1
        try:
            return self.value(node)
        except Unresolved as exc:
            raise Unresolved(f"`{ast.unparse(at)[:60]}` (imported): {exc.why}", line=at.lineno,
                             end_line=at.end_lineno) from None
        finally:
            self._foreign_depth -= 1

    def helper_value(self, call: ast.Call) -> Any:
        """`helper(...)` where `helper` (of this file or imported) only returns an expression: its value with the
        arguments bound; NotImplemented when `call` calls no such known function."""
        fn = self._function(call.func)
        if fn is None:
            return NotImplemented
        line, end = call.lineno, call.end_lineno
        expr = returned_expression(fn, call)
        key = f"helper {id(fn)}"
        if isinstance(expr, str) or key in self._busy:
            why = expr if isinstance(expr, str) else f"`{fn.name}` calls itself"
            raise Unresolved(f"a call to `{fn.name}` computed at run time ({why})", line=line, end_line=end)
        foreign = not any(stmt is fn for stmt in self.tree.body) if self.tree is not None else True
        self._busy.add(key)
        self._foreign_depth += foreign
        try:
            return self.value(expr)
        except Unresolved as exc:
            where = "imported" if foreign else f"line {fn.lineno}"
            raise Unresolved(f"`{fn.name}(...)` ({where}): {exc.why}", line=line, end_line=end) from None
        finally:
            self._busy.discard(key)
            self._foreign_depth -= foreign
