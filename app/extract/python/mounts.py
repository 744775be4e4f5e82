"""FastMCP server-level changes to what is listed: `mount(sub, namespace=...)` (which server objects are mounted
under which prefix, and the renaming), and listing methods a server class or middleware overrides."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from app.extract.common import Draft, FileResult, Unresolved
from app.extract.python.syntax import dotted, keyword
from app.extract.python.transforms import apply_transform
from app.extract.python.values import Constants


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
    `_list_tools_mcp`, `on_list_tools`...) may rewrite every tool at run time: said once per method. A module
    function it calls with one argument (`sanitize(mcp_tool)`) is recorded to be applied to the tools of the
    server objects of that class (app/extract/python/transforms.py)."""
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        bases = " ".join(ast.unparse(b) for b in cls.bases)
        if not any(word in bases for word in ("MCP", "Server", "Middleware")):
            continue  # a client's `list_tools` lists nothing of its own
        servers = [t.id for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                   and dotted(n.value.func) == cls.name for t in n.targets if isinstance(t, ast.Name)]
        for method in cls.body:
            if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or "list_tools" not in method.name:
                continue
            own = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
            called = _one_argument_calls(method, functions, own)
            applied = sorted(called)
            result.listing_transforms.extend((var, called[f], functions) for var in servers for f in applied)
            why = f"`{cls.name}.{method.name}` can change the listed tools at run time; they are shown as declared"
            if applied and servers:
                why = (f"`{cls.name}.{method.name}` decides at run time which tools are listed (all are shown); "
                       f"`{'`, `'.join(applied)}` is applied to each tool as written")
            result.unresolved("the tools as listed", Unresolved(why, line=method.lineno, end_line=method.lineno))


def _one_argument_calls(method: ast.AST, functions: dict[str, ast.FunctionDef],
                        own: dict[str, ast.FunctionDef]) -> dict[str, ast.FunctionDef]:
    """`f(tool)` of a module function and `self.f(tool)` of a method of the class, called in a listing hook."""
    out: dict[str, ast.FunctionDef] = {}
    for call in (c for c in ast.walk(method) if isinstance(c, ast.Call) and len(c.args) == 1 and not c.keywords):
        if isinstance(call.func, ast.Name) and call.func.id in functions:
            out[call.func.id] = functions[call.func.id]
        elif isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
                and call.func.value.id in {"self", "cls"} and call.func.attr in own:
            out[f"{call.func.value.id}.{call.func.attr}"] = own[call.func.attr]
    return out


def apply_listing_transforms(results: Sequence[FileResult]) -> None:
    """Apply each listing hook's transform to the tools of its server (after mounts): the tool as listed."""
    transforms: dict[tuple[str, str], list[tuple[FileResult, Any, dict[str, Any]]]] = {}
    for res in results:
        for var, function, functions in res.listing_transforms:
            transforms.setdefault((res.path or res.file, var), []).append((res, function, functions))
    if not transforms:
        return
    for res in results:
        for draft in res.drafts:
            key = (draft.server_file or res.path or res.file, draft.server or "")
            for owner, function, functions in transforms.get(key, []):
                try:
                    fields = apply_transform(function, {"name": draft.name, **draft.fields}, functions=functions)
                except Unresolved as exc:
                    owner.unresolved(f"tool `{draft.name}` as listed", exc, tool=draft.name)
                    continue
                draft.name = fields.pop("name", draft.name)
                draft.fields = fields
