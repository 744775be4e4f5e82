"""Python tools registered by calls rather than decorators: the call form `x.tool(name=...)(handler)`,
`x.add_tool(handler, ...)`, `Tool.from_function(handler, ...)`, and such calls inside `for` loops over literal
lists and dicts. The handler is found statically: a function of this file, a method of the enclosing class
(`self.handler`), or a function of a module it imports (`from .tools import handler`, `tools.handler`)."""

from __future__ import annotations

import ast
import os
import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.extract.common import Draft, FileResult, Language, Unresolved
from app.extract.python.aliases import assignments, keeps_signature, local_assignment
from app.extract.python.docstrings import compiled_docstring
from app.extract.python.syntax import dotted, keyword, node_lines
from app.extract.python.values import Constants, ModuleLoader

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass
class Module:
    """A module read for its functions: its path, tree and the loader of the modules it imports."""

    path: Path
    tree: ast.Module
    modules: ModuleLoader
    opener: Opener
    handlers: Handlers | None = None  # its own imports, read once (for names it re-exports)


# Opens an imported module by (module, level) as written in `from <module> import ...`; None when not in the tree.
Opener = Callable[[str, int], "Module | None"]


@dataclass
class Registration:
    """One call that registers a tool: the decorator-like `x.tool(...)` it amounts to and the handler."""

    decorator: ast.Call
    handler: ast.expr


def registration(call: ast.Call) -> Registration | None:
    """The registration a call makes, or None: `x.tool(...)(h)`, `x.add_tool(h, ...)` (also with
    `Tool.from_function(h, ...)` inside), `x.tool(h, ...)`, `Tool.from_function(h, ...)`."""
    func = call.func
    if isinstance(func, ast.Call) and isinstance(func.func, ast.Attribute) and func.func.attr == "tool":
        return Registration(func, call.args[0]) if len(call.args) == 1 else None
    name = (dotted(func) or "").rsplit(".", 1)[-1]
    if name == "from_function" and "Tool" in (dotted(func) or ""):
        handler = call.args[0] if call.args else keyword(call, "fn")
        rest = [k for k in call.keywords if k.arg != "fn"]
        deco = ast.Call(func=ast.Attribute(value=ast.Name(id="", ctx=ast.Load()), attr="tool", ctx=ast.Load()),
                        args=[], keywords=rest)
        return Registration(ast.copy_location(deco, call), handler) if handler is not None else None
    if not (isinstance(func, ast.Attribute) and func.attr in {"add_tool", "tool"} and call.args):
        return None
    target, keywords = call.args[0], call.keywords
    if isinstance(target, ast.Call) and (dotted(target.func) or "").endswith("from_function"):
        inner = registration(target)
        if inner is None:
            return None
        keywords, target = inner.decorator.keywords, inner.handler
    elif func.attr == "add_tool" and len(call.args) > 1:
        # FastMCP 1.x `add_tool(fn, name, description, ...)`: positional name and description
        named = zip(("name", "description"), call.args[1:], strict=False)
        keywords = [*keywords, *(ast.keyword(arg=k, value=v) for k, v in named)]
    deco = ast.Call(func=ast.Attribute(value=func.value, attr="tool", ctx=ast.Load()), args=[], keywords=keywords)
    return Registration(ast.copy_location(deco, call), target)


def defined_by_from_function(tree: ast.Module) -> set[str]:
    """Names assigned from `Tool.from_function(...)`: an `add_tool(name)` of one adds no second tool."""
    return {
        t.id for stmt in ast.walk(tree) if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)
        and (dotted(stmt.value.func) or "").endswith("from_function") for t in stmt.targets if isinstance(t, ast.Name)
    }


class Handlers:
    """Finds the function a registration names, in this module or in the modules it imports."""

    def __init__(self, tree: ast.Module, opener: Opener | None) -> None:
        self.tree = tree
        self.opener = opener
        self.functions: dict[str, list[Function]] = {}
        self.classes: list[ast.ClassDef] = []
        self.imports: dict[str, tuple[str, int, str | None]] = {}  # local -> (module, level, name or None)
        # Wrapper calls (`wrap(fn)`) met while finding a handler, whose effect on the signature is not known.
        self.wrapped: list[ast.Call] = []
        self._following: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, _FUNCTIONS):
                self.functions.setdefault(node.name, []).append(node)
            elif isinstance(node, ast.ClassDef):
                self.classes.append(node)
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = (node.module or "", node.level, alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.imports[alias.asname] = (alias.name, 0, None)

    def find(self, handler: ast.expr, at: ast.AST) -> tuple[Function, Module | None] | None:
        """The handler's definition and the module holding it (None: this one)."""
        if isinstance(handler, ast.Name):
            local = self._unique(self.functions.get(handler.id, []), top_level=True)
            if local is not None:
                return local, None
            if handler.id in self.imports:
                module, level, name = self.imports[handler.id]
                return self._foreign(module, level, name or handler.id)
            return self._aliased(handler, at)
        if isinstance(handler, ast.Attribute) and isinstance(handler.value, ast.Name):
            owner = handler.value.id
            if owner in {"self", "cls"}:
                method = self._method(handler.attr, at)
                return (method, None) if method is not None else None
            if owner in self.imports:
                module, level, name = self.imports[owner]
                if name is None:  # `import pkg.tools as tools`
                    return self._foreign(module, level, handler.attr)
                return self._foreign(f"{module}.{name}" if module else name, level, handler.attr)
        return None

    def _aliased(self, handler: ast.Name, at: ast.AST) -> tuple[Function, Module | None] | None:
        """A local name assigned once before the call, in its function (or the module): `alias = self.find`
        or `handler = wrap(fn)`; the function it names (a wrapper is noted in `self.wrapped`)."""
        value = local_assignment(self.tree, handler.id, at)
        if value is None or id(value) in self._following:
            return None
        self._following.add(id(value))
        try:
            if isinstance(value, ast.Call) and len(value.args) >= 1:
                found = self.find(value.args[0], at)
                if found is not None and not keeps_signature(value, self.tree):
                    self.wrapped.append(value)
                return found
            return self.find(value, at) if isinstance(value, (ast.Name, ast.Attribute)) else None
        finally:
            self._following.discard(id(value))

    def _unique(self, candidates: list[Function], *, top_level: bool) -> Function | None:
        if top_level:
            module_level = [f for f in candidates if f in self.tree.body]
            if len(module_level) == 1:
                return module_level[0]
        return candidates[0] if len(candidates) == 1 else None

    def _method(self, name: str, at: ast.AST) -> Function | None:
        line = getattr(at, "lineno", 0)
        for cls in self.classes:
            if cls.lineno <= line <= (cls.end_lineno or cls.lineno):
                found = [n for n in cls.body if isinstance(n, _FUNCTIONS) and n.name == name]
                if found:
                    return found[0]
        return self._unique(self.functions.get(name, []), top_level=False)

    def _foreign(self, module: str, level: int, name: str) -> tuple[Function, Module | None] | None:
        opened = self.opener(module, level) if self.opener is not None else None
        if opened is None:
            return None
        found = [s for s in opened.tree.body if isinstance(s, _FUNCTIONS) and s.name == name]
        if found:
            return found[0], opened
        if opened.handlers is None:
            opened.handlers = Handlers(opened.tree, opened.opener)
        imported = opened.handlers
        if name in imported.imports:  # re-exported by a package `__init__`
            sub_module, sub_level, sub_name = imported.imports[name]
            return imported._foreign(sub_module, sub_level, sub_name or name)
        return None


def docstring(fn: Function) -> str | None:
    first = fn.body[0] if fn.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return first.value.value
    return None


def with_doc_attributes(decorator: ast.Call, handler: ast.expr, fn: Function, *, stripped: bool = False) -> ast.Call:
    """`description=handler.__doc__`: the handler's docstring, as the text of its literal (`stripped`: as Python
    3.13+ compiles it, python_project.py)."""
    doc = docstring(fn)
    if doc is not None and stripped:
        doc = compiled_docstring(doc)
    keywords = []
    for kw in decorator.keywords:
        value = kw.value
        if isinstance(value, ast.Attribute) and value.attr == "__doc__" and ast.dump(value.value) == ast.dump(handler):
            value = ast.copy_location(ast.Constant(value=doc), fn.body[0] if doc is not None else value)
        keywords.append(ast.keyword(arg=kw.arg, value=value))
    return ast.copy_location(ast.Call(func=decorator.func, args=decorator.args, keywords=keywords), decorator)


class CallRegistrations:
    """Mixed into the Python reader: tools registered by calls, read like `@server.tool(...)` on the handler."""

    tree: ast.Module
    result: FileResult
    constants: Constants
    opener: Opener | None
    inner: set[int]
    sdk_flavour: bool
    fastmcp_major: int
    _handlers: Handlers | None
    _others: dict[Path, Any]
    _from_function: set[str] | None
    origin: Path | None
    strips_docstrings: bool | None

    def _decorated(self, fn: Function, deco: ast.expr) -> Draft | None:  # provided by the reader
        raise NotImplementedError

    def _registered(self, call: ast.Call) -> Draft | None:
        """A tool registered by a call (see app/extract/python/calls.py), read like `@server.tool(...)` on its
        handler, wherever the handler is defined."""
        reg = registration(call) if id(call) not in self.inner else None
        if reg is None:
            return None
        if self._handlers is None:
            self._handlers = Handlers(self.tree, self.opener)
        if self._from_function is None:
            self._from_function = defined_by_from_function(self.tree)
        if isinstance(reg.handler, ast.Name) and reg.handler.id in self._from_function and \
                isinstance(call.func, ast.Attribute) and call.func.attr == "add_tool":
            return None  # the Tool.from_function(...) it adds is read where it is built
        self._handlers.wrapped = []
        found = self._handlers.find(reg.handler, call)
        local = reg.handler.id if isinstance(reg.handler, ast.Name) else ""
        reassigned = sorted(assignments(self.tree, local, call), key=lambda s: s.lineno) if local else []
        if found is None and len(reassigned) > 1:
            self.result.unresolved("a tool registration", Unresolved(
                f"its handler `{local}` is assigned {len(reassigned)} times (lines "
                f"{', '.join(str(s.lineno) for s in reassigned)}); which one is registered is decided at run time",
                line=call.lineno, end_line=call.end_lineno))
            return None
        if found is None:
            if isinstance(call.func, ast.Call) or "from_function" in (dotted(call.func) or ""):
                self.result.unresolved("a tool registration", Unresolved(
                    f"its handler `{ast.unparse(reg.handler)[:40]}` is not a function of this file, its class or "
                    "a module it imports", line=call.lineno, end_line=call.end_lineno))
            return None
        fn, module = found
        decorator = with_doc_attributes(reg.decorator, reg.handler, fn, stripped=self.strips_docstrings is not False)
        reader: Any = self
        if module is not None:  # the handler lives in another module: read it there, with this call's options
            decorator = self._evaluated(decorator)
            reader = self._other(module)
        draft = reader._decorated(fn, decorator)
        if draft is None:
            return None
        if module is not None:
            self.result.findings.extend(reader.result.findings)
            reader.result.findings = []
            draft.description_lines, draft.parameter_lines = None, {}
            if keyword(decorator, "name") is None:  # named after the handler: where this file names it
                draft.name_lines = node_lines(reg.handler)
        draft.tool_lines = node_lines(call)
        draft.server = draft.server or None
        for wrapper in self._handlers.wrapped:
            self.result.unresolved(f"the parameters of tool `{draft.name}`", Unresolved(
                f"`{ast.unparse(wrapper)[:40]}` wraps the handler; its parameters and docstring are read from "
                f"`{fn.name}`, as a wrapper made with functools.wraps keeps them", line=wrapper.lineno,
                end_line=wrapper.end_lineno), tool=draft.name)
        return draft

    def _evaluated(self, decorator: ast.Call) -> ast.Call:
        """The decorator with the values this file knows written in, for reading it in another module."""
        keywords = []
        for kw in decorator.keywords:
            try:
                value: ast.expr = ast.copy_location(ast.Constant(value=self.constants.value(kw.value)), kw.value)
            except Unresolved:
                value = kw.value
            keywords.append(ast.keyword(arg=kw.arg, value=value))
        return ast.copy_location(ast.Call(func=decorator.func, args=[], keywords=keywords), decorator)

    def _other(self, module: Module) -> Any:
        if module.path not in self._others:
            # Findings in the handler's module name that file, relative like the file being read.
            shown = module.path.as_posix()
            if self.origin is not None:
                relative = os.path.relpath(module.path, self.origin.parent).replace(os.sep, "/")
                shown = posixpath.normpath(posixpath.join(posixpath.dirname(self.result.file), relative))
            result = FileResult(file=shown, language=Language.PYTHON)
            reader: Any = type(self)  # the Python reader this is mixed into
            self._others[module.path] = reader(module.tree, result, modules=module.modules,
                                                fastmcp_major=self.fastmcp_major or 3, opener=module.opener,
                                                sdk_flavour=self.sdk_flavour, origin=module.path)
        return self._others[module.path]
