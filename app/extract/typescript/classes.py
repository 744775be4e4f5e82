"""TypeScript/JavaScript tool classes: a base registers `this.name`, `this.description`...; each concrete subclass."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tree_sitter import Node

from app.extract.common import Draft, Unresolved, guarded
from app.extract.treesitter import call_args, local_span, short, span, text
from app.extract.typescript.imports import DEFAULT_EXPORT

_REGISTER = {"tool", "registerTool", "registerToolTask"}
_DECLARED = {"class_declaration", "abstract_class_declaration"}
_CLASSES = {*_DECLARED, "class"}
_FIELDS = {"public_field_definition", "field_definition"}
_FUNCTIONS = {"arrow_function", "function_expression", "function"}
# How many bases are followed up from a tool class (its family's base, the framework's base...).
_MAX_BASES = 6


def bind_classes(nodes: dict[str, Node], root: Node) -> None:
    """Files top-level `class X` / `abstract class X` declarations under their names (bases of tool classes)."""
    for statement in root.named_children:
        declared = statement.child_by_field_name("declaration") if statement.type == "export_statement" else statement
        name = declared.child_by_field_name("name") if declared is not None else None
        if declared is None or name is None or declared.type not in _DECLARED:
            continue
        nodes.setdefault(text(name), declared)
        if statement.type == "export_statement" and any(c.type == "default" for c in statement.children):
            nodes.setdefault(DEFAULT_EXPORT, declared)


def read_classes(reader: Any, root: Node) -> None:
    """The tool classes of one file, read with the reader of ts_source.py; the registration calls written in
    its classes are listed at each subclass, not here."""
    for cls in _walk(root, _CLASSES):
        site = _registration(cls)
        if site is not None:
            reader.result.listed_at_calls.update({site.start_point[0] + 1, _method(site).start_point[0] + 1})
        if cls.type == "abstract_class_declaration" or _base(cls) is None:
            continue
        with guarded(reader.result, cls.start_point[0] + 1, cls.end_point[0] + 1):
            _read_class(reader, cls)


def _read_class(reader: Any, cls: Node) -> None:
    scope = reader.scope
    chain = [cls]
    site = _registration(cls)
    while site is None and len(chain) <= _MAX_BASES:
        base = _base(chain[-1])
        target = scope.resolve(base) if base is not None else None
        if target is None or target.type not in _CLASSES or any(target == c for c in chain):
            return  # no registering base known here: not a tool class (or one of a library ToolChoice cannot see)
        chain.append(target)
        site = _registration(target)
    if site is None:
        return
    chain.extend(_bases(scope, chain[-1]))
    fields = _fields(chain)
    args = call_args(site)
    key = text(args[0].child_by_field_name("property") or args[0])
    if key not in fields:
        return  # no name set or inherited: an unfinished base
    label = text(cls.child_by_field_name("name") or cls)
    own = _own_field(cls, key)
    heading = cls.child_by_field_name("name") or cls
    scope.fields = fields
    try:
        try:
            name = scope.string(args[0])
        except Unresolved as exc:
            reader.result.unresolved(f"the name of tool class `{label}`", exc)
            return
        name_lines = local_span(scope.root, scope.resolve(args[0]), fields[key]) or span(heading)
        draft = Draft(name=name, fields={}, tool_lines=span(own) if own is not None else span(heading),
                      name_lines=name_lines)
        if _method(site).type == "property_identifier" and text(_method(site)) == "tool":
            reader._legacy(draft, _known(reader, draft, args[1:-1]))  # the last: the handler
        elif len(args) > 1:
            reader._config(draft, args[1])
        reader.result.drafts.append(draft)
    finally:
        scope.fields = None


def _known(reader: Any, draft: Draft, rest: list[Node]) -> list[Node]:
    """The arguments of `server.tool(...)` after the name whose kind is known; the others are findings."""
    out: list[Node] = []
    for arg in rest:
        target = reader.scope.resolve(arg)
        if target.type in _FUNCTIONS or target.type in {"string", "template_string", "binary_expression", "object"}:
            out.append(arg)
            continue
        field = reader.scope._field(arg) if arg.type == "member_expression" else None
        what = f"`{field}`" if field is not None else "an argument of `.tool()`"
        why = "computed by a getter or method at run time" if target.type == "method_definition" else (
            "not known before the server runs")
        exc = Unresolved(f"`{short(arg)}` is {why}", line=draft.tool_lines.start)
        reader.result.unresolved(f"{what} of tool `{draft.name}`", exc, tool=draft.name)
    return out


def _registration(cls: Node) -> Node | None:
    """The first `x.tool(this.name, ...)` / `x.registerTool(this.name, {...})` call in the methods of `cls`."""
    body = cls.child_by_field_name("body")
    for call in _walk(body, {"call_expression"}) if body is not None else []:
        func = call.child_by_field_name("function")
        args = call_args(call)
        if func is None or func.type != "member_expression" or text(_method(call)) not in _REGISTER or not args:
            continue
        first = args[0]
        if first.type == "member_expression" and (first.child_by_field_name("object") or first).type == "this":
            return call
    return None


def _method(call: Node) -> Node:
    func = call.child_by_field_name("function") or call
    return func.child_by_field_name("property") or func


def _base(cls: Node) -> Node | None:
    """The expression after `extends` (TypeScript's `extends_clause`, JavaScript's bare heritage)."""
    for child in cls.named_children:
        if child.type == "class_heritage":
            for part in child.named_children:
                if part.type == "extends_clause":
                    return part.child_by_field_name("value") or next(iter(part.named_children), None)
                if part.type != "implements_clause":
                    return part
    return None


def _bases(scope: Any, cls: Node) -> Iterator[Node]:
    """The bases above the registering class, for fields it inherits."""
    seen = [cls]
    while len(seen) <= _MAX_BASES:
        base = _base(seen[-1])
        target = scope.resolve(base) if base is not None else None
        if target is None or target.type not in _CLASSES or any(target == c for c in seen):
            return
        seen.append(target)
        yield target


def _fields(chain: list[Node]) -> dict[str, Node]:
    """Instance field -> its value (a getter or method: itself), the subclass's first, then its bases'."""
    out: dict[str, Node] = {}
    for cls in chain:
        body = cls.child_by_field_name("body")
        for member in body.named_children if body is not None else []:
            if any(c.type == "static" for c in member.children):
                continue
            name = member.child_by_field_name("name") or member.child_by_field_name("property")
            if name is None or text(name) in out:
                continue
            if member.type in _FIELDS and member.child_by_field_name("value") is not None:
                out[text(name)] = member.child_by_field_name("value")  # type: ignore[assignment]
            elif member.type == "method_definition":
                out[text(name)] = member
    return out


def _own_field(cls: Node, key: str) -> Node | None:
    body = cls.child_by_field_name("body")
    for member in body.named_children if body is not None else []:
        name = member.child_by_field_name("name") or member.child_by_field_name("property")
        if member.type in _FIELDS and name is not None and text(name) == key:
            return member
    return None


def _walk(root: Node, kinds: set[str]) -> Iterator[Node]:
    """Nodes of the given kinds under `root`, in source order."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in kinds:
            yield node
        stack.extend(reversed(node.named_children))

