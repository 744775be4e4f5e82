"""Go: a function of the module that converts its own tool type into the SDK's (`func toSdk(tool api.ServerTool)
*mcp.Tool { ... mcp.Tool{Name: tool.Tool.Name, ...} }`). Its effect is applied to every tool of that type: each field
of the SDK literal taken from the converted tool (`Title: tool.Tool.Annotations.Title`, `ptr.Deref(x, false)`, a
nested `ToolAnnotations{...}` listed as the SDK lists it), and `if s.Properties == nil { s.Properties = make(...) }`
filling an absent container. A field or a change it makes that is not one of these is a TC090 finding."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tree_sitter import Node

from app.extract.common import FileResult, Unresolved
from app.extract.treesitter import fail, short, text

# `tool.Tool.Name`: the parameter, the path to the converted tool inside it.
_NAME_PATH = re.compile(r"^(\w+)((?:\.\w++)*)\.Name$")
_NIL_CHECK = re.compile(r"^(\w+(?:\.\w++)*)\.(\w+)\s*==\s*nil$")
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
    aliases: dict[str, list[str]] = {f"{param}{path}": []}  # Go expression -> the JSON path of the tool it names
    what = f"the conversion `{short(function.child_by_field_name('name') or function)}`"
    for stmt in _statements(body) if body is not None else []:
        if stmt.start_byte > literal.start_byte:
            break  # what follows the SDK literal (its handler, conditional extras) is not read
        try:
            _effect(stmt, scope, aliases, defaults)
        except Unresolved as exc:
            result.unresolved(what, exc)
    fields: dict[str, Any] = {}
    literal_body = literal if literal.type == "literal_value" else literal.child_by_field_name("body")
    for key, _key_node, value in scope.fields(literal_body) if literal_body is not None else []:
        if key in _TOOL_KEYS and key != "Name":
            try:
                fields[_TOOL_KEYS[key]] = _rule(value, scope, aliases)
            except Unresolved as exc:
                result.unresolved(f"{what}: the field `{key}`", exc)
    go_sdk = "modelcontextprotocol/go-sdk" in text(scope.root)
    result.conversions.append((source, Conversion(defaults=defaults, fields=fields, go_sdk=go_sdk)))
    return True


def apply_conversions(results: Sequence[FileResult]) -> None:
    """Fill the containers a conversion function fills, in every tool of the type it converts."""
    found = [(source, done) for res in results for source, done in res.conversions]
    if not found:
        return
    for res in results:
        for draft in res.drafts:
            for source, done in found:
                if draft.source_type != source:
                    continue
                given = draft.fields
                draft.fields = {**given, **{k: v for k, rule in done.fields.items()
                                            if (v := _evaluate(rule, given, k, go_sdk=done.go_sdk)) is not _ABSENT}}
                for key in [k for k, rule in done.fields.items() if _evaluate(rule, given, k, go_sdk=done.go_sdk)
                            is _ABSENT]:
                    draft.fields.pop(key, None)
                for path, empty in done.defaults:
                    holder: Any = draft.fields
                    for key in path[:-1]:
                        holder = holder.get(key) if isinstance(holder, dict) else None
                    if isinstance(holder, dict) and holder.get(path[-1]) is None:
                        holder[path[-1]] = type(empty)()


@dataclass
class Conversion:
    """What a conversion does to each tool: containers filled when nil, and each SDK field's rule."""

    defaults: list[tuple[list[str], Any]]
    # SDK JSON key -> ("path", [JSON path in the converted tool]) | ("deref", path, default) | ("const", value)
    # | ("struct", {annotation key: rule})
    fields: dict[str, Any]
    go_sdk: bool


_ABSENT = object()
_TOOL_KEYS = {"Title": "title", "Description": "description", "InputSchema": "inputSchema",
              "OutputSchema": "outputSchema", "Annotations": "annotations", "Meta": "_meta", "Icons": "icons"}
ANNOTATION_KEYS = {"Title": "title", "ReadOnlyHint": "readOnlyHint", "DestructiveHint": "destructiveHint",
                    "IdempotentHint": "idempotentHint", "OpenWorldHint": "openWorldHint"}


def sdk_annotations(given: dict[str, Any], *, go_sdk: bool) -> dict[str, Any]:
    """Annotations as listed: go-sdk (v1.7) always sends idempotentHint and readOnlyHint, the rest when set."""
    if not go_sdk:
        return {k: v for k, v in given.items() if v is not None}
    out: dict[str, Any] = {
        "idempotentHint": bool(given.get("idempotentHint", False)),
        "readOnlyHint": bool(given.get("readOnlyHint", False)),
    }
    for key in ("destructiveHint", "openWorldHint"):
        if given.get(key) is not None:
            out[key] = given[key]
    if given.get("title"):
        out["title"] = given["title"]
    return out


def _rule(node: Node, scope: Any, aliases: dict[str, list[str]]) -> Any:
    """How one field of the SDK literal is computed from the converted tool."""
    while node.type == "literal_element" and node.named_children:
        node = node.named_children[0]
    target = node.child_by_field_name("operand") if node.type == "unary_expression" else node
    written = text(target) if target is not None else ""
    path = _json_path(written, aliases, scope)
    if path is not None:
        return ("path", path)
    if target is not None and target.type == "call_expression":
        args = [a for a in (target.child_by_field_name("arguments") or target).named_children if a.type != "comment"]
        name = text(target.child_by_field_name("function") or target)
        inner = _json_path(text(args[0]), aliases, scope) if args else None
        if inner is not None and name.endswith("Deref") and len(args) == 2:
            return ("deref", inner, scope.value(args[1]))
        if inner is not None and len(args) == 1:  # a conversion such as `mcp.Meta(tool.Tool.Meta)`
            return ("path", inner)
    if target is not None and target.type == "composite_literal" and text(target).split("{", 1)[0].endswith(
            "ToolAnnotations"):
        body = target.child_by_field_name("body")
        return ("struct", {ANNOTATION_KEYS[k]: _rule(v, scope, aliases)
                           for k, _kn, v in (scope.fields(body) if body is not None else []) if k in ANNOTATION_KEYS})
    try:
        return ("const", scope.value(node))  # the same for every tool
    except Unresolved:
        raise fail(node, f"`{short(node)}` is neither a field of the converted tool nor a constant") from None


def _evaluate(rule: Any, tool: dict[str, Any], key: str, *, go_sdk: bool) -> Any:
    if rule[0] == "path":
        value: Any = tool
        for part in rule[1]:
            value = value.get(part) if isinstance(value, dict) else None
        return _ABSENT if value is None or (value == "" and key in {"title", "description"}) else value
    if rule[0] == "const":
        return _ABSENT if rule[1] in (None, "") else rule[1]
    if rule[0] == "deref":
        found = _evaluate(("path", rule[1]), tool, key, go_sdk=go_sdk)
        return rule[2] if found is _ABSENT else found
    given = {k: _evaluate(r, tool, k, go_sdk=go_sdk) for k, r in rule[1].items()}
    return sdk_annotations({k: (None if v is _ABSENT else v) for k, v in given.items()}, go_sdk=go_sdk)


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
            keys = {"Name": "name", **_TOOL_KEYS, **ANNOTATION_KEYS}
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

