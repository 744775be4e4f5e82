"""Python: FastMCP `@x.tool` functions and low-level `Tool(...)` literals, read with `ast` (never imported)."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import Any

from app.extract.common import Draft, FileResult, Language, Unresolved, guarded, lines
from app.extract.python.calls import CallRegistrations, Handlers, Opener
from app.extract.python.docstrings import DocStyle, compiled_docstring, doc_style, parse_docstring
from app.extract.python.imports import OTHER_FRAMEWORKS, SDK, imports_any, speaks_mcp
from app.extract.python.library import library_of
from app.extract.python.loops import bound, loop_bindings
from app.extract.python.lowlevel import LiteralReader
from app.extract.python.mounts import apply_mounts, listing_overrides, read_mount
from app.extract.python.project import fastmcp_version, strips_docstrings
from app.extract.python.results import ResultFields
from app.extract.python.syntax import dotted, keyword, last_name, node_lines, statements, walk
from app.extract.python.tool_classes import ClassTools
from app.extract.python.type_hints import TypeReader
from app.extract.python.values import Constants, ModuleLoader

# Parameter annotations FastMCP injects rather than lists.
_INJECTED = {"Context", "FastMCPContext", "RequestContext"}
# Text that shows a file registers tools with calls (not only decorators): then every call is looked at.
_CALL_MARKERS = ("Tool(", "mount(", "import_server(", "add_tool(", "from_function(")
# `x.tool(fn, ...)` and the call form `x.tool(name=...)(fn)`.
_TOOL_CALL = re.compile(r"\.tool\(\s*[A-Za-z_][\w.]*\s*[,)]|\.tool\((?:[^()]|\([^()]*\))*\)\s*\(")


def extract_python(
    text: str, *, file: str, modules: ModuleLoader | None = None, fastmcp_major: int = 3, opener: Opener | None = None,
    origin: Path | None = None, tree: ast.Module | None = None,
) -> FileResult:
    """Tools defined in one Python file; unreadable parts become TC090 findings. `modules` reads the constants
    of modules it imports from, `opener` their functions (handlers registered by calls); `fastmcp_major` is the
    project's FastMCP version (2 and 3 list differently); `origin` the file's absolute path, if on disk; `tree`
    the text already parsed."""
    result = FileResult(file=file, language=Language.PYTHON)
    try:
        tree = tree if tree is not None else ast.parse(text)
    except SyntaxError as exc:
        result.findings.append(_syntax_finding(exc, file))
        return result
    reader = _Reader(tree, result, modules=modules, fastmcp_major=fastmcp_major, opener=opener, origin=origin)
    result.other_framework = reader.other_framework and not reader.speaks_mcp
    if reader.speaks_mcp and "list_tools" in text:
        listing_overrides(tree, result)
    # Calls matter only for Tool(...) literals and mounts; without them, statements alone are walked (faster).
    reader.run(calls=any(marker in text for marker in _CALL_MARKERS) or _TOOL_CALL.search(text) is not None)
    return result


class _Reader(CallRegistrations, ResultFields):
    def __init__(
        self, tree: ast.Module, result: FileResult, *, modules: ModuleLoader | None, fastmcp_major: int,
        opener: Opener | None = None, sdk_flavour: bool | None = None, origin: Path | None = None,
    ) -> None:
        self.tree = tree
        self.result = result
        self.constants = Constants(tree, modules=modules, origin=origin)
        # The MCP SDK's own FastMCP lists pydantic titles; the standalone `fastmcp` package prunes them.
        # Decided by the module that builds the server object when this one imports it (python_library.py).
        self.sdk_flavour = library_of(tree, opener) == SDK if sdk_flavour is None else sdk_flavour
        self.speaks_mcp = speaks_mcp(tree)
        self.other_framework = imports_any(tree, OTHER_FRAMEWORKS)
        # The standalone package's major version (from the project's lock or requirements); 0 for the SDK's.
        self.fastmcp_major = 0 if self.sdk_flavour else fastmcp_major
        # How docstrings become descriptions (python_docstrings.py), and whether `__doc__` is indentation-stripped.
        self.doc_style = doc_style(sdk=self.sdk_flavour, fastmcp_major=fastmcp_major,
                                   fastmcp_version=fastmcp_version(origin))
        self.strips_docstrings = strips_docstrings(origin)
        self.types = TypeReader(tree, self.constants, titles=self.sdk_flavour)
        self.literals = LiteralReader(self.constants, self.types, TypeReader(tree, self.constants, titles=True),
                                      result)
        self.opener = opener
        self.origin = origin
        self.class_tools = ClassTools(tree, self.constants, opener, self.literals, result)
        self._handlers: Handlers | None = None
        self._others: dict[Path, _Reader] = {}
        self._from_function: set[str] | None = None
        self.loops: dict[int, list[dict[str, ast.expr]]] = {}
        self.inner: set[int] = set()

    def run(self, *, calls: bool = True) -> None:
        kinds = (ast.ImportFrom, ast.Call, ast.FunctionDef, ast.AsyncFunctionDef)
        nodes = [n for n in (walk(self.tree) if calls else statements(self.tree)) if isinstance(n, kinds)]
        if calls:
            self.loops = loop_bindings(self.tree, self.constants)
            # `add_tool(Tool.from_function(...))` is one tool: the inner call is read through the outer one.
            self.inner = {id(n.args[0]) for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                          and n.func.attr == "add_tool" and n.args and isinstance(n.args[0], ast.Call)}
        for node in nodes:
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    self.result.imports[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Call) and self.speaks_mcp:  # not `requests.Session().mount(...)`
                mount = read_mount(node, self.constants, self.result)
                if mount is not None:
                    self.result.mounts.append(mount)
        found: list[tuple[int, Draft]] = []
        for node in nodes:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Call)):
                continue
            variants: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.Call] = [
                bound(node, b) for b in self.loops.get(id(node), [])] if isinstance(node, ast.Call) else []
            for each in variants or [node]:
                with guarded(self.result, node.lineno, node.end_lineno):
                    drafts = self._candidates(each)
                    found.extend((node.lineno, draft) for draft in drafts)
                    self._notes(drafts)
        with guarded(self.result, 1):
            found.extend(self.class_tools.inherited())  # classes whose imported base builds their Tool(...)
        self.result.drafts.extend(d for _, d in sorted(found, key=lambda item: item[0]))
        local = {d.server for d in self.result.drafts}
        renamed: dict[str, str] = {}
        for draft in self.result.drafts:
            before = draft.name
            apply_mounts(draft, [(p, c, x) for p, c, x in self.result.mounts if c in local])
            if draft.name != before:
                renamed[before] = draft.name
        self.result.rename_findings(renamed)

    def _notes(self, drafts: list[Draft]) -> None:
        """Values read but open to change at run time (settings defaults), said on the tools that use them."""
        notes, self.constants.notes = self.constants.notes, []
        for note in {n.why: n for n in notes}.values():
            for draft in drafts:
                self.result.unresolved(f"tool `{draft.name}`", note, tool=draft.name)

    def _candidates(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Call) -> list[Draft]:
        """The tools one function or call defines (a function may carry several tool decorators)."""
        if isinstance(node, ast.Call) and (dotted(node.func) or "").rsplit(".", 1)[-1] == "Tool":
            # langchain and others have `Tool(name=...)` too; MCP's has an inputSchema or comes from an MCP import.
            if not (self.speaks_mcp or keyword(node, "inputSchema") is not None):
                return []
            in_class = self.class_tools.local(node)  # `Tool(name=self.name, ...)` in a tool class's method
            drafts = in_class if in_class is not None else [self.literals.read(node)]
        elif self.other_framework and not self.speaks_mcp:
            return []  # `@agent.tool` of pydantic-ai and the like: not MCP tools
        elif isinstance(node, ast.Call):
            drafts = [self._registered(node)]
        else:
            drafts = [self._decorated(node, deco) for deco in node.decorator_list]
        return [d for d in drafts if d is not None]

    # -- @server.tool ----------------------------------------------------------------------------------
    def _decorated(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, deco: ast.expr) -> Draft | None:
        call = deco if isinstance(deco, ast.Call) else None
        target = call.func if call else deco
        if not (isinstance(target, ast.Attribute) and target.attr == "tool"):
            return None
        server = dotted(target.value)
        name, name_node = fn.name, None
        start = min([fn.lineno, *(d.lineno for d in fn.decorator_list)])
        if call is not None:
            enabled = keyword(call, "enabled")
            if isinstance(enabled, ast.Constant) and enabled.value is False:
                self.result.not_sites.add(deco.lineno)
                return None
            name_node = keyword(call, "name") or (call.args[0] if call.args else None)
            if name_node is not None:
                try:
                    name = self.constants.string(name_node)
                except Unresolved as exc:
                    self.result.unresolved(f"the name of the tool defined by `{fn.name}`", exc)
                    return None
        draft = Draft(
            name=name,
            fields={},
            tool_lines=lines(start, fn.end_lineno),
            server=server,
            name_lines=node_lines(self.constants.source_node(name_node)) if name_node is not None else lines(fn.lineno),
        )
        doc_description, doc_params = self._docstring(fn, draft)
        self._field(draft, call, "title", "title")
        description_node = keyword(call, "description") if call else None
        if description_node is not None:
            self._field(draft, call, "description", "description")
        elif doc_description is not None:
            draft.fields["description"] = doc_description
        elif self.doc_style is DocStyle.RAW:  # `fn.__doc__ or ""`
            draft.fields["description"] = ""
        excluded: set[str] = set()
        exclude_node = keyword(call, "exclude_args") if call else None
        if exclude_node is not None:
            try:
                excluded = set(self.constants.value(exclude_node))
            except Unresolved as exc:
                self.result.unresolved(f"`exclude_args` of tool `{name}`", exc, tool=name)
        draft.fields["inputSchema"] = self._signature(fn, draft, doc_params, excluded)
        output = self._output(fn, draft, call)
        if output is not None:
            draft.fields["outputSchema"] = output
        self._field(draft, call, "annotations", "annotations")
        self._field(draft, call, "icons", "icons")
        if "title" not in draft.fields and isinstance(draft.fields.get("annotations"), dict):
            title = draft.fields["annotations"].get("title")
            if title is not None and not self.sdk_flavour:
                draft.fields["title"] = title
        if not self.sdk_flavour:
            self._meta(draft, call)
        return draft

    def _docstring(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, draft: Draft) -> tuple[str | None, dict[str, str]]:
        first = fn.body[0] if fn.body else None
        if not (
            isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
        ):
            return None, {}
        draft.description_lines = node_lines(first.value)
        raw = first.value.value
        if self.doc_style is DocStyle.RAW:
            return self._raw_doc(raw, draft, first.value), {}
        if self.doc_style is DocStyle.GETDOC:
            return inspect.cleandoc(raw) or None, {}
        return parse_docstring(raw)

    def _raw_doc(self, raw: str, draft: Draft, node: ast.expr) -> str:
        """`fn.__doc__`: as written before Python 3.13, indentation-stripped from 3.13 on (python_project.py)."""
        stripped = compiled_docstring(raw)
        if self.strips_docstrings is False:
            return raw
        if self.strips_docstrings is None and stripped != raw:
            self.result.unresolved(f"the description of tool `{draft.name}`", Unresolved(
                "the raw docstring is sent; Python 3.13+ strips its indentation and older Pythons keep it, and the "
                "project does not say which it runs on (.python-version, requires-python): shown as 3.13+ sends it",
                line=node.lineno, end_line=node.end_lineno), tool=draft.name)
        return stripped

    def _field(self, draft: Draft, call: ast.Call | None, kwarg: str, key: str) -> None:
        node = keyword(call, kwarg) if call else None
        if node is None or (isinstance(node, ast.Constant) and node.value is None):
            return
        try:
            if isinstance(node, ast.Call) and (dotted(node.func) or "").endswith("ToolAnnotations"):
                value: Any = {k: v for k, v in self.constants.call_kwargs(node).items() if v is not None}
            else:
                value = self.constants.value(node)
        except Unresolved as exc:
            self.result.unresolved(f"the {kwarg} of tool `{draft.name}`", exc, tool=draft.name)
            return
        draft.fields[key] = value
        if key == "description":
            draft.description_lines = self.constants.text_lines(node)

    def _signature(
        self, fn: ast.FunctionDef | ast.AsyncFunctionDef, draft: Draft, doc: dict[str, str], excluded: set[str]
    ) -> dict[str, Any]:
        args = fn.args
        positional = [*args.posonlyargs, *args.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        pairs = [*zip(positional, defaults, strict=True), *zip(args.kwonlyargs, args.kw_defaults, strict=True)]
        props: dict[str, Any] = {}
        required: list[str] = []
        self.types.defs = {}
        for arg, default in pairs:
            if arg.arg in {"self", "cls"} or arg.arg in excluded or _injected(arg.annotation):
                continue
            param = self.types.param(arg.arg, arg.annotation, default)
            for exc in {problem.why: problem for problem in reversed(param.problems)}.values():  # once per cause
                self.result.unresolved(
                    f"parameter `{arg.arg}` of tool `{draft.name}`", exc, tool=draft.name, parameter=arg.arg
                )
            if "description" not in param.schema and arg.arg in doc:
                param.schema["description"] = doc[arg.arg]
            elif param.description_node is not None and "description" in param.schema:
                where = self.constants.text_lines(param.description_node)
                if where is not None:
                    draft.parameter_lines[arg.arg] = where
            key = param.alias or arg.arg
            props[key] = param.schema
            if not param.has_default:
                required.append(key)
        # FastMCP 3 keeps pydantic's `additionalProperties: false`; FastMCP 2 prunes it; the SDK never adds it.
        schema: dict[str, Any] = {"additionalProperties": False} if self.fastmcp_major >= 3 else {}
        if self.types.defs:  # the SDK's FastMCP lists classes once, by reference
            schema["$defs"] = dict(self.types.defs)
        schema["properties"] = props
        if required:
            schema["required"] = required
        if self.sdk_flavour:
            schema["title"] = f"{fn.name}Arguments"
        schema["type"] = "object"
        return schema

    # -- mount(sub, namespace=...) ---------------------------------------------------------------------


def _injected(annotation: ast.expr | None) -> bool:
    return annotation is not None and any(last_name(n) in _INJECTED for n in walk(annotation))


def _syntax_finding(exc: SyntaxError, file: str) -> Any:
    from app.extract.common import unresolved_finding

    return unresolved_finding(f"the file does not parse as Python ({exc.msg})", file=file, line=exc.lineno or 1)
