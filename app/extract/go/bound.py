"""Go: a function of the module read at one of its calls, its parameters bound to that call's arguments."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tree_sitter import Node

from app.extract.common import Unresolved
from app.extract.go.calls import Elsewhere
from app.extract.go.declarations import parameter_names
from app.extract.go.locals import _changes
from app.extract.go.statements import MAX_DEPTH
from app.extract.treesitter import call_args, text

_FUNCTIONS = {"function_declaration", "method_declaration", "func_literal"}
# Places a problem met in a node where the reader of the tool reports it (at the call it was reached through).
Place = Callable[[Unresolved], Unresolved]


@dataclass(frozen=True, eq=False)
class CallSite:
    """A call of a tool-building function being read: where it is written and where the function lives."""

    node: Node
    caller: Any  # the scope the call is written in
    origin: str | None  # the called function's file when it is not the file the call is written in
    file: Path | None  # the called function's file
    parent: CallSite | None = None


@dataclass(frozen=True)
class Argument:
    """What a parameter is bound to: the call's argument nodes (all the rest for a variadic one), read in
    the caller's scope."""

    nodes: list[Node]
    caller: Any
    variadic: bool = False


class AtCall(Unresolved):
    """An argument of `site` that cannot be read: its line is in the file of the call."""

    def __init__(self, why: str, *, line: int, end_line: int, site: CallSite | None) -> None:
        super().__init__(why, line=line, end_line=end_line)
        self.site = site


def argument_value(scope: Any, name: str) -> Any:
    """The value of a bound parameter, read in the caller's scope (all the values for a variadic one)."""
    argument: Argument = scope.arguments[name]
    try:
        if not argument.variadic:
            return argument.caller.value(argument.nodes[0])
        out: list[Any] = []
        for node in argument.nodes:
            if node.type == "variadic_argument":
                out.extend(argument.caller.value(node.named_children[0]) or [])
            else:
                out.append(argument.caller.value(node))
        return out
    except AtCall:
        raise
    except Unresolved as exc:
        raise AtCall(exc.why, line=exc.line, end_line=exc.end_line, site=scope.call) from None


def as_argument(exc: Unresolved, site: CallSite | None) -> Unresolved:
    """A problem found in a node of the call `site` (its line is in the caller's file)."""
    if site is None or isinstance(exc, AtCall):
        return exc
    return AtCall(exc.why, line=exc.line, end_line=exc.end_line, site=site)


def relocated(exc: Unresolved, site: CallSite) -> Unresolved:
    """A problem met while reading the function called at `site`, placed at that call (naming the function's
    file and line when it lies in another file)."""
    if isinstance(exc, AtCall):
        return Unresolved(exc.why, line=exc.line, end_line=exc.end_line) if exc.site is site else exc
    if site.origin is None:
        return exc
    line, end = site.node.start_point[0] + 1, site.node.end_point[0] + 1
    if isinstance(exc, Elsewhere):  # already names the file and line where it lies
        return Elsewhere(exc.why, line=line, end_line=end)
    return Elsewhere(f"{exc.why} ({site.origin}, line {exc.line})", line=line, end_line=end)


def origin_node(node: Node, scope: Any) -> tuple[Node, Any]:
    """The argument a bare parameter stands for, followed through calls (`name` -> `"list_items"`)."""
    for _ in range(MAX_DEPTH):
        argument = scope.arguments.get(text(node)) if node.type == "identifier" else None
        if argument is None or argument.variadic or not argument.nodes:
            break
        node, scope = argument.nodes[0], argument.caller
    return node, scope


@dataclass(frozen=True)
class Callee:
    """A function of the module a call names: its declaration, the scope of its file, and that file."""

    decl: Node
    scope: Any
    file: Path | None


def callee_of(call: Node, scope: Any) -> Callee | None:
    """The function `f(...)`, `f[T](...)` or `pkg.F(...)` of this package or of another package of the module."""
    func = call.child_by_field_name("function")
    if func is not None and func.type == "index_expression":  # an explicit instantiation `MustTool[In](...)`
        func = func.child_by_field_name("operand")
    if func is None:
        return None
    if func.type == "identifier" and text(func) not in scope.env and text(func) not in scope.arguments:
        found = scope.functions.get(text(func))
        if found is None or found[0].type != "function_declaration":
            return None
        return Callee(found[0], scope.in_file(found[1]), _file_of(found[0], scope.package))
    if func.type != "selector_expression":
        return None
    operand, field = func.child_by_field_name("operand"), text(func.child_by_field_name("field") or func)
    package = scope._package(operand)
    if package is None:  # `r.Tool(...)` on a variable whose type is declared: a method of the module
        kind = _declared_type(operand, call, scope.wrapped) if operand is not None and \
            operand.type == "identifier" and text(operand) not in scope.env and text(operand) not in scope.imports \
            else None
        while kind is not None and kind.type in {"pointer_type", "generic_type"} and kind.named_children:
            kind = kind.named_children[0]
        if kind is not None and kind.type == "type_identifier":
            found = scope.functions.get(f"{text(kind)}.{field}")
            return Callee(found[0], scope.in_file(found[1]), _file_of(found[0], scope.package)) if found else None
        if kind is None or kind.type != "qualified_type":
            return None
        package = scope._package(kind.child_by_field_name("package"))
        field = f"{text(kind.child_by_field_name('name') or kind)}.{field}"
    found = package.functions.get(field) if package else None
    if found is None or found[0].type not in {"function_declaration", "method_declaration"}:
        return None
    file = _file_of(found[0], package)
    other = scope._package_scope(package).in_file(found[1])
    other.package, other.schema_helpers = package, package.schema_helpers
    other.folder = file.parent if file is not None else None
    return Callee(found[0], other, file)


def _declared_type(variable: Node, at: Node, cache: dict[Any, Any]) -> Node | None:
    """The type `variable` is declared with in the functions around `at`: a receiver or parameter
    (`r *kit.Registry`), `var r T`, or `r := &T{...}` (each function's declarations indexed once in `cache`)."""
    name = text(variable)
    function = enclosing_function(at)
    while function is not None:
        key = ("declared", function.id, function.start_byte)
        if key not in cache:
            cache[key] = _declarations(function)
        if name in cache[key]:
            return cache[key][name]  # type: ignore[no-any-return]
        function = enclosing_function(function)
    return None


def _declarations(function: Node) -> dict[str, Node | None]:
    """Variable name -> declared type in one function (the first declaration of each name)."""
    out: dict[str, Node | None] = {}
    for field in ("receiver", "parameters"):
        params = function.child_by_field_name(field)
        for param in params.named_children if params is not None else []:
            for n in param.children_by_field_name("name"):
                out.setdefault(text(n), param.child_by_field_name("type"))
    body = function.child_by_field_name("body")
    stack = [body] if body is not None else []
    while stack:
        node = stack.pop()
        if node.type == "func_literal":
            continue  # its own variables
        if node.type == "var_spec":
            for n in node.children_by_field_name("name"):
                out.setdefault(text(n), node.child_by_field_name("type"))
        elif node.type == "short_var_declaration":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None and len(left.named_children) == 1 and \
                    len(right.named_children) == 1:
                value = right.named_children[0]
                if value.type == "unary_expression":
                    value = value.child_by_field_name("operand") or value
                out.setdefault(text(left), value.child_by_field_name("type")
                               if value.type == "composite_literal" else None)
        stack.extend(node.named_children)
    return out


def _file_of(decl: Node, package: Any) -> Path | None:
    top = decl
    while top.parent is not None:
        top = top.parent
    for tree, path in zip(getattr(package, "trees", []), getattr(package, "files", []), strict=False):
        if tree.root_node == top:
            return path  # type: ignore[no-any-return]
    return None


def site_of(callee: Callee, call: Node, caller: Any, parent: CallSite | None) -> CallSite:
    """The call `call` of `callee`, written in `caller`'s file (that of `parent`'s function, else the file read)."""
    if parent is not None:
        same = callee.file is None or callee.file == parent.file
    else:
        same = _same_text(callee.decl, caller.root)
    return CallSite(call, caller, None if same else _display(callee.file, caller), callee.file, parent)


def bind(callee: Callee, call: Node, caller: Any, site: CallSite) -> Any:
    """The scope of `callee` with its parameters bound to the arguments of `call` (read lazily, in `caller`);
    a parameter the function assigns again is left unbound."""
    names, variadic = parameter_names(callee.decl)
    args = call_args(call)
    body = callee.decl.child_by_field_name("body")
    changed = {n for n in [*names, variadic] if n and body is not None
               and any(_changes(node, n) for node in preorder(body))}
    arguments: dict[str, Argument] = {}
    for name, arg in zip(names, args, strict=False):
        if arg.type != "variadic_argument" and name not in changed and name != "_":
            arguments[name] = Argument([arg], caller)
    if variadic and variadic not in changed and len(args) >= len(names):
        arguments[variadic] = Argument(args[len(names):], caller, variadic=True)
    bound = callee.scope.bound({}, depth=caller.depth + 1)
    bound.arguments, bound.call = arguments, site
    bound._locals, bound.reassigned = {}, {}
    return bound


def then(place: Place, site: CallSite | None) -> Place:
    """`place` for a node that is an argument of `site` (its line is in the file of that call)."""
    return lambda exc: place(as_argument(exc, site))


def inside(place: Place, site: CallSite) -> Place:
    """`place` for a node of the function called at `site`."""
    return lambda exc: place(relocated(exc, site))


def same(exc: Unresolved) -> Unresolved:
    return exc


def preorder(node: Node) -> list[Node]:
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(reversed(current.named_children))
    return out


def enclosing_function(node: Node) -> Node | None:
    function = node.parent
    while function is not None and function.type not in _FUNCTIONS:
        function = function.parent
    return function


def _same_text(node: Node, root: Node) -> bool:
    top = node
    while top.parent is not None:
        top = top.parent
    return top.text == root.text


def _display(file: Path | None, caller: Any) -> str | None:
    if file is None:
        return None
    module = caller.module
    try:
        return file.relative_to(module.root).as_posix() if module is not None else file.name
    except ValueError:
        return file.name
