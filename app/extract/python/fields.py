"""pydantic `Field(...)` on a Python tool parameter: what it adds to the parameter's schema, and the Field
objects defined once and reused (`REGION = Field(description=...)`, then `region: str = REGION`)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from app.extract.common import Unresolved
from app.extract.python.syntax import dotted
from app.extract.python.values import Constants

_NUMERIC_FIELD_KEYS = {
    "ge": "minimum",
    "le": "maximum",
    "gt": "exclusiveMinimum",
    "lt": "exclusiveMaximum",
    "multiple_of": "multipleOf",
}
# Field() keywords that do not change the listed schema.
_SILENT_FIELD_KEYS = {"default_factory", "exclude", "repr", "init", "kw_only", "strict", "frozen", "validate_default"}


@dataclass
class Param:
    """What a type hint plus its Field() say about one parameter."""

    schema: dict[str, Any]
    has_default: bool = False
    description_node: ast.expr | None = None
    alias: str | None = None
    problems: list[Unresolved] = field(default_factory=list)


def field_call(node: ast.expr, constants: Constants) -> ast.Call | None:
    """`Field(...)` written here, or the `Field(...)` a module constant (this file's or an imported one) holds."""
    if isinstance(node, ast.Name) and node.id in constants.nodes:
        node = constants.nodes[node.id]
    if isinstance(node, ast.Call) and (dotted(node.func) or "").rsplit(".", 1)[-1] == "Field":
        return node
    return None


def apply_field(call: ast.Call, out: Param, constants: Constants, *, titles: bool) -> None:
    """What one `Field(...)` adds to a parameter's schema (constraints, description, default, alias...)."""
    if call.args and not (isinstance(call.args[0], ast.Constant) and call.args[0].value is Ellipsis):
        out.has_default = True
    for kw in call.keywords:
        key = kw.arg
        try:
            if key == "description":
                out.description_node = kw.value
            elif key == "default":
                out.has_default = True
                out.schema["default"] = constants.value(kw.value)
            elif key == "default_factory":
                out.has_default = True
            elif key in _NUMERIC_FIELD_KEYS:
                set_inner(out.schema, _NUMERIC_FIELD_KEYS[key], constants.value(kw.value))
            elif key in {"min_length", "max_length"}:
                inner = non_null(out.schema)
                kind = "Items" if inner.get("type") == "array" else "Length"
                set_inner(out.schema, key[:3] + kind, constants.value(kw.value))
            elif key == "pattern":
                set_inner(out.schema, "pattern", constants.value(kw.value))
            elif key == "title":
                if titles:  # FastMCP prunes every title, explicit ones too
                    out.schema[key] = constants.value(kw.value)
            elif key in {"examples", "deprecated"}:
                out.schema[key] = constants.value(kw.value)
            elif key in {"alias", "validation_alias"}:
                node = kw.value
                if isinstance(node, ast.Call) and _last(node.func) == "AliasChoices" and node.args:
                    node = node.args[0]  # pydantic lists the first choice
                out.alias = constants.string(node)
            elif key == "json_schema_extra":
                extra = constants.value(kw.value)
                if isinstance(extra, dict):
                    out.schema.update(extra)
            elif key not in _SILENT_FIELD_KEYS and key is not None:
                raise Unresolved(f"Field({key}=...) is not supported", line=kw.value.lineno)
        except Unresolved as exc:
            out.problems.append(exc)


def non_null(schema: dict[str, Any]) -> dict[str, Any]:
    branches = schema.get("anyOf")
    if isinstance(branches, list):
        others = [b for b in branches if b != {"type": "null"}]
        if len(others) == 1:
            return others[0]  # type: ignore[no-any-return]
    return schema


def set_inner(schema: dict[str, Any], key: str, value: Any) -> None:
    non_null(schema)[key] = value


def _last(node: ast.AST) -> str | None:
    name = dotted(node)
    return name.rsplit(".", 1)[-1] if name else None
