"""Go: a function of the module that converts its own tool type into the SDK's (`func toSdk(tool api.ServerTool)
*mcp.Tool { ... mcp.Tool{Name: tool.Tool.Name, ...} }`). Its effect is applied to every tool of that type when
it is one ToolChoice can state: the fields are copied, and `if s.Properties == nil { s.Properties = make(...) }`
fills an absent container. Any other change it makes to the converted tool is a TC090 finding."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tree_sitter import Node

from app.extract.common import FileResult, Unresolved
from app.extract.treesitter import fail, short, text

# `tool.Tool.Name`: the parameter, the path to the converted tool inside it.
_NAME_PATH = re.compile(r"^(\w+)((?:\.\w+)*)\.Name$")
_NIL_CHECK = re.compile(r"^(\w+(?:\.\w+)*)\.(\w+)\s*==\s*nil$")
_EMPTY = re.compile(r"^(?:make\(\s*((?:map\[|\[\])[^,()]*?)\s*(?:,\s*\d+\s*)?\)|((?:map\[|\[\])[^{]*)\{\s*\})$")


def conversion(literal: Node, name: Node, scope: Any, result: FileResult) -> bool:
    """When `literal` (an SDK Tool whose Name is `param.path.Name`) is inside a converting function, record its
    effect on `result.conversions` and return True; False when it is not a conversion."""
    match = _NAME_PATH.match(text(name))
    function = literal.parent
    while function is not None and function.type not in {"function_declaration", "method_declaration"}:
        function = function.parent
    if match is None or function is None:
        return False
    param, path = match.group(1), match.group(2)
    declared = _param_type(function, param)
    source = _converted_type(scope, declared, path) if declared is not None else None
    if source is None:
        return False
    body = function.child_by_field_name("body")
    defaults: list[tuple[list[str], Any]] = []
    aliases = {f"{param}{path}": []}  # Go expression -> the JSON path of the tool it names
    for stmt in _statements(body) if body is not None else []:
        try:
            _effect(stmt, scope, aliases, defaults)
        except Unresolved as exc:
            result.unresolved(f"the conversion `{short(function.child_by_field_name('name') or function)}`", exc)
    result.conversions.append((source, defaults))
    return True


def apply_conversions(results: Sequence[FileResult]) -> None:
    """Fill the containers a conversion function fills, in every tool of the type it converts."""
    found = [(source, defaults) for res in results for source, defaults in res.conversions]
    if not found:
        return
    for res in results:
        for draft in res.drafts:
            for source, defaults in found:
                if draft.source_type != source:
                    continue
                for path, empty in defaults:
                    holder: Any = draft.fields
                    for key in path[:-1]:
                        holder = holder.get(key) if isinstance(holder, dict) else None
                    if isinstance(holder, dict) and holder.get(path[-1]) is None:
                        holder[path[-1]] = type(empty)()


def literal_type(scope: Any, node: Node, folder: Path | None) -> str | None:
    """"<package folder>:<Type>" of a Tool literal whose type is declared in this module, else None."""
    kind = node.child_by_field_name("type") if node.type == "composite_literal" else None
    written = text(kind).lstrip("*&") if kind is not None else ""
    return _type_key(scope, written, folder) if written else None


def _type_key(scope: Any, written: str, folder: Path | None) -> str | None:
    qualifier, _, name = written.rpartition(".")
    if not qualifier:
        return f"{folder}:{name}" if folder is not None else None
    path = scope.imports.get(qualifier)
    where = scope.module.folder(path) if scope.module is not None and path is not None else None
    return f"{where}:{name}" if where is not None else None


def _param_type(function: Node, param: str) -> str | None:
    params = function.child_by_field_name("parameters")
    for decl in params.named_children if params is not None else []:
        names = [text(n) for n in decl.children_by_field_name("name")]
        kind = decl.child_by_field_name("type")
        if param in names and kind is not None:
            return text(kind).lstrip("*")
    return None


def _converted_type(scope: Any, declared: str, path: str) -> str | None:
    """The type key of `param<path>`: the parameter's type, or the type of the struct field the path names."""
    fields = [f for f in path.split(".") if f]
    qualifier, _, name = declared.rpartition(".")
    import_path = scope.imports.get(qualifier) if qualifier else None
    folder = scope.module.folder(import_path) if scope.module is not None and import_path is not None else None
    if not qualifier:
        folder = scope.folder
    package = scope.load_package(folder) if folder is not None and scope.load_package is not None else None
    for field in fields:
        declared_type = package.types.get(name) if package is not None else None
        if declared_type is None or declared_type[0].type != "struct_type":
            return None
        found = next((d for d in _field_declarations(declared_type[0])
                      if field in [text(n) for n in d.children_by_field_name("name")]), None)
        kind = found.child_by_field_name("type") if found is not None else None
        if kind is None or "." in text(kind):
            return None  # a field of another package's type: not followed
        name = text(kind).lstrip("*")
    return f"{folder}:{name}" if folder is not None else None


def _effect(stmt: Node, scope: Any, aliases: dict[str, list[str]], defaults: list[tuple[list[str], Any]]) -> None:
    """Read one statement of a conversion: aliases of the converted tool, nil-filled containers, the rest."""
    if stmt.type == "short_var_declaration":
        left, right = stmt.child_by_field_name("left"), stmt.child_by_field_name("right")
        if left is not None and right is not None and len(left.named_children) == 1 == len(right.named_children):
            target = _json_path(text(right.named_children[0]), aliases, scope)
            if target is not None:
                aliases[text(left)] = target
        return
    if stmt.type == "if_statement":
        condition = stmt.child_by_field_name("condition")
        check = _NIL_CHECK.match(text(condition)) if condition is not None else None
        holder = _json_path(check.group(1), aliases, scope) if check is not None else None
        consequence = stmt.child_by_field_name("consequence")
        inner = _statements(consequence) if consequence is not None else []
        if check is not None and holder is not None and len(inner) == 1 and inner[0].type == "assignment_statement":
            left, right = inner[0].child_by_field_name("left"), inner[0].child_by_field_name("right")
            empty = _EMPTY.match(text(right)) if right is not None else None
            if left is not None and text(left) == f"{check.group(1)}.{check.group(2)}" and empty is not None:
                kind = empty.group(1) or empty.group(2)
                defaults.append(([*holder, scope.json_key(check.group(2))], {} if kind.startswith("map") else []))
                return
    if stmt.type == "assignment_statement":
        left = stmt.child_by_field_name("left")
        written = text(left) if left is not None else ""
        if any(written == a or written.startswith(a + ".") for a in aliases):
            raise fail(stmt, f"`{short(stmt)}` changes the converted tool in a way ToolChoice does not follow")


def _json_path(expr: str, aliases: dict[str, list[str]], scope: Any) -> list[str] | None:
    for alias, path in aliases.items():
        if expr == alias:
            return list(path)
        if expr.startswith(alias + "."):
            rest = expr[len(alias) + 1:].split(".")
            if not all(part.isidentifier() for part in rest):
                return None
            keys = {"InputSchema": "inputSchema", "OutputSchema": "outputSchema"}
            return [*path, *(keys.get(p) or scope.json_key(p) for p in rest)]
    return None


def _statements(block: Node) -> list[Node]:
    nodes = [n for n in block.named_children if n.type != "comment"]
    if len(nodes) == 1 and nodes[0].type == "statement_list":
        nodes = [n for n in nodes[0].named_children if n.type != "comment"]
    return nodes


def _field_declarations(struct: Node) -> list[Node]:
    out, stack = [], [struct]
    while stack:
        node = stack.pop(0)
        if node.type == "field_declaration":
            out.append(node)
        else:
            stack.extend(node.named_children)
    return out

