"""Go: mcp-go `mcp.NewTool(name, options...)` builders and go-sdk `mcp.Tool{...}` literals, via tree-sitter."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tree_sitter import Node

from app.extract.common import Draft, FileResult, Language, Unresolved, guarded
from app.extract.go_calls import GoModule
from app.extract.go_literals import annotations_of, tool_literal
from app.extract.go_package import GoPackage, cached_package
from app.extract.go_values import GoScope
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


# `mcp.Tool` and the `Tool` types of other packages (wrapper types such as `api.Tool` with the same fields).
_TOOL_TYPE = re.compile(r"^(?:\w+\.)?Tool$")
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
    helpers: dict[str, list[Node]] = {}
    if package is not None:
        scope.nodes = {**package.constants, **scope.nodes}
        scope.functions = package.functions
        scope.types = {**package.types, **scope.types}
        scope.load_package = cached_package
        scope.package = package
        helpers = package.helpers
        scope.schema_helpers = package.schema_helpers
    go_sdk = "modelcontextprotocol/go-sdk" in source
    found = captures("go", _CANDIDATES, tree.root_node)
    # `x.NewTool(...)` is mcp-go's only where an MCP package is imported (other libraries have NewTool too).
    imports = [text(p) for p in captures("go", _IMPORTS, tree.root_node).get("path", [])]
    speaks_mcp = any("mcp" in path.lower() for path in imports)
    new_tools = found.get("new", []) if speaks_mcp else []
    candidates = [n for n in found.get("literal", [])
                  if _mcp_tool_type(text(n.child_by_field_name("type") or n), scope)]
    result.other_framework = not speaks_mcp and not candidates
    for node in new_tools:
        with guarded(result, node.start_point[0] + 1, node.end_point[0] + 1):
            _new_tool(node, scope, result, empty_required=empty_required, helpers=helpers)
    for node in candidates:
        kind = text(node.child_by_field_name("type") or node)
        literals = [node] if _TOOL_TYPE.match(kind) else []
        if _TOOL_LIST.match(kind):
            for element in (node.child_by_field_name("body") or node).named_children:
                inner = element.named_children[0] if element.named_children else element
                if inner.type == "literal_value":
                    literals.append(inner)
        for literal in literals:
            with guarded(result, literal.start_point[0] + 1, literal.end_point[0] + 1):
                tool_literal(literal, scope, result, go_sdk=go_sdk)
    result.drafts.sort(key=lambda d: d.tool_lines.start)
    return result


def _mcp_tool_type(kind: str, scope: GoScope) -> bool:
    """`x.Tool` of an MCP package, or a `Tool` type declared in this module (a wrapper with the same fields);
    not the `Tool` of another library (an LLM SDK's)."""
    qualifier, _, _name = kind.lstrip("[]*").rpartition(".")
    if not qualifier:
        return "Tool" in scope.types
    path = scope.imports.get(qualifier, qualifier)  # not imported (a fragment): its own name says
    return "mcp" in path.lower() or (scope.module is not None and scope.module.folder(path) is not None)


def _new_tool(
    call: Node, scope: GoScope, result: FileResult, *, empty_required: bool, helpers: dict[str, list[Node]]
) -> None:
    args = call_args(call)
    if not args:
        return
    try:
        name = scope.string(args[0])
    except Unresolved as exc:
        result.unresolved("the name of an mcp.NewTool(...)", exc)
        return
    draft = Draft(name=name, fields={}, tool_lines=span(call), name_lines=scope.lines(args[0], or_reference=True))
    props: dict[str, Any] = {}
    required: list[str] = []
    annotations: dict[str, Any] = dict(MCP_GO_DEFAULT_ANNOTATIONS)
    options = list(args[1:])
    while options:
        option = options.pop(0)
        opt = callee(option) if option.type == "call_expression" else ""
        func = option.child_by_field_name("function") if option.type == "call_expression" else None
        if func is not None and func.type == "identifier" and opt in helpers and not call_args(option):
            options[:0] = helpers[opt]  # an option helper of this package: apply what it applies
            continue
        try:
            if opt == "WithDescription":
                draft.fields["description"] = scope.string(call_args(option)[0])
                draft.description_lines = scope.lines(call_args(option)[0])
            elif opt == "WithToolTitle":
                draft.fields["title"] = scope.string(call_args(option)[0])
            elif opt in _PARAM_TYPES:
                problems: list[tuple[str, Unresolved]] = []
                _param(option, _PARAM_TYPES[opt], scope, draft, props, required, problems)
                for pname, problem in problems:
                    result.unresolved(f"parameter `{pname}` of tool `{name}` (left out)", problem, tool=name,
                                      parameter=pname)
            elif opt in _HINTS:
                annotations[_HINTS[opt]] = scope.value(call_args(option)[0])
            elif opt == "WithToolAnnotation":
                annotations = annotations_of(call_args(option)[0], scope, go_sdk=False)
            elif _DERIVED.match(opt) and not call_args(option):
                raise fail(option, f"`{short(option)}` derives the schema from a Go type with invopop/jsonschema "
                                   "when the server runs; that derivation is not reproduced (mcp-go's empty default "
                                   "is listed)")
            elif opt in {"WithRawInputSchema", "WithInputSchema"}:
                draft.fields["inputSchema"] = scope.value(call_args(option)[0])
            else:
                why = f"the option `{short(option)}` is neither mcp-go's nor a helper read from this package"
                raise fail(option, why)
        except Unresolved as exc:
            result.unresolved(f"an option of tool `{name}`", exc, tool=name)
    if "inputSchema" not in draft.fields:
        schema: dict[str, Any] = {"type": "object", "properties": props}
        if required or empty_required:
            schema["required"] = required
        draft.fields["inputSchema"] = schema
    draft.fields["annotations"] = annotations
    result.drafts.append(draft)


def _param(
    option: Node, kind: str | None, scope: GoScope, draft: Draft, props: dict[str, Any], required: list[str],
    problems: list[tuple[str, Unresolved]],
) -> None:
    args = call_args(option)
    pname = scope.string(args[0])
    schema: dict[str, Any] = {"type": kind} if kind else {}
    if kind == "object":
        schema["properties"] = {}  # mcp-go's WithObject starts with empty properties
    for prop_opt in args[1:]:
        try:
            _property_option(prop_opt, pname, schema, scope, draft, required)
        except Unresolved as exc:
            problems.append((pname, exc))
    props[pname] = schema


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
