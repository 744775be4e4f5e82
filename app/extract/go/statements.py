"""Go: a helper's body run statement by statement, its parameters bound to the argument values (`x := expr`,
`x, err := json.Marshal(v)`, `if <constant condition> {...} else {...}`, `return expr`, the builder statements and
list loops of app/extract/go/methods.py); any other statement stops it. Function values (Closure) and spread
arguments (Spread) are held here too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tree_sitter import Node

from app.extract.go import methods as go_methods
from app.extract.go.declarations import parameter_names
from app.extract.treesitter import fail, short, text

# How deep helpers may call helpers; deeper chains are not followed (and recursion stops here).
MAX_DEPTH = 8
_NO_RETURN = object()


@dataclass(frozen=True, eq=False)
class Closure:
    """A function literal held as a value (`variant := func(...) {...}`, `return func(s *Schema) {...}`), called
    later; `env` holds the variables it closes over (None: those of the scope that calls it)."""

    node: Node
    env: dict[str, Any] | None = None


@dataclass(frozen=True)
class Spread:
    """The values of `xs...` passed to a variadic parameter."""

    items: list[Any]


def call_function(callee: Any, decl: Node, args: list[Any], *, depth: int, at: Node,
                  receiver: dict[str, Any] | None = None, outer: dict[str, Any] | None = None) -> Any:
    """The value `decl` returns for `args` (already evaluated), read statement by statement. A function without
    a result that runs to its end gives None (its effect is on the values it was given)."""
    if depth > MAX_DEPTH:
        raise fail(at, f"`{short(at)}` calls helpers too deep to follow")
    names, variadic = parameter_names(decl)
    spread = args[-1] if args and isinstance(args[-1], Spread) else None
    fixed = args[:-1] if spread is not None else args
    if any(isinstance(a, Spread) for a in fixed) or (spread is not None and len(fixed) != len(names)):
        raise fail(at, f"`{short(at)}` spreads arguments ToolChoice cannot place")
    bound = dict(zip(names, fixed, strict=False))
    if variadic is not None:
        bound[variadic] = list(fixed[len(names):]) + (list(spread.items) if spread is not None else [])
    elif len(names) != len(fixed) or spread is not None:
        raise fail(at, f"`{short(at)}` passes arguments its helper does not name")
    if len(fixed) < len(names):
        raise fail(at, f"`{short(at)}` passes arguments its helper does not name")
    if outer is None:
        outer = callee.env if decl.type == "func_literal" else {}  # a closure sees its function's variables
    scope = callee.bound({**outer, **(receiver or {}), **bound}, depth=depth + 1)
    body = decl.child_by_field_name("body")
    result = _run(scope, body, at) if body is not None else _NO_RETURN
    if result is _NO_RETURN and decl.child_by_field_name("result") is None:
        return None
    if result is _NO_RETURN:
        raise fail(at, f"`{short(at)}` returns no value ToolChoice can follow")
    return result


def _run(scope: Any, node: Node, at: Node) -> Any:
    """Run a block (or one `else if` statement) until it returns; _NO_RETURN when it falls through."""
    for stmt in _statements(node) if node.type == "block" else [node]:
        kind = stmt.type
        if kind == "return_statement":
            values = [v for v in stmt.named_children if v.type != "comment"]
            exprs = values[0].named_children if values and values[0].type == "expression_list" else values
            if len(exprs) != 1:
                raise fail(stmt, f"`{short(stmt)}` returns several values")
            return scope.value(exprs[0])
        if kind in {"short_var_declaration", "assignment_statement"}:
            _assign(scope, stmt)
        elif kind == "var_declaration":
            go_methods.declare(scope, stmt)
        elif kind == "expression_statement" and go_methods.writes_builder(scope, stmt):
            scope.value(stmt.named_children[0])  # `sb.WriteString(x)`: its effect is on the builder
        elif kind == "expression_statement" and stmt.named_children and \
                stmt.named_children[0].type == "call_expression":
            scope.value(stmt.named_children[0])  # `o(s)`: a call followed for its effect on the values it is given
        elif kind == "for_statement" and (loop := go_methods.range_items(scope, stmt)) is not None:
            names, items = loop
            body = stmt.child_by_field_name("body")
            for index, item in items:
                scope.env.update({n: v for n, v in zip(names, (index, item), strict=False) if n != "_"})
                result = _run(scope, body, at) if body is not None else _NO_RETURN
                if result is not _NO_RETURN:
                    return result
        elif kind == "if_statement":
            if stmt.child_by_field_name("initializer") is not None:
                raise fail(stmt, f"`{short(stmt)}` depends on a value computed at run time")
            condition = scope.value(stmt.child_by_field_name("condition"))  # type: ignore[arg-type]
            if not isinstance(condition, bool):
                raise fail(stmt, f"the condition of `{short(stmt)}` is not known")
            branch = stmt.child_by_field_name("consequence" if condition else "alternative")
            result = _run(scope, branch, at) if branch is not None else _NO_RETURN
            if result is not _NO_RETURN:
                return result
        else:
            raise fail(stmt, f"`{short(stmt)}` in a helper is computed at run time")
    return _NO_RETURN


def _assign(scope: Any, stmt: Node) -> None:
    left, right = stmt.child_by_field_name("left"), stmt.child_by_field_name("right")
    targets = [text(n) for n in left.named_children] if left is not None else []
    values = [v for v in right.named_children] if right is not None else []
    if len(targets) == 1 and len(values) == 1 and left is not None and left.named_children[0].type in {
            "index_expression", "selector_expression"} and text(stmt.child_by_field_name("operator") or stmt) != ":=":
        _set_path(scope, left.named_children[0], scope.value(values[0]), stmt)
        return
    if not all(t.isidentifier() for t in targets) or not values:
        raise fail(stmt, f"`{short(stmt)}` in a helper is computed at run time")
    if len(values) == 1 and len(targets) == 2 and values[0].type in {"type_assertion_expression", "index_expression"}:
        scope.env.update(zip(targets, _comma_ok(scope, values[0]), strict=True))
        return
    if len(values) == 1 and len(targets) > 1:
        result = scope.value(values[0])
        if not isinstance(result, tuple) or len(result) != len(targets):
            raise fail(stmt, f"`{short(stmt)}` in a helper is computed at run time")
        scope.env.update(zip(targets, result, strict=True))
        return
    if len(values) != len(targets):
        raise fail(stmt, f"`{short(stmt)}` in a helper is computed at run time")
    if text(stmt.child_by_field_name("operator") or stmt) == "+=" and len(targets) == 1:
        before, added = scope.env.get(targets[0]), scope.value(values[0])
        if type(before) is not type(added) or not isinstance(before, (str, int, float)):
            raise fail(stmt, f"`{short(stmt)}` in a helper adds to a value that is not known")
        scope.env[targets[0]] = before + added
        return
    scope.env.update({t: Closure(v) if v.type == "func_literal" else scope.value(v)
                      for t, v in zip(targets, values, strict=True)})


def _comma_ok(scope: Any, node: Node) -> tuple[Any, bool]:
    """`v, ok := x.(T)` (a value known here has its type) and `v, ok := m[k]` (ok: the key is present)."""
    if node.type == "type_assertion_expression":
        return scope.value(node), True
    holder = scope.value(node.child_by_field_name("operand"))
    if not isinstance(holder, dict):
        raise fail(node, f"`{short(node)}` reads a map that is not known")
    key = scope.value(node.child_by_field_name("index"))
    return holder.get(key), key in holder


def _set_path(scope: Any, target: Node, value: Any, stmt: Node) -> None:
    """`schema.Properties["page"].Description = v` on a value held by a helper's variable: set in place."""
    path: list[str] = []
    node: Node | None = target
    while node is not None and node.type in {"index_expression", "selector_expression"}:
        if node.type == "index_expression":
            path.append(scope.string(node.child_by_field_name("index")))
        else:
            path.append(scope.json_key(text(node.child_by_field_name("field") or node)))
        node = node.child_by_field_name("operand")
    if node is not None and node.type == "identifier":
        holder = scope.env.get(text(node))
    else:  # `s["properties"].(map[string]any)[name] = p`: the map the expression gives
        holder = scope.value(node) if node is not None else None
    for key in reversed(path[1:]):
        holder = holder.setdefault(key, {}) if isinstance(holder, dict) else None
    if not isinstance(holder, dict):
        raise fail(stmt, f"`{short(stmt)}` in a helper changes a value ToolChoice cannot follow")
    holder[path[0]] = value


def _statements(block: Node) -> list[Node]:
    nodes = [n for n in block.named_children if n.type != "comment"]
    if len(nodes) == 1 and nodes[0].type == "statement_list":
        nodes = [n for n in nodes[0].named_children if n.type != "comment"]
    return nodes
