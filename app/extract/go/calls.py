"""Go: helpers of the same module followed statically. A call such as `defaults.ToolsetName()` or
`listSchema()` is evaluated by reading the called function's body (found through go.mod's module path and the
file's imports) with its parameters bound to the argument values: `x := expr`, `x, err := json.Marshal(v)`,
`if <constant condition> {...} else {...}`, `return expr`, and the builder statements and list loops of
app/extract/go/methods.py are followed; any other statement stops it (the value is then unknown, a TC090
finding). Nothing is built or run. The statements are run in app/extract/go/statements.py; go.mod, imports and
parameters are read in app/extract/go/declarations.py."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tree_sitter import Node

from app.extract.common import Unresolved
from app.extract.go import methods as go_methods
from app.extract.go.declarations import GoModule
from app.extract.go.statements import Closure, Spread, call_function
from app.extract.treesitter import fail, short, text


class Elsewhere(Unresolved):
    """A problem inside a function of another file, placed at the call (its message names that file and line)."""


def _top(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node


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
