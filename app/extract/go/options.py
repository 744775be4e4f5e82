"""Go: the option nodes of `mcp.NewTool(name, options...)` and of its parameters, where options are spread
(`opts...`), passed to a function read at its call, or returned by an option helper taking arguments."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from app.extract.go.bound import Place, bind, callee_of, inside, preorder, same, site_of, then
from app.extract.treesitter import call_args, fail, short, text

Pending = tuple[Node, Any, Place]  # an option node, the scope to read it in, where its problems are reported


def options_of(node: Node, scope: Any, place: Place = same) -> list[Pending]:
    """The option nodes an argument of `mcp.NewTool` stands for, each with the scope to read it in and the call
    whose argument it is: bound parameters and spread lists (`opts...`, `append([]mcp.ToolOption{...}, more...)`)
    are replaced by what they hold."""
    if node.type == "variadic_argument" and node.named_children:
        return _spread(node.named_children[0], scope, place)
    argument = scope.arguments.get(text(node)) if node.type == "identifier" else None
    if argument is not None and not argument.variadic:
        return [o for n in argument.nodes for o in options_of(n, argument.caller, then(place, scope.call))]
    return [(node, scope, place)]


def _spread(node: Node, scope: Any, place: Place) -> list[Pending]:
    argument = scope.arguments.get(text(node)) if node.type == "identifier" else None
    if argument is not None:
        outer = then(place, scope.call)
        if not argument.variadic:  # a slice given as one argument
            return [o for n in argument.nodes for o in _spread(n, argument.caller, outer)]
        return [o for n in argument.nodes for o in options_of(n, argument.caller, outer)]
    return _spread_node(node, scope, place)


def _spread_node(node: Node, scope: Any, place: Place) -> list[Pending]:
    target = scope.resolve(node)
    func = target.child_by_field_name("function") if target.type == "call_expression" else None
    if func is not None and text(func) == "append" and call_args(target):
        first, *rest = call_args(target)
        return [*_spread(first, scope, place), *[o for a in rest for o in options_of(a, scope, place)]]
    kind = target.child_by_field_name("type") if target.type == "composite_literal" else None
    body = target.child_by_field_name("body") if target.type == "composite_literal" else None
    if kind is not None and body is not None and text(kind).startswith("[]"):
        elements = [e.named_children[0] if e.type == "literal_element" and e.named_children else e
                    for e in body.named_children if e.type != "comment"]
        return [o for e in elements for o in options_of(e, scope, place)]
    raise fail(node, f"the options `{short(node)}...` are computed at run time")


def follow_option(option: Node, scope: Any, place: Place) -> Pending | None:
    """The option `helper(args)` gives when it is a function of the module whose only `return` hands back one
    call (`return mcp.WithString(name, mcp.Description(text))`), read with its parameters bound."""
    callee = callee_of(option, scope) if option.type == "call_expression" else None
    body = callee.decl.child_by_field_name("body") if callee is not None else None
    if callee is None or body is None:
        return None
    returns = [r for r in preorder(body) if r.type == "return_statement" and _function(r) == callee.decl]
    if len(returns) != 1:
        raise fail(option, f"`{short(option)}` returns its option from several places, chosen when it runs")
    values = [v for v in returns[0].named_children if v.type != "comment"]
    if len(values) == 1 and values[0].type == "expression_list":
        values = values[0].named_children
    if len(values) != 1 or values[0].type != "call_expression":
        return None
    site = site_of(callee, option, scope, scope.call)
    return values[0], bind(callee, option, scope, site), inside(place, site)


def _function(node: Node) -> Node | None:
    function = node.parent
    while function is not None and function.type not in {"function_declaration", "func_literal"}:
        function = function.parent
    return function
