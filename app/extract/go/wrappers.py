"""Go: the module's own functions that build a tool from their parameters (`MustTool("list_items", "List…", h)`),
one tool listed at each call, read with the function's parameters bound to that call's arguments. Whether a
function is called at all is found in app/extract/go/callers.py."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from app.extract.common import Draft, FileResult, Unresolved
from app.extract.go.bound import (
    Callee,
    CallSite,
    bind,
    callee_of,
    enclosing_function,
    origin_node,
    preorder,
    relocated,
    site_of,
)
from app.extract.go.callers import called
from app.extract.go.declarations import parameter_names
from app.extract.go.statements import MAX_DEPTH
from app.extract.treesitter import call_args, captures, local_span, short, span, text

# `mcp.Tool` and the `Tool` types of other packages (wrapper types such as `api.Tool` with the same fields).
TOOL_TYPE = re.compile(r"^(?:\w+\.)?Tool$")
_CALL = "(call_expression) @call"


@dataclass
class Construction:
    """Where a function builds a tool: `mcp.NewTool(name, ...)` ("new"), a `Tool{Name: name}` literal
    ("literal") or a call of another such function ("call"); `names` are the parameters its name depends on."""

    kind: str
    node: Node
    names: set[str] = field(default_factory=set)


class _Collected(FileResult):
    """A FileResult that keeps the problems as exceptions, to be placed at the call once the tool is read."""

    problems: list[tuple[str, Unresolved, str | None, str | None]]

    def unresolved(self, what: str, exc: Unresolved, *, tool: str | None = None, parameter: str | None = None) -> None:
        self.problems.append((what, exc, tool, parameter))


# Builds the tools of one construction into a result: (kind, node, bound scope, result).
Build = Callable[[str, Node, Any, FileResult], None]


def is_tool_type(kind: str, scope: Any) -> bool:
    """`x.Tool` of an MCP package, or a `Tool` type declared in this module (a wrapper with the same fields);
    not the `Tool` of another library (an LLM SDK's)."""
    qualifier, _, _name = kind.lstrip("[]*&").rpartition(".")
    if not qualifier:
        return "Tool" in scope.types
    path = scope.imports.get(qualifier, qualifier)  # not imported (a fragment): its own name says
    return "mcp" in path.lower() or (scope.module is not None and scope.module.folder(path) is not None)


def constructions(decl: Node, scope: Any, depth: int = 0) -> list[Construction]:
    """Where `decl` builds a tool whose name depends on its parameters (cached per declaration)."""
    key = (decl.id, decl.start_byte)
    cache: dict[tuple[int, int], list[Construction]] = scope.wrapped
    if key in cache:
        return cache[key]
    shared = _package_cache(decl, scope)
    if shared is not None and key in shared:
        cache[key] = shared[key]
        return cache[key]
    cache[key] = []  # a function calling itself builds nothing more
    names, variadic = parameter_names(decl)
    params = {*names, *([variadic] if variadic else [])} - {"_"}
    body = decl.child_by_field_name("body")
    found: list[Construction] = []
    for node in preorder(body) if body is not None and params else []:
        assert body is not None  # the loop walks the body only when there is one
        name = _tool_name(node, scope)
        if name is not None:
            mentioned = _mentions(name, params, body)
            if mentioned:
                found.append(Construction("new" if node.type == "call_expression" else "literal", node, mentioned))
            continue
        if node.type != "call_expression" or depth >= MAX_DEPTH:
            continue
        callee = callee_of(node, scope)
        inner = constructions(callee.decl, callee.scope, depth + 1) if callee is not None else []
        mentioned = {p for c in inner for a in _arguments_for(node, callee.decl, c.names)  # type: ignore[union-attr]
                     for p in _mentions(a, params, body)}
        if inner and mentioned:
            found.append(Construction("call", node, mentioned))
    cache[key] = found
    if shared is not None:
        shared[key] = found
    return found


def _package_cache(decl: Node, scope: Any) -> dict[tuple[int, int], list[Construction]] | None:
    """The cache of the package whose parsed files hold `decl`, shared by every file read while that package is
    unchanged (without it, each file of a large package walked the package's call graph again); None when `decl`
    is in a tree of its own (a file read from text)."""
    package = getattr(scope, "package", None)
    trees = getattr(package, "trees", None)
    if not trees:
        return None
    top = decl
    while top.parent is not None:
        top = top.parent
    if not any(tree.root_node == top for tree in trees):
        return None
    cache: dict[tuple[int, int], list[Construction]] = package.__dict__.setdefault("wrapped_by_declaration", {})
    return cache


def _tool_name(node: Node, scope: Any) -> Node | None:
    """The name expression of `x.NewTool(name, ...)` or of a `Tool{Name: name}` literal; None for other nodes."""
    func = node.child_by_field_name("function") if node.type == "call_expression" else None
    if func is not None and func.type == "selector_expression" and text(func.child_by_field_name("field") or func) \
            == "NewTool" and any("mcp" in path.lower() for path in scope.imports.values()):
        args = call_args(node)
        return args[0] if args else None
    kind = node.child_by_field_name("type") if node.type == "composite_literal" else None
    body = node.child_by_field_name("body") if node.type == "composite_literal" else None
    if kind is None or body is None or not TOOL_TYPE.match(text(kind)) or not is_tool_type(text(kind), scope):
        return None
    for element in body.named_children:
        if element.type == "keyed_element" and len(element.named_children) >= 2 and \
                text(element.named_children[0]) == "Name":
            return _unwrap(element.named_children[1])
    return None


def _unwrap(node: Node) -> Node:
    """The expression of a composite literal's element (`literal_element` wraps it)."""
    return node.named_children[0] if node.type == "literal_element" and node.named_children else node


def _mentions(expr: Node, params: set[str], body: Node) -> set[str]:
    """The parameters an expression depends on, through local `x := ...` declarations of the function."""
    local: dict[str, list[Node]] = {}
    for decl in captures("go", "(short_var_declaration) @d", body).get("d", []):
        left, right = decl.child_by_field_name("left"), decl.child_by_field_name("right")
        if left is not None and right is not None:
            local.setdefault(text(left), []).append(right)
    out: set[str] = set()
    todo, seen = [expr], set()
    while todo:
        for node in preorder(todo.pop()):
            name = text(node) if node.type == "identifier" else ""
            if name in params:
                out.add(name)
            elif name in local and name not in seen:
                seen.add(name)
                todo.extend(local[name])
    return out


def _arguments_for(call: Node, decl: Node, names: set[str]) -> list[Node]:
    """The arguments of `call` that the parameters `names` of `decl` are bound to."""
    params, variadic = parameter_names(decl)
    args = call_args(call)
    out = [a for p, a in zip(params, args, strict=False) if p in names]
    return out + (args[len(params):] if variadic in names else [])


def builds_for_callers(node: Node, name: Node, scope: Any, result: FileResult) -> bool:
    """True when `node` (a tool built with the name `name`) lies in a function of the package that builds it
    from its parameters and is called somewhere in the module: each call lists that tool (the function's lines
    are then no registration site of their own)."""
    function = enclosing_function(node)
    if function is None or function.type == "func_literal" or scope.call is not None:
        return False  # read at a call: a name that cannot be known is said there
    names, variadic = parameter_names(function)
    body = function.child_by_field_name("body")
    if body is None or not _mentions(name, {*names, *([variadic] if variadic else [])}, body):
        return False
    if not called(function, scope):
        return False
    result.listed_at_calls.update(range(function.start_point[0] + 1, function.end_point[0] + 2))
    return True


def read_calls(root: Node, scope: Any, result: FileResult, build: Build) -> None:
    """One tool per call in this file of a module function that builds a tool from its parameters."""
    for call in sorted(captures("go", _CALL, root).get("call", []), key=lambda n: n.start_byte):
        callee = callee_of(call, scope)
        found = constructions(callee.decl, callee.scope) if callee is not None else []
        if callee is None or not found or _passes_on(call, callee.decl, found, scope):
            continue
        _read_call(call, scope, callee, found, result, build, parent=None)


def _passes_on(call: Node, decl: Node, found: list[Construction], scope: Any) -> bool:
    """True for a call inside a function that passes its own parameters on as the name (its callers list it)."""
    function = enclosing_function(call)
    if function is None or function.type == "func_literal":
        return False
    names, variadic = parameter_names(function)
    body = function.child_by_field_name("body")
    params = {*names, *([variadic] if variadic else [])}
    if body is None or not any(_mentions(a, params, body) for c in found for a in _arguments_for(call, decl, c.names)):
        return False
    return called(function, scope)


def _read_call(call: Node, caller: Any, callee: Callee, found: list[Construction], result: FileResult,
               build: Build, *, parent: CallSite | None) -> None:
    site = site_of(callee, call, caller, parent)
    bound = bind(callee, call, caller, site)
    for construction in found:
        collected = _Collected(file=result.file, language=result.language)
        collected.problems = []
        try:
            if construction.kind == "call":
                inner = callee_of(construction.node, bound)
                if inner is not None:
                    _read_call(construction.node, bound, inner, constructions(inner.decl, inner.scope), collected,
                               build, parent=site)
            else:
                build(construction.kind, construction.node, bound, collected)
        except Unresolved as exc:
            collected.problems.append((f"the tool built by `{short(call)}`", exc, None, None))
        for draft in collected.drafts:
            _place(draft, construction, call, bound)
            result.drafts.append(draft)
        for what, problem, tool, parameter in collected.problems:
            result.unresolved(what, relocated(problem, site), tool=tool, parameter=parameter)


def _place(draft: Draft, construction: Construction, call: Node, bound: Any) -> None:
    """Point the tool at the call that names it, and its name and description at the arguments giving them."""
    root = bound.call.caller.root
    if local_span(root, call) is not None:
        draft.tool_lines = span(call)
    if construction.kind == "call":
        return
    name = _tool_name(construction.node, bound)
    if name is not None:
        node, scope = origin_node(name, bound)
        draft.name_lines = scope.lines(node, or_reference=True) or draft.name_lines
    described = _description(construction.node, bound)
    if described is not None and draft.description_lines is None:
        node, scope = origin_node(described, bound)
        draft.description_lines = scope.lines(node) if node is not described else None


def _description(node: Node, scope: Any) -> Node | None:
    if node.type == "call_expression":
        for option in call_args(node)[1:]:
            func = option.child_by_field_name("function") if option.type == "call_expression" else None
            if func is not None and text(func).endswith("WithDescription") and call_args(option):
                return call_args(option)[0]
        return None
    body = node.child_by_field_name("body")
    for element in body.named_children if body is not None else []:
        if element.type == "keyed_element" and len(element.named_children) >= 2 and \
                text(element.named_children[0]) == "Description":
            return _unwrap(element.named_children[1])
    return None
