"""Go: go-sdk `mcp.Tool{...}` literals (and mcp-go ones) with jsonschema.Schema or map input schemas."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from app.extract.common import Draft, FileResult, Unresolved
from app.extract.go.adding import adding_call
from app.extract.go.bound import as_argument, origin_node
from app.extract.go.conversions import ANNOTATION_KEYS, conversion, literal_type, sdk_annotations
from app.extract.go.structs import for_type, handler_types
from app.extract.go.values import GoScope
from app.extract.go.wrappers import builds_for_callers
from app.extract.treesitter import call_args, callee, fail, short, span, text

_TOOL_KEYS = {
    "Name": "name",
    "Title": "title",
    "Description": "description",
    "InputSchema": "inputSchema",
    "OutputSchema": "outputSchema",
    "Annotations": "annotations",
    "Meta": "_meta",
    "Icons": "icons",
    "RawInputSchema": "inputSchema",
    "RawOutputSchema": "outputSchema",
}


def annotations_of(node: Node, scope: GoScope, *, go_sdk: bool) -> dict[str, Any]:
    target = scope.resolve(node)
    returned = _returned_literal(target, scope)
    if returned is not None:  # `readOnly("Title")`: a helper of the package returning an annotations literal
        return annotations_of(returned[0], returned[1], go_sdk=go_sdk)
    if target.type == "unary_expression":
        target = scope.resolve(target.child_by_field_name("operand") or target)
    body = target.child_by_field_name("body") if target.type == "composite_literal" else None
    if body is None:
        raise fail(node, f"the annotations `{short(node)}` are not a literal")
    given = {ANNOTATION_KEYS[k]: scope.value(v) for k, _kn, v in scope.fields(body) if k in ANNOTATION_KEYS}
    return sdk_annotations(given, go_sdk=go_sdk)


def _returned_literal(call: Node, scope: GoScope) -> tuple[Node, Any] | None:
    """(literal, scope with the parameters bound) of `helper(args)` whose body is only `return T{...}`."""
    func = call.child_by_field_name("function") if call.type == "call_expression" else None
    found = scope.functions.get(text(func)) if func is not None and func.type == "identifier" else None
    body = found[0].child_by_field_name("body") if found is not None else None
    statements = [n for n in body.named_children if n.type != "comment"] if body is not None else []
    if len(statements) == 1 and statements[0].type == "statement_list":
        statements = [n for n in statements[0].named_children if n.type != "comment"]
    if found is None or len(statements) != 1 or statements[0].type != "return_statement":
        return None
    values = [v for v in statements[0].named_children if v.type != "comment"]
    if len(values) == 1 and values[0].type == "expression_list":
        values = values[0].named_children
    literal = values[0] if len(values) == 1 else None
    if literal is not None and literal.type == "unary_expression":
        literal = literal.child_by_field_name("operand")
    if literal is None or literal.type != "composite_literal":
        return None
    params = found[0].child_by_field_name("parameters")
    names = [text(n) for p in (params.named_children if params is not None else [])
             if p.type == "parameter_declaration" for n in p.children_by_field_name("name")]
    args = call_args(call)
    if len(names) != len(args):
        return None
    bound = scope.in_file(found[1]).bound(dict(zip(names, [scope.value(a) for a in args], strict=True)),
                                           depth=scope.depth + 1)
    return literal, bound


def tool_literal(node: Node, scope: GoScope, result: FileResult, *, go_sdk: bool) -> None:
    body = node if node.type == "literal_value" else node.child_by_field_name("body")
    if body is None:
        return
    fields = {key: value for key, _kn, value in scope.fields(body)}
    if "Name" not in fields:
        return
    try:
        name = scope.string(fields["Name"])
    except Unresolved as exc:
        if builds_for_callers(node, fields["Name"], scope, result):  # each call of its function lists the tool
            return
        if not scope.env and scope.call is None and conversion(node, fields["Name"], scope, result):
            return
        result.unresolved("the name of an mcp.Tool literal", exc)
        return
    name_lines = scope.lines(fields["Name"], or_reference=True)
    draft = Draft(name=name, fields={}, tool_lines=span(node), name_lines=name_lines,
                  source_type=literal_type(scope, node, scope.folder))
    for key, value in fields.items():
        out_key = _TOOL_KEYS.get(key)
        if out_key is None or key == "Name":
            continue
        try:
            if key == "Annotations":
                draft.fields[out_key] = annotations_of(value, scope, go_sdk=go_sdk)
            elif key in {"InputSchema", "OutputSchema"} and _wrapped(value, scope) is not None:
                inner = _wrapped(value, scope)
                helper = callee(scope.resolve(value))
                if helper in scope.schema_helpers:  # a schema helper of this package: apply what it sets
                    draft.fields[out_key] = scope.patched(scope.value(inner), scope.schema_helpers[helper])  # type: ignore[arg-type]
                    continue
                draft.fields[out_key] = scope.value(inner)  # type: ignore[arg-type]
                result.unresolved(
                    f"`{key}` of tool `{name}` passes through `{callee(scope.resolve(value))}(...)`, which is not "
                    "defined in this file; only the schema given to it is listed",
                    fail(value, "helper"),
                    tool=name,
                )
            else:
                val = scope.value(value)
                if val not in ("", None) or key not in {"Title", "Description"}:
                    draft.fields[out_key] = val
            if key == "Description":
                draft.description_lines = scope.lines(value)
        except Unresolved as exc:
            result.unresolved(f"`{key}` of tool `{name}`", exc, tool=name)
    schema = scope.resolve(fields["InputSchema"]) if "InputSchema" in fields else None
    if schema is not None and _wrapped(schema, scope) is not None:
        schema = scope.resolve(_wrapped(schema, scope))  # type: ignore[arg-type]
    if schema is not None:
        _schema_lines(schema, scope, draft)
    if go_sdk and "inputSchema" not in draft.fields:
        _inferred(node, scope, result, draft)
    if not go_sdk:
        draft.fields.setdefault("annotations", {})
        draft.fields.setdefault("inputSchema", {"type": "object"})
    result.drafts.append(draft)


def _wrapped(node: Node, scope: GoScope) -> Node | None:
    """The literal argument of `Helper(&jsonschema.Schema{...})`, when a schema passes through a helper."""
    target = scope.resolve(node)
    if target.type != "call_expression" or target.child_by_field_name("function") is None:
        return None
    if target.child_by_field_name("function").type != "identifier":  # type: ignore[union-attr]
        return None
    args = call_args(target)
    return args[0] if len(args) == 1 and args[0].type in {"unary_expression", "composite_literal"} else None


def _schema_lines(node: Node, scope: GoScope, draft: Draft) -> None:
    if node.type == "unary_expression":
        node = scope.resolve(node.child_by_field_name("operand") or node)
    body = node.child_by_field_name("body") if node.type == "composite_literal" else None
    if body is None:
        return
    for key, _kn, value in scope.fields(body):
        if key != "Properties":
            continue
        target = scope.resolve(value)
        props = target.child_by_field_name("body") if target.type == "composite_literal" else target
        if props is None:
            return
        for pname, _pk, pvalue in scope.fields(props):
            inner = scope.resolve(pvalue)
            inner = inner.child_by_field_name("body") or inner if inner.type != "literal_value" else inner
            for field, _fk, fvalue in scope.fields(inner) if inner.type == "literal_value" else []:
                if field in {"Description", "description"}:
                    where = scope.lines(fvalue)
                    if where is not None:
                        draft.parameter_lines[pname] = where


def _inferred(node: Node, scope: GoScope, result: FileResult, draft: Draft) -> None:
    """`mcp.AddTool(server, &mcp.Tool{...}, handler)` without an InputSchema: the go-sdk derives the input and
    output schemas from the handler's input and output types (app/extract/go/structs.py)."""
    adding = adding_call(node, scope)
    if adding is None:
        return
    handler, owner = origin_node(adding[0], adding[1])  # a wrapper's parameter: the handler its call passes
    found = handler_types(owner.resolve(handler), owner)
    where = adding[2] if handler is adding[0] else None
    if found is None:
        result.unresolved(f"the inputSchema of tool `{draft.name}`", as_argument(fail(
            adding[0], f"the handler `{short(handler)}` is not a function of this module"), where), tool=draft.name)
        return
    owner, input_type, output_type = found
    for key, type_node in (("inputSchema", input_type), ("outputSchema", output_type)):
        if type_node is None or (key == "outputSchema" and text(type_node) in {"any", "interface{}"}):
            continue
        try:
            draft.fields[key] = for_type(owner, type_node)
        except Unresolved as exc:
            result.unresolved(f"the {key} of tool `{draft.name}`", exc, tool=draft.name)
