"""Attributes of settings objects and plain classes read statically (a BaseSettings default is noted)."""

from __future__ import annotations

import ast

from app.extract.common import Unresolved
from app.extract.python.syntax import dotted, keyword, last_name

# Base classes whose fields the environment can set (pydantic-settings, and pydantic 1's BaseSettings).
_ENVIRONMENT_BASES = {"BaseSettings"}
# Levels of base classes followed for a field's default.
MAX_BASES = 6


def class_default(cls: ast.ClassDef, attr: str, classes: dict[str, ast.ClassDef], depth: int = 0) -> ast.expr | None:
    """The expression `attr` is set to in the class body (or a base class's), `Field(default=...)` unwrapped."""
    for stmt in cls.body:
        target, value = None, None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign):
            target, value = stmt.target, stmt.value
        if isinstance(target, ast.Name) and target.id == attr and value is not None:
            return _unwrapped(value)
    if depth < MAX_BASES:
        for base in cls.bases:
            parent = classes.get(last_name(base) or "")
            found = class_default(parent, attr, classes, depth + 1) if parent is not None else None
            if found is not None:
                return found
    return None


def _unwrapped(value: ast.expr) -> ast.expr:
    if isinstance(value, ast.Call) and last_name(value.func) == "Field":
        default = keyword(value, "default")
        if default is None and value.args:
            default = value.args[0]
        if default is not None:
            return default
        raise Unresolved("a field without a literal default (`default_factory` or required)", line=value.lineno,
                         end_line=value.end_lineno)
    return value


def from_environment(cls: ast.ClassDef, classes: dict[str, ast.ClassDef], depth: int = 0) -> bool:
    """True when the class is (or derives from) pydantic's BaseSettings."""
    for base in cls.bases:
        name = last_name(base) or ""
        if name in _ENVIRONMENT_BASES:
            return True
        parent = classes.get(name)
        if parent is not None and depth < MAX_BASES and from_environment(parent, classes, depth + 1):
            return True
    return False


def instance_attribute(instance: ast.expr, attr: str, classes: dict[str, ast.ClassDef], node: ast.AST, *,
                       cls: ast.ClassDef | None = None, imported: bool = False) -> tuple[ast.expr, Unresolved | None]:
    """The expression behind `<instance>.attr` where `instance` is `Cls(...)` of a known class (`cls`, else found
    by name in `classes`): the keyword passed to the constructor, else the class default; with a note when the
    environment may set it instead."""
    line = getattr(node, "lineno", 0)
    end = getattr(node, "end_lineno", line)
    if cls is None and isinstance(instance, ast.Call):
        cls = classes.get(dotted(instance.func) or "")
    if cls is None or not isinstance(instance, ast.Call):
        raise Unresolved(f"`{ast.unparse(node)[:40]}` is not an attribute of an object built in this file",
                         line=line, end_line=end)
    passed = keyword(instance, attr)
    value = passed if passed is not None else class_default(cls, attr, classes)
    if value is None:
        raise Unresolved(f"`{cls.name}` does not give `{attr}` a value in its class body", line=line, end_line=end)
    note = None
    if from_environment(cls, classes):
        note = Unresolved(
            f"`{ast.unparse(node)[:60]}` is the default of the settings field `{cls.name}.{attr}` ("
            f"{'imported, ' if imported else ''}line {value.lineno}); an environment variable or .env file may set "
            "another value at run time",
            line=line, end_line=end)
    return value, note
