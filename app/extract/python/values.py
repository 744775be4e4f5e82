"""Evaluate Python literal expressions from an `ast` tree without running anything (constants of the same file)."""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.audit.models import LineRange
from app.extract.common import Unresolved
from app.extract.python.conditions import Conditions, is_condition
from app.extract.python.instances import Function, module_functions
from app.extract.python.locals import Locals
from app.extract.python.members import Definitions, MemberReader, class_members, module_imports
from app.extract.python.syntax import dotted, node_lines

_NAMED = {"True": True, "False": False, "None": None}


# Loads `from <module> import ...` (module name, relative level) and gives its module-level definitions, or None.
ModuleLoader = Callable[[str, int], "Definitions | None"]


def module_constants(tree: ast.Module) -> dict[str, ast.expr]:
    """`NAME = <expr>` and `NAME: T = <expr>` at module level."""
    nodes: dict[str, ast.expr] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            nodes[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            nodes[stmt.target.id] = stmt.value
    return nodes


def module_definitions(tree: ast.Module) -> Definitions:
    """Module-level constants, classes (Enums and pydantic models other files import) and functions (factories)."""
    out: Definitions = dict(module_functions(tree))
    out.update(module_constants(tree))
    out.update({stmt.name: stmt for stmt in tree.body if isinstance(stmt, ast.ClassDef)})
    return out


class Constants(MemberReader, Locals, Conditions):
    """Module-level `NAME = <literal>` assignments of one file (and of the modules it imports), evaluated lazily;
    `origin` is the file's path when on disk (its project's Python version decides how Enum members print)."""

    def __init__(self, tree: ast.Module, *, modules: ModuleLoader | None = None, origin: Path | None = None) -> None:
        self.tree: ast.Module | None = tree
        self.origin = origin
        self.nodes: dict[str, ast.expr] = module_constants(tree)
        # Functions of this file and of the modules it imports by name (factories such as `get_settings`).
        self.functions: dict[str, Function] = {}
        # Nodes that live in another file: their values are used, their lines are not this file's.
        self.foreign: set[int] = set()
        # Classes other modules define that this one imports (Enums, pydantic models), by local name.
        self.imported_classes: dict[str, ast.ClassDef] = {}
        self.foreign_classes: dict[str, ast.ClassDef] = {}
        if modules is not None:
            self._imports(tree, modules)
        self.functions.update(module_functions(tree))
        self.classes: dict[str, dict[str, ast.expr]] = {
            name: class_members(cls) for name, cls in self.imported_classes.items()
        }
        self.classes.update({s.name: class_members(s) for s in tree.body if isinstance(s, ast.ClassDef)})
        self.local_classes = {id(s) for s in tree.body if isinstance(s, ast.ClassDef)}
        # Class definitions by name (imported modules' own classes too, for the objects they build).
        self.class_defs: dict[str, ast.ClassDef] = {**self.foreign_classes, **self.imported_classes}
        self.class_defs.update({stmt.name: stmt for stmt in tree.body if isinstance(stmt, ast.ClassDef)})
        # Values read but open to change at run time (a settings default): said on the tool that uses them.
        self.notes: list[Unresolved] = []
        self._busy: set[str] = set()
        # When a list, dict entries whose value is unknown are left out and their problem recorded here.
        self.lenient: list[Unresolved] | None = None
        # Modules bound to a name (`import pkg.texts as texts`), loaded when first used.
        self._modules, self._module_names = modules, module_imports(tree) if modules is not None else {}
        self._namespaces: dict[str, Definitions | None] = {}
        self._enums: dict[int, list[tuple[str, Any]]] = {}
        self._python_311: bool | str | None = "unknown"
        self._foreign_depth, self._functions, self._local_scopes = 0, None, {}

    def _imports(self, tree: ast.Module, modules: ModuleLoader) -> None:
        own = set(self.nodes)
        for stmt in tree.body:
            if not isinstance(stmt, ast.ImportFrom):
                continue
            found = modules(stmt.module or "", stmt.level)
            if not found:
                continue
            self._merge(found)
            for alias in stmt.names:
                local = alias.asname or alias.name
                imported = found.get(alias.name)
                if isinstance(imported, ast.ClassDef):
                    self.imported_classes[local] = imported
                elif isinstance(imported, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.functions[local] = imported
                elif imported is not None and local not in own:
                    self.nodes[local] = imported
                    self.foreign.add(id(imported))

    def is_local(self, node: ast.AST) -> bool:
        return id(node) not in self.foreign

    def text_lines(self, node: ast.expr) -> LineRange | None:
        """Lines of the text `node` stands for, when this file holds it (None for an imported constant)."""
        source = self.source_node(node)
        if isinstance(source, ast.Name) and source.id in self.nodes:
            return None
        return node_lines(source)

    def value_lenient(self, node: ast.expr) -> tuple[Any, list[Unresolved]]:
        """Like value(), but a dict entry that cannot be read is dropped (and reported) instead of failing all."""
        self.lenient = []
        try:
            return self.value(node), self.lenient
        finally:
            self.lenient = None

    def value(self, node: ast.expr) -> Any:
        """The value of a literal expression, or Unresolved saying why it needs the code to run (then the notes
        taken while reading it are dropped: they would explain a value that is not shown)."""
        mark = len(self.notes)
        try:
            return self._value(node)
        except Unresolved:
            del self.notes[mark:]
            raise

    def _value(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.JoinedStr):
            return self._fstring(node)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return [self.value(e) for e in node.elts if not isinstance(e, ast.Starred) or self._fail(e, "a spread")]
        if isinstance(node, ast.Dict):
            out: dict[Any, Any] = {}
            for key, val in zip(node.keys, node.values, strict=True):
                if key is None:
                    spread = self.value(val)
                    if not isinstance(spread, dict):
                        self._fail(val, "a spread of a non-dict")
                    out.update(spread)
                elif self.lenient is not None:
                    try:
                        out[self.value(key)] = self.value(val)
                    except Unresolved as exc:
                        self.lenient.append(exc)
                else:
                    out[self.value(key)] = self.value(val)
            return out
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.value(node.left), self.value(node.right)
            if type(left) is type(right) and isinstance(left, (str, int, float, list)):
                return left + right
            self._fail(node, "an addition of values of different types")
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            operand = self.value(node.operand)
            if isinstance(operand, (int, float)) and not isinstance(operand, bool):
                return -operand if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.Call):
            return self._call(node)
        if is_condition(node):
            return self.condition_value(node)
        if isinstance(node, ast.Attribute):
            return self._member(node)
        return self._fail(node, f"a {_kind(node)} expression")

    def call_kwargs(self, call: ast.Call) -> dict[str, Any]:
        """The keyword arguments of `Model(a=..., b=...)`; a positional argument or `**spread` cannot be read."""
        if call.args or any(kw.arg is None for kw in call.keywords):
            self._fail(call, f"`{_short(call)}` passes arguments ToolChoice cannot name")
        return {kw.arg: self.value(kw.value) for kw in call.keywords if kw.arg is not None}

    def string(self, node: ast.expr) -> str:
        value = self.value(node)
        if not isinstance(value, str):
            self._fail(node, "not a string")
        return value

    def source_node(self, node: ast.expr) -> ast.expr:
        """The node holding the text in this file: a constant's own assignment when `node` names one defined
        here; the reference itself when the constant comes from another module."""
        seen: set[str] = set()
        current = node
        while isinstance(current, ast.Name) and current.id in self.nodes and current.id not in seen:
            seen.add(current.id)
            target = self.nodes[current.id]
            if not self.is_local(target):
                return current
            current = target
        return current

    def _name(self, node: ast.Name) -> Any:
        if node.id in _NAMED:
            return _NAMED[node.id]
        found = self.local(node)  # a variable of a function around the use comes first, as in Python
        target, where_set = found if found is not None else (self.nodes.get(node.id), "")
        if target is None:
            self._fail(node, f"`{node.id}` is not a constant defined in this file")
        key = f"{node.id}{where_set}"
        if key in self._busy:
            self._fail(node, f"`{node.id}` refers to itself")
        self._busy.add(key)
        foreign = not self.is_local(target)  # type: ignore[arg-type]
        self._foreign_depth += foreign
        try:
            return self.value(target)  # type: ignore[arg-type]
        except Unresolved as exc:
            where = where_set or (f" (line {exc.line})" if exc.line != node.lineno else "")
            raise Unresolved(f"`{node.id}`{' (imported)' if foreign else where}: {exc.why}", line=node.lineno,
                             end_line=getattr(node, "end_lineno", node.lineno)) from None
        finally:
            self._busy.discard(key)
            self._foreign_depth -= foreign

    def _fstring(self, node: ast.JoinedStr) -> str:
        parts: list[str] = []
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                parts.append(part.value)
            elif isinstance(part, ast.FormattedValue) and part.conversion == -1 and part.format_spec is None:
                text = self.enum_text(part.value, formatted=True)  # `f"{Kind.MEMBER}"`
                value = text if text is not None else self.value(part.value)
                if not isinstance(value, (str, int)) or isinstance(value, bool):
                    self._fail(part, "an f-string substitution that is not a string constant")
                parts.append(str(value))
            else:
                self._fail(part, "an f-string with a formatted substitution")
        return "".join(parts)

    def _call(self, node: ast.Call) -> Any:
        func = dotted(node.func)
        if func in {"textwrap.dedent", "dedent"} and len(node.args) == 1 and not node.keywords:
            return textwrap.dedent(self.string(node.args[0]))
        if func in {"inspect.cleandoc", "cleandoc"} and len(node.args) == 1 and not node.keywords:
            return inspect.cleandoc(self.string(node.args[0]))
        if isinstance(node.func, ast.Attribute) and node.func.attr in {"strip", "rstrip", "lstrip"} and not node.args:
            return getattr(self.string(node.func.value), node.func.attr)()
        if isinstance(node.func, ast.Attribute) and node.func.attr == "join" and len(node.args) == 1 \
                and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str):
            return self._join(node.func.value.value, node)
        if func == "str" and len(node.args) == 1 and not node.keywords:
            text = self.enum_text(node.args[0], formatted=False)
            value = text if text is not None else self.value(node.args[0])
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return str(value)
        if func in {"dict"} and not node.args:
            return {kw.arg: self.value(kw.value) for kw in node.keywords if kw.arg or self._fail(kw.value, "a spread")}
        found = self.helper_value(node)  # `page_properties()`: a function that only returns an expression
        if found is not NotImplemented:
            return found
        return self._fail(node, f"a call to `{func or _short(node.func)}` computed at run time")

    def _join(self, separator: str, node: ast.Call) -> str:
        """`", ".join(<list or tuple of texts>)`; a set's order is Python's choice at run time, never guessed."""
        origin, seen = node.args[0], set()
        while isinstance(origin, ast.Name) and origin.id in self.nodes and origin.id not in seen:
            seen.add(origin.id)
            origin = self.nodes[origin.id]  # type: ignore[assignment]
        if isinstance(origin, (ast.Set, ast.SetComp)) or (
                isinstance(origin, ast.Call) and dotted(origin.func) in {"set", "frozenset"}):
            self._fail(node, f"`{_short(node)}` joins a set, in an order Python picks at run time")
        items = self.value(node.args[0])
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            self._fail(node, f"`{_short(node)}` joins values that are not known texts")
        return separator.join(items)

    @staticmethod
    def _fail(node: ast.AST, why: str) -> Any:
        line = getattr(node, "lineno", 0)
        raise Unresolved(why, line=line, end_line=getattr(node, "end_lineno", line))


def _kind(node: ast.AST) -> str:
    return {
        "Call": "call",
        "Name": "name",
        "Attribute": "attribute",
        "BinOp": "computed",
        "Subscript": "subscript",
        "JoinedStr": "f-string",
    }.get(type(node).__name__, type(node).__name__.lower())


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."
