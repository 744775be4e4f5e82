"""FastMCP server-level changes to what is listed: `mount(sub, namespace=...)` (which server objects are mounted
under which prefix, and the renaming), and listing methods a server class or middleware overrides."""

from __future__ import annotations

import ast

from app.extract.common import Draft, FileResult, Unresolved
from app.extract.python_ast import dotted, keyword
from app.extract.python_values import Constants


def read_mount(call: ast.Call, constants: Constants, result: FileResult) -> tuple[str, str, str] | None:
    """(parent server, child server, prefix) of `parent.mount(child, namespace="x")`, or None."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr in {"mount", "import_server"}):
        return None
    parent = dotted(call.func.value)
    args = list(call.args)
    prefix_node = keyword(call, "namespace") or keyword(call, "prefix")
    if prefix_node is None and len(args) == 2 and isinstance(args[0], ast.Constant):
        prefix_node, args = args[0], args[1:]  # FastMCP 1.x order: mount(prefix, server)
    elif prefix_node is None and len(args) == 2:
        prefix_node = args[1]
    child = dotted(args[0]) if args else dotted(keyword(call, "server") or ast.Constant(None))
    if parent is None or child is None or prefix_node is None:
        return None
    try:
        prefix = constants.string(prefix_node)
    except Unresolved as exc:
        result.unresolved(f"the namespace of mounted server `{child}`", exc)
        return None
    return parent, child, prefix


def apply_mounts(draft: Draft, mounts: list[tuple[str, str, str]]) -> None:
    """Prefix a tool's name for each server it is mounted under (innermost first)."""
    seen: set[str] = set()
    while draft.server is not None and draft.server not in seen:
        seen.add(draft.server)
        parent = next(((p, x) for p, c, x in mounts if c == draft.server), None)
        if parent is None:
            return
        draft.name = f"{parent[1]}_{draft.name}"
        draft.server = parent[0]


def listing_overrides(tree: ast.Module, result: FileResult) -> None:
    """A method of a server or middleware class named like FastMCP's listing hooks (`_list_tools`,
    `_list_tools_mcp`, `on_list_tools`...) may rewrite every tool at run time: said once per method, since the
    tools are listed as declared."""
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        bases = " ".join(ast.unparse(b) for b in cls.bases)
        if not any(word in bases for word in ("MCP", "Server", "Middleware")):
            continue  # a client's `list_tools` lists nothing of its own
        for method in cls.body:
            if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and "list_tools" in method.name:
                result.unresolved("the tools as listed", Unresolved(
                    f"`{cls.name}.{method.name}` can change the listed tools at run time; they are shown as "
                    "declared", line=method.lineno, end_line=method.lineno))
