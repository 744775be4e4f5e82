"""Go: mcp-go `mcp.NewTool(name, options...)` builders and go-sdk `mcp.Tool{...}` literals, via tree-sitter."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tree_sitter import Node

from app.extract.common import Draft, FileResult, Language, Unresolved, guarded
from app.extract.go.declarations import GoModule
from app.extract.go.literals import annotations_of, tool_literal
from app.extract.go.options import Pending, follow_option, options_of
from app.extract.go.package import GoPackage, cached_package
from app.extract.go.values import GoScope
from app.extract.go.wrappers import TOOL_TYPE, builds_for_callers, is_tool_type, read_calls
from app.extract.treesitter import call_args, callee, captures, fail, parser, short, span, text

# mcp-go's NewTool starts every tool with these annotations (WithToolAnnotation replaces them all).
MCP_GO_DEFAULT_ANNOTATIONS = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}
_PARAM_TYPES = {
    "WithString": "string",
    "WithNumber": "number",
    "WithInteger": "integer",
    "WithBoolean": "boolean",
    "WithArray": "array",
    "WithObject": "object",
    "WithAny": None,
}
_HINTS = {
    "WithReadOnlyHintAnnotation": "readOnlyHint",
    "WithDestructiveHintAnnotation": "destructiveHint",
    "WithIdempotentHintAnnotation": "idempotentHint",
    "WithOpenWorldHintAnnotation": "openWorldHint",
    "WithTitleAnnotation": "title",
}
_PROP_KEYS = {
    "Description": "description",
    "Title": "title",
    "Min": "minimum",
    "Max": "maximum",
    "MinLength": "minLength",
    "MaxLength": "maxLength",
    "Pattern": "pattern",
    "MinItems": "minItems",
    "MaxItems": "maxItems",
    "UniqueItems": "uniqueItems",
    "DefaultString": "default",
    "DefaultNumber": "default",
    "DefaultBool": "default",
    "DefaultArray": "default",
    "Items": "items",
    "Properties": "properties",
    "AdditionalProperties": "additionalProperties",
    "Format": "format",
    "MultipleOf": "multipleOf",
}
_ITEM_OPTS = {
    "WithStringItems": "string",
    "WithNumberItems": "number",
    "WithBooleanItems": "boolean",
    "WithIntegerItems": "integer",
    "WithObjectItems": "object",
}


_TOOL_LIST = re.compile(r"^\[\]\*?(?:\w+\.)?Tool$")
_IMPORTS = "(import_spec path: (_) @path)"
# mcp-go's `WithInputSchema[T]()` / `WithOutputSchema[T]()`: a schema reflected from a Go type at run time.
_DERIVED = re.compile(r"^(?:\w+\.)?With(?:Input|Output)Schema(?:\[|$)")
# `x.NewTool(...)` calls and composite literals of a `Tool` type (qualified or this package's) or a slice of them.
_CANDIDATES = """
(call_expression function: (selector_expression field: (field_identifier) @f (#eq? @f "NewTool"))) @new
(composite_literal type: (qualified_type name: (type_identifier) @t (#eq? @t "Tool"))) @literal
(composite_literal type: (type_identifier) @u (#eq? @u "Tool")) @literal
(composite_literal type: (slice_type) @s (#match? @s "Tool$")) @literal
"""


def extract_go(
    source: str, *, file: str, empty_required: bool = True, package: GoPackage | None = None,
    module: GoModule | None = None, folder: Path | None = None,
) -> FileResult:
    """Tools defined in one Go file. With `package`, constants and option helpers of the package's other files
    are used, with `module` the helpers of the module's packages; what stays unknown becomes TC090 findings.
    `empty_required`: mcp-go v0.44+ lists `"required": []` when no parameter is required."""
    result = FileResult(file=file, language=Language.GO)
    tree = parser("go").parse(source.encode("utf-8"))
    scope = GoScope(tree.root_node, module=module)
    scope.folder = folder
    if package is None:  # the file alone: its own functions are followed
        scope.functions = {text(d.child_by_field_name("name") or d): (d, scope.imports)
                           for d in tree.root_node.named_children if d.type == "function_declaration"}
    if package is not None:
        scope.nodes = {**package.constants, **scope.nodes}
        scope.functions = package.functions
        scope.types = {**package.types, **scope.types}
        scope.load_package = cached_package
        scope.package = package
        scope.schema_helpers = package.schema_helpers
    go_sdk = "modelcontextprotocol/go-sdk" in source
    found = captures("go", _CANDIDATES, tree.root_node)
    # `x.NewTool(...)` is mcp-go's only where an MCP package is imported (other libraries have NewTool too).
    imports = [text(p) for p in captures("go", _IMPORTS, tree.root_node).get("path", [])]
    speaks_mcp = any("mcp" in path.lower() for path in imports)
    new_tools = found.get("new", []) if speaks_mcp else []
    candidates = [n for n in found.get("literal", [])
                  if is_tool_type(text(n.child_by_field_name("type") or n), scope)]
    for node in new_tools:
        with guarded(result, node.start_point[0] + 1, node.end_point[0] + 1):
            _new_tool(node, scope, result, empty_required=empty_required)
    for node in candidates:
        kind = text(node.child_by_field_name("type") or node)
        literals = [node] if TOOL_TYPE.match(kind) else []
        if _TOOL_LIST.match(kind):
            for element in (node.child_by_field_name("body") or node).named_children:
                inner = element.named_children[0] if element.named_children else element
                if inner.type == "literal_value":
                    literals.append(inner)
        for literal in literals:
            with guarded(result, literal.start_point[0] + 1, literal.end_point[0] + 1):
                tool_literal(literal, scope, result, go_sdk=go_sdk)
    before = len(result.drafts)

    def build(kind: str, node: Node, bound: GoScope, into: FileResult) -> None:
        if kind == "new":
            _new_tool(node, bound, into, empty_required=empty_required)
        else:
            sdk = go_sdk or any("modelcontextprotocol/go-sdk" in p for p in bound.imports.values())
            tool_literal(node, bound, into, go_sdk=sdk)

    read_calls(tree.root_node, scope, result, build)
    result.other_framework = not speaks_mcp and not candidates and len(result.drafts) == before
    result.drafts.sort(key=lambda d: d.tool_lines.start)
    return result


def _new_tool(call: Node, scope: GoScope, result: FileResult, *, empty_required: bool) -> None:
    args = call_args(call)
    if not args:
        return
    try:
        name = scope.string(args[0])
    except Unresolved as exc:
        if not builds_for_callers(call, args[0], scope, result):  # else each call of its function lists the tool
            result.unresolved("the name of an mcp.NewTool(...)", exc)
        return
    draft = Draft(name=name, fields={}, tool_lines=span(call), name_lines=scope.lines(args[0], or_reference=True))
    props: dict[str, Any] = {}
    required: list[str] = []
    annotations: dict[str, Any] = dict(MCP_GO_DEFAULT_ANNOTATIONS)
    try:  # parameters of a function read at its call stand for the call's arguments (app/extract/go/options.py)
        options = [o for arg in args[1:] for o in options_of(arg, scope)]
    except Unresolved as exc:
        result.unresolved(f"the options of tool `{name}`", exc, tool=name)
        options = []
    while options:
        option, where, place = options.pop(0)
        try:
            _option(option, where, name, draft, props, required, annotations, options, result, place)
        except Unresolved as exc:
            result.unresolved(f"an option of tool `{name}`", place(exc), tool=name)
    if "inputSchema" not in draft.fields:
        schema: dict[str, Any] = {"type": "object", "properties": props}
        if required or empty_required:
            schema["required"] = required
        draft.fields["inputSchema"] = schema
    draft.fields["annotations"] = annotations
    result.drafts.append(draft)


def _option(option: Node, scope: GoScope, name: str, draft: Draft, props: dict[str, Any], required: list[str],
            annotations: dict[str, Any], options: list[Pending], result: FileResult, place: Any) -> None:
    """Apply one option of `mcp.NewTool`; an option helper of the module puts what it gives in front of `options`."""
    helpers: dict[str, list[Node]] = scope.package.helpers if scope.package is not None else {}
    opt = callee(option) if option.type == "call_expression" else ""
    func = option.child_by_field_name("function") if option.type == "call_expression" else None
    if func is not None and func.type == "identifier" and opt in helpers and not call_args(option):
        options[:0] = [(h, scope, place) for h in helpers[opt]]  # an option helper of its package
        return
    if opt == "WithDescription":
        draft.fields["description"] = scope.string(call_args(option)[0])
        draft.description_lines = scope.lines(call_args(option)[0])
    elif opt == "WithToolTitle":
        draft.fields["title"] = scope.string(call_args(option)[0])
    elif opt in _PARAM_TYPES:
        problems: list[tuple[str, Unresolved]] = []
        _param(option, _PARAM_TYPES[opt], scope, draft, props, required, problems, place)
        for pname, problem in problems:
            result.unresolved(f"parameter `{pname}` of tool `{name}` (left out)", problem, tool=name, parameter=pname)
    elif opt in _HINTS:
        annotations[_HINTS[opt]] = scope.value(call_args(option)[0])
    elif opt == "WithToolAnnotation":
        annotations.clear()
        annotations.update(annotations_of(call_args(option)[0], scope, go_sdk=False))
    elif _DERIVED.match(opt) and not call_args(option):
        raise fail(option, f"`{short(option)}` derives the schema from a Go type with invopop/jsonschema "
                           "when the server runs; that derivation is not reproduced (mcp-go's empty default "
                           "is listed)")
    elif opt in {"WithRawInputSchema", "WithInputSchema"}:
        draft.fields["inputSchema"] = scope.value(call_args(option)[0])
    elif (followed := follow_option(option, scope, place)) is not None:
        options.insert(0, followed)  # `stringParam("path", "The path")`: the option its helper returns
    else:
        why = f"the option `{short(option)}` is neither mcp-go's nor a helper read from this package"
        raise fail(option, why)


def _param(
    option: Node, kind: str | None, scope: GoScope, draft: Draft, props: dict[str, Any], required: list[str],
    problems: list[tuple[str, Unresolved]], place: Any,
) -> None:
    args = call_args(option)
    pname = scope.string(args[0])
    schema: dict[str, Any] = {"type": kind} if kind else {}
    if kind == "object":
        schema["properties"] = {}  # mcp-go's WithObject starts with empty properties
    try:
        pending = [o for arg in args[1:] for o in options_of(arg, scope, place)]
    except Unresolved as exc:
        problems.append((pname, place(exc)))
        pending = []
    while pending:
        prop_opt, where, at = pending.pop(0)
        try:
            if callee(prop_opt) not in _KNOWN_PROPERTY_OPTIONS and \
                    (followed := follow_option(prop_opt, where, at)) is not None:
                pending.insert(0, followed)  # a helper returning one property option
                continue
            _property_option(prop_opt, pname, schema, where, draft, required)
        except Unresolved as exc:
            problems.append((pname, at(exc)))
    props[pname] = schema


_KNOWN_PROPERTY_OPTIONS = {"Required", "Enum", "WithStringEnumItems", *_ITEM_OPTS, *_PROP_KEYS}


def _property_option(prop_opt: Node, pname: str, schema: dict[str, Any], scope: GoScope, draft: Draft,
                     required: list[str]) -> None:
    opt = callee(prop_opt) if prop_opt.type == "call_expression" else ""
    values = call_args(prop_opt)
    if opt == "Required":
        required.append(pname)
    elif opt == "Enum":
        schema["enum"] = [scope.value(v) for v in values]
    elif opt in _ITEM_OPTS:
        items: dict[str, Any] = {"type": _ITEM_OPTS[opt]}
        for sub in values:
            key = _PROP_KEYS.get(callee(sub))
            if callee(sub) == "Enum":
                items["enum"] = [scope.value(v) for v in call_args(sub)]
            elif key is None:
                raise fail(sub, f"the item option `{short(sub)}`")
            else:
                items[key] = scope.value(call_args(sub)[0])
        schema["items"] = items
    elif opt == "WithStringEnumItems":
        schema["items"] = {"type": "string", "enum": scope.value(values[0])}
    elif opt in _PROP_KEYS and values:
        schema[_PROP_KEYS[opt]] = scope.value(values[0])
        if opt == "Description":
            where = scope.lines(values[0])
            if where is not None:  # None: the option comes from a helper in another file
                draft.parameter_lines[pname] = where
    else:
        raise fail(prop_opt, f"the property option `{short(prop_opt)}` of `{pname}`")
