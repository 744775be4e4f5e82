"""Python Enum members read statically: their values (`auto()` too), names, and the text str() and f-strings give."""

from __future__ import annotations

import ast
from collections.abc import Callable
from enum import Enum
from typing import Any

from app.extract.common import Unresolved
from app.extract.python.syntax import last_name

# Levels of base classes followed to tell whether a class is an Enum.
MAX_BASES = 6
# The first Python whose format() of a mixed-in Enum member gives `Cls.NAME` and whose IntEnum str() gives the value
# (CPython 3.11, "What's New": enum).
REPR_PYTHON = (3, 11)


class EnumKind(Enum):
    """How a member turns into text (Python's enum module, 3.11 "What's New")."""

    PLAIN = "plain"  # Enum, Flag: str() and format() give `Cls.NAME`
    MIXED = "mixed"  # (str, Enum), (int, Enum): str() gives `Cls.NAME`; format() the value before 3.11, the name after
    STR_ENUM = "str_enum"  # StrEnum (3.11+): str() and format() give the value
    REPR = "repr"  # IntEnum, IntFlag, ReprEnum: format() gives the value; str() too from 3.11, `Cls.NAME` before


_KINDS = {"Enum": EnumKind.PLAIN, "Flag": EnumKind.PLAIN, "StrEnum": EnumKind.STR_ENUM, "IntEnum": EnumKind.REPR,
          "IntFlag": EnumKind.REPR, "ReprEnum": EnumKind.REPR}
_MIXINS = {"str", "int", "float", "bytes"}
# Methods that change how a member turns into text or how auto() numbers: then only running the code says.
_TEXT_METHODS = {"__str__", "__format__"}
_AUTO_METHODS = {"_generate_next_value_"}


def enum_kind(cls: ast.ClassDef, classes: dict[str, ast.ClassDef], depth: int = 0) -> EnumKind | None:
    """The kind of Enum `cls` is, through its known bases; None when it is not an Enum."""
    names = [last_name(b) or "" for b in cls.bases]
    kinds = [_KINDS.get(n) or (enum_kind(classes[n], classes, depth + 1) if n in classes and n != cls.name
                               and depth < MAX_BASES else None) for n in names]
    found = [k for k in kinds if k is not None]
    if not found:
        return None
    for kind in (EnumKind.STR_ENUM, EnumKind.REPR, EnumKind.MIXED):
        if kind in found:
            return kind
    return EnumKind.MIXED if any(n in _MIXINS for n in names) else EnumKind.PLAIN


def defines(cls: ast.ClassDef, methods: set[str], classes: dict[str, ast.ClassDef], depth: int = 0) -> str | None:
    """The first of `methods` the class or a known base class defines, else None."""
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name in methods:
            return stmt.name
    for base in cls.bases:
        parent = classes.get(last_name(base) or "")
        found = defines(parent, methods, classes, depth + 1) if parent is not None and depth < MAX_BASES else None
        if found:
            return found
    return None


def member_nodes(cls: ast.ClassDef) -> list[tuple[str, ast.expr]]:
    """`NAME = value` (and `NAME: T = value`) entries of an Enum body in order; `_private` names are not members."""
    out: list[tuple[str, ast.expr]] = []
    for stmt in cls.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            out.append((stmt.targets[0].id, stmt.value))
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            out.append((stmt.target.id, stmt.value))
    return [(name, value) for name, value in out if not name.startswith("_")]


def member_values(cls: ast.ClassDef, classes: dict[str, ast.ClassDef], value_of: Callable[[ast.expr], Any]
                  ) -> list[tuple[str, Any]]:
    """Each member with its value, in order, aliases included; `auto()` numbered as Python does for Enum and
    IntEnum (the last integer + 1, from 1) and lower-cased names for StrEnum. A value that cannot be read is its
    Unresolved, raised only where that member is used (member(), member_name())."""
    kind = enum_kind(cls, classes)
    custom = defines(cls, _AUTO_METHODS, classes)
    made = defines(cls, {"__new__"}, classes)
    out: list[tuple[str, Any]] = []
    for name, node in member_nodes(cls):
        if made is not None:  # `__new__` sets each member's value from what the body gives it
            out.append((name, Unresolved(f"`{cls.name}` defines `__new__`: the value of `{cls.name}.{name}` is made "
                                         "at run time", line=node.lineno, end_line=node.end_lineno)))
        elif not _is_auto(node):
            try:
                out.append((name, value_of(node)))
            except Unresolved as exc:
                out.append((name, exc))
        elif custom is None and kind is EnumKind.STR_ENUM:
            out.append((name, name.lower()))
        elif custom is None and kind in {EnumKind.PLAIN, EnumKind.REPR} and not _is_flag(cls, classes) \
                and all(isinstance(v, int) and not isinstance(v, bool) for _, v in out):
            out.append((name, out[-1][1] + 1 if out else 1))
        else:
            out.append((name, Unresolved(f"`{cls.name}.{name}` is numbered by `auto()` in a way read only at run "
                                         "time", line=node.lineno, end_line=node.end_lineno)))
    return out


def member(values: list[tuple[str, Any]], name: str) -> Any:
    """The value of one member (from member_values), or its Unresolved raised."""
    found = next(v for n, v in values if n == name)
    if isinstance(found, Unresolved):
        raise found
    return found


def member_name(cls: ast.ClassDef, name: str, values: list[tuple[str, Any]]) -> str:
    """`Cls.MEMBER.name`: the first member with the same value (an alias gives its canonical member's name)."""
    mine = member(values, name)
    for other, value in values:
        if isinstance(value, Unresolved):
            raise Unresolved(f"whether `{cls.name}.{name}` is an alias of `{other}`: {value.why}", line=value.line,
                             end_line=value.end_line)
        if value == mine and type(value) is type(mine):
            return other
    return name


def member_text(cls: ast.ClassDef, member: str, value: Any, *, formatted: bool, kind: EnumKind,
                classes: dict[str, ast.ClassDef], python_311: bool | None, at: ast.AST) -> str:
    """What `str(member)` (formatted False) or `f"{member}"` (formatted True) gives."""
    line = getattr(at, "lineno", 0)
    end = getattr(at, "end_lineno", line)
    custom = defines(cls, _TEXT_METHODS, classes)
    if custom is not None:
        raise Unresolved(f"`{cls.name}` defines `{custom}`: the text of its members is computed at run time",
                         line=line, end_line=end)
    by_value = {EnumKind.STR_ENUM: True, EnumKind.PLAIN: False, EnumKind.MIXED: False if not formatted else None,
                EnumKind.REPR: True if formatted else None}[kind]
    if by_value is None:  # the answer changed in Python 3.11
        if python_311 is None:
            what = "an f-string of" if formatted else "str() of"
            named, valued = f"`{cls.name}.{member}`", repr(value)
            new, old = (named, valued) if kind is EnumKind.MIXED else (valued, named)
            raise Unresolved(f"{what} `{cls.name}.{member}` gives {new} on Python 3.11+ and {old} before, and the "
                             "project does not say which Python it runs on (.python-version, requires-python)",
                             line=line, end_line=end)
        by_value = python_311 if kind is EnumKind.REPR else not python_311
    if not by_value:
        return f"{cls.name}.{member}"
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise Unresolved(f"`{cls.name}.{member}` has a value that is not a text or a number", line=line, end_line=end)
    return str(value)


def _is_auto(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and last_name(node.func) == "auto" and not node.args and not node.keywords


def _is_flag(cls: ast.ClassDef, classes: dict[str, ast.ClassDef], depth: int = 0) -> bool:
    for base in cls.bases:
        name = last_name(base) or ""
        if name in {"Flag", "IntFlag"}:
            return True
        if name in classes and depth < MAX_BASES and _is_flag(classes[name], classes, depth + 1):
            return True
    return False


def iterated_values(cls: ast.ClassDef, classes: dict[str, ast.ClassDef], value_of: Callable[[ast.expr], Any]
                    ) -> list[Any]:
    """The values `[m.value for m in Cls]` gives (pydantic's enum schema): aliases are not iterated."""
    values = member_values(cls, classes, value_of)
    return [member(values, n) for n, _ in values if member_name(cls, n, values) == n]
