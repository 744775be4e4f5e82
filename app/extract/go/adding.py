"""Go: the `AddTool(server, tool, handler)` call registering a go-sdk tool, found from the tool's literal (around
it, through the variable holding it, or around the call of the function returning it)."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from app.extract.go.bound import CallSite, enclosing_function, preorder
from app.extract.go.statements import MAX_DEPTH
from app.extract.treesitter import call_args, captures, text

_CALL = "(call_expression) @call"


def adding_call(literal: Node, scope: Any) -> tuple[Node, Any, CallSite | None] | None:
    """The handler of the `AddTool(server, tool, handler)` call registering the tool built at `literal`, with the
    scope to read it in and the call whose argument it is: the call around the literal, the call given the
    variable holding it, or, for a tool a function returns, the same around the call of that function."""
    held, where, site = literal, scope, None
    for _ in range(MAX_DEPTH):
        top = held
        while top.parent is not None and top.parent.type in {"unary_expression", "parenthesized_expression"}:
            top = top.parent
        handler = _handler_of(top.parent.parent if top.parent is not None else None, top)
        variable = _variable(top)
        function = enclosing_function(top)
        body = function.child_by_field_name("body") if function is not None else None
        if handler is None and variable is not None and body is not None:
            handler = next((h for c in captures("go", _CALL, body).get("call", [])
                            if (h := _handler_of(c, None, variable)) is not None), None)
        if handler is not None:
            return handler, where, site
        returned = top.parent is not None and top.parent.type == "expression_list" and \
            top.parent.parent is not None and top.parent.parent.type == "return_statement"
        if variable is not None and body is not None:
            returned = any(text(r) == f"return {variable}" for r in preorder(body) if r.type == "return_statement")
        if not returned or where.call is None:
            return None
        held, site, where = where.call.node, where.call, where.call.caller
    return None


def _handler_of(call: Node | None, argument: Node | None, variable: str | None = None) -> Node | None:
    """The third argument of `x.AddTool(server, tool, handler)` when its tool is `argument` (or `variable`)."""
    func = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    if func is None or not text(func).endswith("AddTool"):
        return None
    args = call_args(call)  # type: ignore[arg-type]
    if len(args) != 3:
        return None
    if argument is not None and argument not in args:
        return None
    if variable is not None and text(args[1]) != variable:
        return None
    return args[2]


def _variable(node: Node) -> str | None:
    """`tool` for the value of `tool := &mcp.Tool{...}`."""
    holder = node.parent
    statement = holder.parent if holder is not None and holder.type == "expression_list" else None
    if statement is None or statement.type not in {"short_var_declaration", "assignment_statement"}:
        return None
    left = statement.child_by_field_name("left")
    names = left.named_children if left is not None else []
    return text(names[0]) if len(names) == 1 and names[0].type == "identifier" else None

