"""Python: a function or method a server's listing hook applies to every tool (`sanitize(mcp_tool)` or
`self.sanitize(mcp_tool)` inside `_list_tools_mcp`), read from its syntax tree and applied to the extracted JSON.
Only a closed subset is understood (assignments, `if`, `for` over lists and dicts, returns, nested functions,
comprehensions, and pure methods of dicts, lists and strings); anything else makes the transform unknown (a TC090).
Nothing is run."""

from __future__ import annotations

import ast
import copy
import operator
from typing import Any

from app.extract.common import Unresolved

# Steps (statements and expressions) one transform may take per tool: enough for a walk over a schema,
# small enough that a loop that never ends costs milliseconds.
MAX_STEPS = 200_000
MAX_DEPTH = 40
_TYPES: dict[str, type | tuple[type, ...]] = {"dict": dict, "list": list, "str": str, "int": int, "float": float,
                                              "bool": bool, "tuple": tuple, "set": set}
_PURE = {"len": len, "any": any, "all": all, "sorted": sorted, "list": list, "dict": dict, "set": set,
         "tuple": tuple, "str": str, "int": int, "bool": bool, "min": min, "max": max, "enumerate": enumerate,
         "reversed": reversed, "zip": zip, "isinstance": None}
# Methods that read or change a JSON value and nothing else.
_METHODS = {dict: {"get", "items", "keys", "values", "pop", "setdefault", "copy", "update"},
            list: {"append", "extend", "insert", "pop", "remove", "copy", "index", "count"},
            str: {"startswith", "endswith", "strip", "lower", "upper", "split", "join", "replace"}}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
            ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}
_VIEWS: tuple[type, ...] = (type({}.items()), type({}.keys()), type({}.values()))
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Mod: operator.mod}


class ToolObject:
    """The MCP tool a transform receives: its attributes are the tool's JSON fields."""

    def __init__(self, fields: dict[str, Any]) -> None:
        self.fields = fields


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Builtin:
    def __init__(self, name: str) -> None:
        self.name = name


class _Method:
    def __init__(self, owner: Any, name: str) -> None:
        self.owner, self.name = owner, name


class _Function:
    def __init__(self, node: ast.FunctionDef, env: dict[str, Any]) -> None:
        self.node, self.env = node, env


def apply_transform(function: ast.FunctionDef, fields: dict[str, Any], *, functions: dict[str, ast.FunctionDef]
                    ) -> dict[str, Any]:
    """The tool fields after `function(tool)`, on a copy; Unresolved when the function does what is not read."""
    tool = ToolObject(copy.deepcopy(fields))
    # A method (`def clean(self, tool)`) gets an object that nothing can be read from: using it is a finding.
    receiver = [_Opaque()] if len(function.args.args) == 2 and not _is_static(function) else []
    try:
        _Machine(functions).call(_Function(function, {}), [*receiver, tool], at=function)
    except (_Return, _Break, _Continue):
        raise Unresolved(f"`{function.name}` leaves a loop in a way ToolChoice does not follow",
                         line=function.lineno) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as exc:
        raise Unresolved(f"`{function.name}` would fail on this tool ({type(exc).__name__})",
                         line=function.lineno) from None
    return tool.fields


class _Opaque:
    """The `self` of a method transform: the server's state is not known statically."""


def _is_static(function: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in function.decorator_list)


class _Machine:
    def __init__(self, functions: dict[str, ast.FunctionDef]) -> None:
        self.functions = functions
        self.steps = 0
        self.depth = 0

    def fail(self, node: ast.AST, why: str) -> Unresolved:
        line = getattr(node, "lineno", 1)
        return Unresolved(f"`{ast.unparse(node)[:60]}` {why}", line=line, end_line=getattr(node, "end_lineno", line))

    def call(self, function: _Function, args: list[Any], *, at: ast.AST) -> Any:
        node = function.node
        params = [a.arg for a in node.args.args]
        if len(params) != len(args) or node.args.vararg or node.args.kwarg or node.args.kwonlyargs:
            raise self.fail(at, "passes arguments the function does not name plainly")
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(at, "recurses too deep to follow")
        env = {**function.env, **dict(zip(params, args, strict=True))}
        try:
            self.block(node.body, env)
        except _Return as done:
            return done.value
        finally:
            self.depth -= 1
        return None

    def block(self, body: list[ast.stmt], env: dict[str, Any]) -> None:
        for stmt in body:
            self.statement(stmt, env)

    def statement(self, stmt: ast.stmt, env: dict[str, Any]) -> None:
        self._step(stmt)
        if isinstance(stmt, ast.Expr):
            if not isinstance(stmt.value, ast.Constant):  # a docstring does nothing
                self.expr(stmt.value, env)
        elif isinstance(stmt, ast.Return):
            raise _Return(self.expr(stmt.value, env) if stmt.value is not None else None)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            value = self.expr(stmt.value, env)
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                self.assign(target, value, env)
        elif isinstance(stmt, ast.AugAssign) and type(stmt.op) in _BINARY:
            self.assign(stmt.target, _BINARY[type(stmt.op)](self.expr(stmt.target, env), self.expr(stmt.value, env)),
                        env)
        elif isinstance(stmt, ast.If):
            self.block(stmt.body if self.expr(stmt.test, env) else stmt.orelse, env)
        elif isinstance(stmt, ast.For) and not stmt.orelse:
            for item in list(self.iterable(stmt.iter, env)):
                self.assign(stmt.target, item, env)
                try:
                    self.block(stmt.body, env)
                except _Break:
                    break
                except _Continue:
                    continue
        elif isinstance(stmt, ast.FunctionDef) and not stmt.decorator_list:
            env[stmt.name] = _Function(stmt, env)
        elif isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if not isinstance(target, ast.Subscript):
                    raise self.fail(stmt, "deletes what is not an entry")
                del self.expr(target.value, env)[self.expr(target.slice, env)]
        elif isinstance(stmt, ast.Break):
            raise _Break
        elif isinstance(stmt, ast.Continue):
            raise _Continue
        elif not isinstance(stmt, ast.Pass):
            raise self.fail(stmt, "is a statement ToolChoice does not follow in a listing transform")

    def assign(self, target: ast.expr, value: Any, env: dict[str, Any]) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, ast.Subscript):
            self.expr(target.value, env)[self.expr(target.slice, env)] = value
        elif isinstance(target, ast.Attribute) and isinstance(owner := self.expr(target.value, env), ToolObject):
            owner.fields[target.attr] = value
        elif isinstance(target, ast.Tuple) and isinstance(value, (list, tuple)) and len(value) == len(target.elts):
            for part, item in zip(target.elts, value, strict=True):
                self.assign(part, item, env)
        else:
            raise self.fail(target, "is assigned in a way ToolChoice does not follow")

    def iterable(self, node: ast.expr, env: dict[str, Any]) -> Any:
        value = self.expr(node, env)
        if isinstance(value, (set, frozenset)):
            raise self.fail(node, "iterates over a set, in an order Python picks at run time")
        if not isinstance(value, (list, tuple, dict, str, *_VIEWS)) and not hasattr(value, "__next__"):
            raise self.fail(node, "iterates over a value that is not known")
        return value

    def expr(self, node: ast.expr, env: dict[str, Any]) -> Any:
        self._step(node)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            if node.id in self.functions:
                return _Function(self.functions[node.id], {})
            if node.id in _PURE or node.id in _TYPES or node.id in {"True", "False", "None"}:
                return _Builtin(node.id)
            raise self.fail(node, "is a name whose value is not known")
        if isinstance(node, ast.Attribute):
            owner = self.expr(node.value, env)
            if isinstance(owner, ToolObject):
                return owner.fields.get(node.attr)
            if isinstance(owner, _Opaque):
                raise self.fail(node, "reads the server's state, which is known only at run time")
            return _Method(owner, node.attr)
        if isinstance(node, ast.Subscript):
            return self.expr(node.value, env)[self.expr(node.slice, env)]
        if isinstance(node, ast.Call):
            return self.invoke(node, env)
        if isinstance(node, ast.Compare):
            left = self.expr(node.left, env)
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                right = self.expr(right_node, env)
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.BoolOp):
            result: Any = isinstance(node.op, ast.And)
            for value_node in node.values:
                result = self.expr(value_node, env)
                if bool(result) != isinstance(node.op, ast.And):
                    return result
            return result
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.expr(node.operand, env)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _BINARY[type(node.op)](self.expr(node.left, env), self.expr(node.right, env))
        if isinstance(node, ast.IfExp):
            return self.expr(node.body if self.expr(node.test, env) else node.orelse, env)
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.expr(e, env) for e in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.Set):
            return {self.expr(e, env) for e in node.elts}
        if isinstance(node, ast.Dict) and None not in node.keys:
            return {self.expr(k, env): self.expr(v, env) for k, v in zip(node.keys, node.values, strict=True)}  # type: ignore[arg-type]
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            return self.comprehension(node, env)
        raise self.fail(node, "is an expression ToolChoice does not follow in a listing transform")

    def comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp,
                      env: dict[str, Any]) -> Any:
        out: list[Any] = []
        scopes = [dict(env)]
        for generator in node.generators:
            if generator.is_async:
                raise self.fail(node, "is an asynchronous comprehension")
            scopes = [
                {**scope} | {"__item": item} for scope in scopes for item in list(self.iterable(generator.iter, scope))
            ]
            kept = []
            for scope in scopes:
                self.assign(generator.target, scope.pop("__item"), scope)
                if all(self.expr(test, scope) for test in generator.ifs):
                    kept.append(scope)
            scopes = kept
        for scope in scopes:
            if isinstance(node, ast.DictComp):
                out.append((self.expr(node.key, scope), self.expr(node.value, scope)))
            else:
                out.append(self.expr(node.elt, scope))
        if isinstance(node, ast.DictComp):
            return dict(out)
        return set(out) if isinstance(node, ast.SetComp) else out

    def invoke(self, node: ast.Call, env: dict[str, Any]) -> Any:
        func = self.expr(node.func, env)
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise self.fail(node, "passes unpacked arguments")
        args = [self.expr(a, env) for a in node.args]
        kwargs = {k.arg: self.expr(k.value, env) for k in node.keywords if k.arg is not None}
        if isinstance(func, _Function) and not kwargs:
            return self.call(func, args, at=node)
        if isinstance(func, _Builtin):
            name = func.name
            if name == "isinstance" and len(args) == 2:
                kinds = args[1] if isinstance(args[1], tuple) else (args[1],)
                types = tuple(_TYPES[k.name] for k in kinds if isinstance(k, _Builtin) and k.name in _TYPES)
                if len(types) != len(kinds):
                    raise self.fail(node, "checks a type ToolChoice does not know")
                return isinstance(args[0], types)  # type: ignore[arg-type]
            if name in _PURE and _PURE[name] is not None:
                return _PURE[name](*args, **kwargs)  # type: ignore[operator]
        if isinstance(func, _Method):
            owner, method = func.owner, func.name
            allowed = next((names for kind, names in _METHODS.items() if isinstance(owner, kind)), set())
            if method in allowed:
                return getattr(owner, method)(*args, **kwargs)
        raise self.fail(node, "is a call ToolChoice does not follow in a listing transform")

    def _step(self, node: ast.AST) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise self.fail(node, "takes too many steps to follow")
