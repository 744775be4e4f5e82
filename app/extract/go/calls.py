"""Go: helpers of the same module followed statically. A call such as `defaults.ToolsetName()` or
`listSchema()` is evaluated by reading the called function's body (found through go.mod's module path and the
file's imports) with its parameters bound to the argument values: `x := expr`, `x, err := json.Marshal(v)`,
`if <constant condition> {...} else {...}`, `return expr`, and the builder statements and list loops of
app/extract/go/methods.py are followed; any other statement stops it (the value is then unknown, a TC090
finding). Nothing is built or run."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tree_sitter import Node

from app.extract.common import Unresolved
from app.extract.go import methods as go_methods
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


class Elsewhere(Unresolved):
    """A problem inside a function of another file, placed at the call (its message names that file and line)."""


@dataclass(frozen=True)
class Spread:
    """The values of `xs...` passed to a variadic parameter."""

    items: list[Any]


@dataclass(frozen=True)
class GoModule:
    """The module a Go file belongs to: its go.mod folder and module path."""

    root: Path
    path: str

    def folder(self, import_path: str) -> Path | None:
        """The folder of an import path inside this module, None for other modules."""
        if import_path == self.path:
            return self.root
        if import_path.startswith(self.path + "/"):
            return self.root / import_path[len(self.path) + 1:]
        return None


@cache
def module_of(folder: Path) -> GoModule | None:
    """The module of the nearest go.mod at or above `folder`."""
    for candidate in [folder, *folder.parents]:
        mod = candidate / "go.mod"
        if mod.is_file():
            try:
                for line in mod.read_text(encoding="utf-8", errors="replace").splitlines():
                    if line.startswith("module "):
                        return GoModule(candidate, line.split()[1].strip('"'))
            except OSError:
                return None
            return None
    return None


def imports_of(root: Node) -> dict[str, str]:
    """Import name -> import path of one file (the last path element when no name is given)."""
    out: dict[str, str] = {}
    stack = [c for c in root.named_children if c.type == "import_declaration"]
    while stack:
        node = stack.pop()
        if node.type == "import_spec":
            path_node = node.child_by_field_name("path")
            name_node = node.child_by_field_name("name")
            if path_node is None:
                continue
            path = text(path_node).strip('"`')
            out[text(name_node) if name_node is not None else path.rsplit("/", 1)[-1]] = path
        else:
            stack.extend(node.named_children)
    return out


def type_specs(root: Node) -> dict[str, Node]:
    """Type name -> the type it declares (`type In struct {...}`, `type Mode = string`), for one file."""
    out: dict[str, Node] = {}
    for decl in root.named_children:
        if decl.type != "type_declaration":
            continue
        for spec in decl.named_children:
            name, value = spec.child_by_field_name("name"), spec.child_by_field_name("type")
            if spec.type in {"type_spec", "type_alias"} and name is not None and value is not None:
                out[text(name)] = value
    return out


def parameter_names(decl: Node) -> tuple[list[str], str | None]:
    """The names of a function's parameters in order, and the name of its variadic one (`opts ...Option`)."""
    names: list[str] = []
    variadic: str | None = None
    params = decl.child_by_field_name("parameters")
    for param in params.named_children if params is not None else []:
        if param.type == "variadic_parameter_declaration":
            name = param.child_by_field_name("name")
            variadic = text(name) if name is not None else "_"
        elif param.type == "parameter_declaration":
            names.extend(text(n) for n in param.children_by_field_name("name"))
    return names, variadic


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


def _top(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node


def _statements(block: Node) -> list[Node]:
    nodes = [n for n in block.named_children if n.type != "comment"]
    if len(nodes) == 1 and nodes[0].type == "statement_list":
        nodes = [n for n in nodes[0].named_children if n.type != "comment"]
    return nodes


class HelperCalls:
    """Mixed into GoScope: calls of this module's functions, other packages' constants, comparisons."""

    env: dict[str, Any]
    depth: int
    module: GoModule | None
    imports: dict[str, str]
    functions: dict[str, tuple[Node, dict[str, str]]]
    types: dict[str, tuple[Node, dict[str, str]]]
    nodes: dict[str, Node]
    # Reads a package folder of the module (app/extract/go/package.py's cached_package, given by the caller).
    load_package: Callable[[Path], Any] | None

    def value(self, node: Node) -> Any:  # provided by Any
        raise NotImplementedError

    def bound(self, env: dict[str, Any], *, depth: int) -> Any:
        scope = copy.copy(self)
        scope.env, scope.depth = env, depth
        scope.arguments = {}  # type: ignore[attr-defined]  # a function's own parameters are in `env`
        return scope  # type: ignore[return-value]

    def follow_call(self, node: Node) -> Any:
        func = node.child_by_field_name("function")
        args = [a for a in (node.child_by_field_name("arguments") or node).named_children if a.type != "comment"]
        if func is not None and text(func) == "json.Marshal" and len(args) == 1:
            return self.value(args[0]), None
        callee: HelperCalls | None = None
        decl: Node | None = None
        package: Any = getattr(self, "package", None)
        if func is not None and func.type == "selector_expression":
            handled, result = go_methods.method_call(self, node, func, args)
            if handled:
                return result
        if func is not None and func.type == "func_literal":  # `func() *jsonschema.Schema { ... }()`
            decl, callee = func, self
        elif func is not None and isinstance(closure := self.env.get(text(func)), Closure):  # a function value
            values = [self.value(a) for a in args]
            try:
                return call_function(self, closure.node, values, depth=self.depth, at=node, outer=closure.env)
            except Unresolved as exc:
                raise self._placed(exc, node, closure.node, None) from None
        elif func is not None and func.type == "identifier" and text(func) in self.functions:
            decl, imports = self.functions[text(func)]
            callee = self._with_imports(imports)
        elif func is not None and func.type == "selector_expression":
            package = self._package(func.child_by_field_name("operand"))
            found = package.functions.get(text(func.child_by_field_name("field") or func)) if package else None
            if package is not None and found is not None:
                decl, callee = found[0], self._package_scope(package)._with_imports(found[1])
        if callee is None or decl is None:
            raise fail(node, f"`{short(node)}` is computed at run time")
        values = [Spread(list(self.value(a.named_children[0]) or [])) if a.type == "variadic_argument"
                  else self.value(a) for a in args]
        try:
            return call_function(callee, decl, values, depth=self.depth, at=node)  # type: ignore[arg-type]
        except Unresolved as exc:
            raise self._placed(exc, node, decl, package) from None

    def _placed(self, exc: Unresolved, call: Node, decl: Node, package: Any) -> Unresolved:
        """A problem inside a function declared in another file than its call: placed at the call, naming the
        file and line where it lies (the innermost such place)."""
        call_top, decl_top = _top(call), _top(decl)
        if call_top == decl_top or call_top.text == decl_top.text:
            return exc
        line, end = call.start_point[0] + 1, call.end_point[0] + 1
        if isinstance(exc, Elsewhere):
            return Elsewhere(exc.why, line=line, end_line=end)
        where = "another file"
        for tree, path in zip(getattr(package, "trees", []), getattr(package, "files", []), strict=False):
            if tree.root_node == decl_top:
                where = path.name
                if self.module is not None and path.is_relative_to(self.module.root):
                    where = path.relative_to(self.module.root).as_posix()
        return Elsewhere(f"{exc.why} ({where}, line {exc.line})", line=line, end_line=end)

    def qualified(self, node: Node) -> Any:
        """`pkg.Name`: a constant of another package of this module."""
        package = self._package(node.child_by_field_name("operand"))
        name = text(node.child_by_field_name("field") or node)
        if package is None or name not in package.constants:
            raise fail(node, f"`{short(node)}` is computed at run time")
        return self._package_scope(package).value(package.constants[name])

    def compare(self, node: Node) -> Any:
        op = text(node.child_by_field_name("operator") or node)
        left = self.value(node.child_by_field_name("left"))  # type: ignore[arg-type]
        if op in {"&&", "||"} and isinstance(left, bool) and left is (op == "||"):
            return left
        right = self.value(node.child_by_field_name("right"))  # type: ignore[arg-type]
        return {"==": left == right, "!=": left != right, "&&": left and right, "||": left or right}[op]

    def call_declared(self, decl: Node, args: list[Any], *, at: Node, receiver: dict[str, Any]) -> Any:
        """The value a method `decl` of this package returns, its receiver bound (app/extract/go/methods.py)."""
        return call_function(self, decl, args, depth=self.depth, at=at, receiver=receiver)

    def in_file(self, imports: dict[str, str]) -> HelperCalls:
        """This scope with the imports of another file of its package (where a function or type is declared)."""
        return self._with_imports(imports)

    def _with_imports(self, imports: dict[str, str]) -> HelperCalls:
        scope = copy.copy(self)
        scope.imports = imports
        return scope

    def _package(self, operand: Node | None) -> Any:
        if operand is None or operand.type not in {"identifier", "package_identifier"} or self.module is None \
                or self.load_package is None:
            return None
        path = self.imports.get(text(operand))
        folder = self.module.folder(path) if path is not None else None
        return self.load_package(folder) if folder is not None and folder.is_dir() else None

    def _package_scope(self, package: Any) -> HelperCalls:
        scope = copy.copy(self)
        scope.nodes, scope.functions, scope.imports = package.constants, package.functions, package.imports
        scope.types = package.types
        scope.env, scope._locals, scope.arguments = {}, {}, {}  # type: ignore[attr-defined]
        return scope
