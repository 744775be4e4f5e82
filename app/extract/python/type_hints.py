"""Python type hints (read with `ast`) to the JSON Schema pydantic would generate for them."""

from __future__ import annotations

import ast
from typing import Any

from app.extract.common import Unresolved
from app.extract.python.enums import iterated_values
from app.extract.python.fields import Param, apply_field, field_call
from app.extract.python.syntax import dotted, keyword
from app.extract.python.values import Constants

_PRIMITIVES: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "float": {"type": "number"},
    "bool": {"type": "boolean"},
    "bytes": {"format": "binary", "type": "string"},
    "Any": {},
    "object": {},
    "None": {"type": "null"},
    "NoneType": {"type": "null"},
    "datetime": {"format": "date-time", "type": "string"},
    "date": {"format": "date", "type": "string"},
    "time": {"format": "time", "type": "string"},
    "timedelta": {"format": "duration", "type": "string"},
    "UUID": {"format": "uuid", "type": "string"},
    "Path": {"format": "path", "type": "string"},
    "AnyUrl": {"format": "uri", "minLength": 1, "type": "string"},
    "AnyHttpUrl": {"format": "uri", "minLength": 1, "type": "string"},
    "HttpUrl": {"format": "uri", "maxLength": 2083, "minLength": 1, "type": "string"},
    "EmailStr": {"format": "email", "type": "string"},
    "Decimal": {"anyOf": [{"type": "number"}, {"type": "string"}]},
}
_LISTS = {"list", "List", "Sequence", "Iterable", "Collection", "MutableSequence", "tuple", "Tuple"}
_SETS = {"set", "Set", "frozenset", "FrozenSet", "AbstractSet"}
_DICTS = {"dict", "Dict", "Mapping", "MutableMapping"}
class TypeReader:
    """Reads annotations of one file; knows its Enum and BaseModel classes."""

    def __init__(self, tree: ast.Module, constants: Constants, *, titles: bool) -> None:
        self.constants = constants
        self.titles = titles
        self.classes: dict[str, ast.ClassDef] = dict(constants.imported_classes)
        self.classes.update({stmt.name: stmt for stmt in tree.body if isinstance(stmt, ast.ClassDef)})
        self._busy: set[str] = set()
        # With titles (pydantic's own output, not dereferenced), classes are listed once under `$defs`.
        self.defs: dict[str, Any] = {}

    def param(self, name: str, annotation: ast.expr | None, default: ast.expr | None) -> Param:
        """Schema of a parameter (or a model field) from its annotation and default, pydantic-style."""
        out = Param(schema={})
        fields: list[ast.Call] = []
        base = annotation
        while isinstance(base, ast.Subscript) and _last(base.value) == "Annotated":
            parts = base.slice.elts if isinstance(base.slice, ast.Tuple) else [base.slice]
            base = parts[0]
            for meta in parts[1:]:
                if (call := field_call(meta, self.constants)) is not None:
                    fields.append(call)
                elif isinstance(meta, ast.Constant) and isinstance(meta.value, str):
                    out.description_node = meta
        if default is not None and (call := field_call(default, self.constants)) is not None:
            fields.append(call)
            default = call.args[0] if call.args else keyword(call, "default")
        elif default is not None:
            out.has_default = True
        try:
            out.schema = self.schema(base) if base is not None else {}
        except Unresolved as exc:
            out.problems.append(exc)
        if self.titles and name and not _refers_to_class(out.schema):  # pydantic titles no `$ref` field
            out.schema["title"] = name.title().replace("_", " ")
        for call in fields:
            apply_field(call, out, self.constants, titles=self.titles)
        if default is not None and not (isinstance(default, ast.Constant) and default.value is Ellipsis):
            out.has_default = True
            try:
                out.schema["default"] = self.constants.value(default)
            except Unresolved as exc:
                out.problems.append(exc)
        if out.description_node is not None:
            try:
                out.schema["description"] = self.constants.string(out.description_node)
            except Unresolved as exc:
                out.problems.append(exc)
        return out

    def schema(self, node: ast.expr) -> dict[str, Any]:
        if isinstance(node, ast.Constant) and node.value is None:
            return {"type": "null"}
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:  # a string annotation: its own line numbers start at 1, report the annotation's line
                return self.schema(ast.parse(node.value, mode="eval").body)
            except (Unresolved, SyntaxError) as exc:
                why = exc.why if isinstance(exc, Unresolved) else "a string annotation that does not parse"
                raise Unresolved(why, line=node.lineno, end_line=node.end_lineno) from None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self._union([*_flatten_or(node)])
        if isinstance(node, ast.Subscript):
            return self._generic(node)
        name = _last(node)
        if name is None:
            raise Unresolved(f"a type hint ToolChoice cannot read ({ast.unparse(node)})", line=node.lineno)
        if name in _PRIMITIVES:
            return dict(_PRIMITIVES[name])
        if name in _LISTS:
            return {"items": {}, "type": "array"}
        if name in _SETS:
            return {"items": {}, "type": "array", "uniqueItems": True}
        if name in _DICTS:
            return {"additionalProperties": True, "type": "object"}
        if name in self.classes:
            return self._class(self.classes[name])
        raise Unresolved(f"the type `{ast.unparse(node)}` is not defined in this file", line=node.lineno)

    def _generic(self, node: ast.Subscript) -> dict[str, Any]:
        name = _last(node.value)
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if name == "Annotated":
            inner = self.param("", node, None)
            if inner.problems:
                raise inner.problems[0]
            return inner.schema
        if name == "Optional":
            return self._union([args[0], ast.Constant(value=None)])
        if name == "Union":
            return self._union(list(args))
        if name == "Literal":
            values = [self.constants.value(a) for a in args]
            return _literal(values)
        if name in _LISTS:
            if name in {"tuple", "Tuple"} and not (len(args) == 2 and isinstance(args[1], ast.Constant)):
                raise Unresolved("a fixed-length tuple type", line=node.lineno)
            return {"items": self.schema(args[0]), "type": "array"}
        if name in _SETS:
            return {"items": self.schema(args[0]), "type": "array", "uniqueItems": True}
        if name in _DICTS:
            value = self.schema(args[1]) if len(args) == 2 else {}
            return {"additionalProperties": value if value else True, "type": "object"}
        raise Unresolved(f"the generic type `{ast.unparse(node)}`", line=node.lineno)

    def _union(self, members: list[ast.expr]) -> dict[str, Any]:
        schemas: list[dict[str, Any]] = []
        for member in members:
            sub = self.schema(member)
            for part in sub["anyOf"] if set(sub) == {"anyOf"} else [sub]:
                if part not in schemas:
                    schemas.append(part)
        return schemas[0] if len(schemas) == 1 else {"anyOf": schemas}

    def _class(self, cls: ast.ClassDef) -> dict[str, Any]:
        bases = {_last(b) for b in cls.bases}
        if bases & {"Enum", "StrEnum", "IntEnum"}:
            out = _literal(iterated_values(cls, self.constants.class_defs, self.constants.value))
            if self.titles:
                out["title"] = cls.name
        elif "BaseModel" in bases:
            out = self.model(cls)
        else:
            raise Unresolved(f"the class `{cls.name}` is neither an Enum nor a pydantic model", line=cls.lineno)
        if not self.titles:
            return out  # FastMCP dereferences: the class's schema in place
        self.defs[cls.name] = out
        return {"$ref": f"#/$defs/{cls.name}"}

    def model(self, cls: ast.ClassDef) -> dict[str, Any]:
        """The pydantic JSON schema of a BaseModel class of this file (nested models inlined)."""
        if cls.name in self._busy:
            raise Unresolved(f"the model `{cls.name}` refers to itself", line=cls.lineno)
        self._busy.add(cls.name)
        try:
            props: dict[str, Any] = {}
            required: list[str] = []
            for stmt in cls.body:
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    if _last(stmt.annotation) == "ClassVar":
                        continue
                    param = self.param(stmt.target.id, stmt.annotation, stmt.value)
                    if param.problems:
                        raise param.problems[0]
                    key = param.alias or stmt.target.id
                    props[key] = param.schema
                    if not param.has_default:
                        required.append(key)
            out: dict[str, Any] = {}
            doc = ast.get_docstring(cls)
            if doc:
                out["description"] = doc
            out["properties"] = props
            if required:
                out["required"] = required
            if self.titles:
                out["title"] = cls.name
            out["type"] = "object"
            return out
        finally:
            self._busy.discard(cls.name)


def _refers_to_class(schema: dict[str, Any]) -> bool:
    if "$ref" in schema:
        return True
    branches = [b for b in schema.get("anyOf", []) if b != {"type": "null"}]
    return bool(branches) and all("$ref" in b for b in branches)


def _literal(values: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"const": values[0]} if len(values) == 1 else {"enum": values}
    kinds = {type(v) for v in values}
    names = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}
    if len(kinds) == 1 and next(iter(kinds)) in names:
        out["type"] = names[next(iter(kinds))]
    return out


def _flatten_or(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return [*_flatten_or(node.left), *_flatten_or(node.right)]
    return [node]


def _last(node: ast.AST) -> str | None:
    name = dotted(node)
    return name.rsplit(".", 1)[-1] if name else None
