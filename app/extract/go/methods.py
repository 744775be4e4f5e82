"""Go: methods of the module's own struct types followed statically (`description.String()` on a
`mvpDescription{...}` literal), with the statements such methods use to build text: `var sb strings.Builder`,
`sb.WriteString(x)`, `for _, x := range <list>`, `x += y`, `len(x)` and numeric comparisons. Ranging over a map
stops the evaluation (Go picks that order at run time)."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from app.extract.treesitter import fail, short, text

_BUILDERS = {"strings.Builder", "bytes.Buffer"}
_ZERO = {"string": "", "int": 0, "int64": 0, "float64": 0, "bool": False}
_ORDER = {"<": lambda a, b: a < b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}


class StructValue(dict[str, Any]):
    """The fields of a struct literal of the module (held by a variable while a method runs, never listed)."""

    def __init__(self, type_name: str, fields: dict[str, Any]) -> None:
        super().__init__(fields)
        self.type_name = type_name


class Builder:
    """A `strings.Builder` being written by a method."""

    def __init__(self) -> None:
        self.parts: list[str] = []


def receiver_type(decl: Node) -> str | None:
    """The type name of a method's receiver (`func (d *mvpDescription) String()` -> "mvpDescription")."""
    receiver = decl.child_by_field_name("receiver")
    param = next((p for p in receiver.named_children if p.type == "parameter_declaration"), None) if receiver else None
    kind = param.child_by_field_name("type") if param is not None else None
    return text(kind).lstrip("*").split("[", 1)[0] if kind is not None else None


def struct_literal(scope: Any, node: Node) -> StructValue | None:
    """A `T{field: value}` literal of a struct type `T` of this package, with the zero values of unset fields."""
    kind = node.child_by_field_name("type")
    name = text(kind).lstrip("&") if kind is not None else ""
    declared = scope.types.get(name)
    body = node.child_by_field_name("body")
    if declared is None or declared[0].type != "struct_type" or body is None:
        return None
    fields: dict[str, Any] = {}
    for field in _descendants(declared[0], "field_declaration"):
        zero = _zero(field.child_by_field_name("type"))
        for field_name in field.children_by_field_name("name"):
            fields[text(field_name)] = zero
    for key, _key_node, value in scope.fields(body):
        fields[key] = scope.value(value)
    return StructValue(name, fields)


def method_call(scope: Any, node: Node, func: Node, args: list[Node]) -> tuple[bool, Any]:
    """(True, value) for `x.Method(...)` where `x` is a module struct literal or a builder, else (False, None)."""
    operand, field = func.child_by_field_name("operand"), func.child_by_field_name("field")
    if operand is None or field is None or operand.type != "identifier":
        return False, None
    held = scope.env.get(text(operand))
    if isinstance(held, Builder):
        if text(field) == "String" and not args:
            return True, "".join(held.parts)
        if text(field) in {"WriteString", "WriteRune", "WriteByte"} and len(args) == 1:
            held.parts.append(scope.string(args[0]))
            return True, None
        raise fail(node, f"`{short(node)}` on a builder")
    target = scope.resolve(operand) if held is None else None
    if held is None and target is not None and target.type in {"composite_literal", "unary_expression"}:
        literal = target.named_children[-1] if target.type == "unary_expression" else target
        held = struct_literal(scope, literal) if literal.type == "composite_literal" else None
    if not isinstance(held, StructValue):
        return False, None
    found = scope.functions.get(f"{held.type_name}.{text(field)}")
    if found is None:
        raise fail(node, f"`{short(node)}` calls a method ToolChoice cannot find")
    decl, imports = found
    receiver = decl.child_by_field_name("receiver")
    param = next((p for p in receiver.named_children if p.type == "parameter_declaration"), None) if receiver else None
    name = param.child_by_field_name("name") if param is not None else None
    bound = {text(name): held} if name is not None else {}
    values = [scope.value(a) for a in args]
    return True, scope.in_file(imports).call_declared(decl, values, at=node, receiver=bound)


def writes_builder(scope: Any, stmt: Node) -> bool:
    """True for the statement `sb.WriteString(x)` on a builder held by a variable."""
    call = stmt.named_children[0] if stmt.named_children else None
    func = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    operand = func.child_by_field_name("operand") if func is not None and func.type == "selector_expression" else None
    return operand is not None and isinstance(scope.env.get(text(operand)), Builder)


def field_of(scope: Any, node: Node) -> tuple[bool, Any]:
    """(True, value) for `d.field` where `d` holds a struct value, else (False, None)."""
    operand, field = node.child_by_field_name("operand"), node.child_by_field_name("field")
    held = scope.env.get(text(operand)) if operand is not None and operand.type == "identifier" else None
    if not isinstance(held, StructValue) or field is None:
        return False, None
    if held.get(text(field), _UNKNOWN) is _UNKNOWN:
        raise fail(node, f"`{short(node)}` is not a field ToolChoice can read")
    return True, held[text(field)]


def ordered(scope: Any, node: Node, op: str) -> bool:
    left = scope.value(node.child_by_field_name("left"))
    right = scope.value(node.child_by_field_name("right"))
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right)):
        raise fail(node, f"`{short(node)}` compares values that are not known numbers")
    return bool(_ORDER[op](left, right))


def length(scope: Any, node: Node, arg: Node) -> int:
    value = scope.value(arg)
    if not isinstance(value, (str, list, dict)):
        raise fail(node, f"`{short(node)}` of a value that is not known")
    return len(value)


def declare(scope: Any, stmt: Node) -> None:
    """`var sb strings.Builder`, `var s string`, `var xs []string` (zero values), `var x = expr`."""
    for spec in _descendants(stmt, "var_spec"):
        kind, values = spec.child_by_field_name("type"), spec.child_by_field_name("value")
        names = [text(n) for n in spec.children_by_field_name("name")]
        exprs = [v for v in values.named_children] if values is not None else []
        if exprs and len(exprs) == len(names):
            scope.env.update({n: scope.value(v) for n, v in zip(names, exprs, strict=True)})
        elif not exprs and kind is not None and text(kind) in _BUILDERS:
            scope.env.update({n: Builder() for n in names})
        elif not exprs and kind is not None and (zero := _zero(kind)) is not _UNKNOWN:
            scope.env.update({n: zero for n in names})
        else:
            raise fail(stmt, f"`{short(stmt)}` in a helper is computed at run time")


def range_items(scope: Any, stmt: Node) -> tuple[list[str], list[tuple[Any, Any]]] | None:
    """The loop variables and (index, element) pairs of `for i, x := range <list or string>`; None if not a range."""
    clause = next((c for c in stmt.named_children if c.type == "range_clause"), None)
    if clause is None:
        return None
    left, right = clause.child_by_field_name("left"), clause.child_by_field_name("right")
    names = [text(n) for n in left.named_children] if left is not None else []
    items = scope.value(right) if right is not None else None
    if isinstance(items, dict):
        raise fail(stmt, f"`{short(clause)}` ranges over a map, in an order Go picks at run time")
    if not isinstance(items, (list, str)):
        raise fail(stmt, f"`{short(clause)}` ranges over a value that is not known")
    return names, list(enumerate(items))


_UNKNOWN = object()


def _zero(kind: Node | None) -> Any:
    if kind is None:
        return _UNKNOWN
    written = text(kind)
    if written.startswith("[]"):
        return []
    if written.startswith("map["):
        return {}
    if written.startswith("*"):
        return None
    return _ZERO.get(written, _UNKNOWN)


def _descendants(node: Node, kind: str) -> list[Node]:
    out, stack = [], [node]
    while stack:
        current = stack.pop(0)
        if current.type == kind:
            out.append(current)
        else:
            stack[:0] = list(current.named_children)
    return out
