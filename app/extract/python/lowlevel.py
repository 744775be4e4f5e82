"""Python low-level servers: `Tool(name=..., description=..., inputSchema=...)` literals, read with `ast`."""

from __future__ import annotations

import ast
from typing import Any

from app.extract.common import Draft, FileResult, Unresolved
from app.extract.python.syntax import dotted, keyword, node_lines
from app.extract.python.type_hints import TypeReader
from app.extract.python.values import Constants


class LiteralReader:
    """Reads Tool(...) calls; `raw_types` lists pydantic titles, as `Model.model_json_schema()` does."""

    def __init__(self, constants: Constants, types: TypeReader, raw_types: TypeReader, result: FileResult) -> None:
        self.constants = constants
        self.types = types
        self.raw_types = raw_types
        self.result = result

    def read(self, call: ast.Call) -> Draft | None:
        """A draft for `Tool(name=..., description=..., inputSchema=...)`, or None when it has no name."""
        name_node = keyword(call, "name")
        if name_node is None:
            return None
        try:
            name = self.constants.string(name_node)
        except Unresolved as exc:
            self.result.unresolved("the name of a Tool(...) literal", exc)
            return None
        name_lines = node_lines(self.constants.source_node(name_node))
        draft = Draft(name=name, fields={}, tool_lines=node_lines(call), name_lines=name_lines)
        for kw in call.keywords:
            if kw.arg in {None, "name"}:
                continue
            try:
                value, problems = self._value(kw.value)
            except Unresolved as exc:
                self.result.unresolved(f"`{kw.arg}` of tool `{name}`", exc, tool=name)
                continue
            for problem in problems:
                self.result.unresolved(f"part of `{kw.arg}` of tool `{name}` (left out)", problem, tool=name)
            if value is not None:
                draft.fields[kw.arg] = value
            if kw.arg == "description":
                draft.description_lines = self.constants.text_lines(kw.value)
        schema_node = keyword(call, "inputSchema")
        if schema_node is not None:
            found = self._parameter_lines(schema_node)
            draft.parameter_lines.update({k: v for k, v in found.items() if v is not None})
        return draft

    def _parameter_lines(self, node: ast.expr) -> dict[str, Any]:
        """Lines of each parameter description in a schema dict literal or a same-file model's Field()s."""
        out: dict[str, Any] = {}
        node = self.constants.source_node(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            cls = self.types.classes.get(dotted(node.func.value) or "")
            if cls is not None and cls in self.constants.imported_classes.values():
                return out  # a model of another file: its lines are not this file's
            for stmt in cls.body if cls else []:
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    for sub in ast.walk(stmt):
                        if isinstance(sub, ast.Call) and (dotted(sub.func) or "").endswith("Field"):
                            desc = keyword(sub, "description")
                            if desc is not None:
                                out[stmt.target.id] = self.constants.text_lines(desc)
            return out
        props = _dict_get(self.constants.source_node(node), "properties")
        if isinstance(props, ast.Dict):
            for key, value in zip(props.keys, props.values, strict=True):
                desc = _dict_get(self.constants.source_node(value), "description") if key is not None else None
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and desc is not None:
                    out[key.value] = self.constants.text_lines(desc)
        return out

    def _value(self, node: ast.expr) -> tuple[Any, list[Unresolved]]:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = dotted(node.func.value)
            if node.func.attr == "model_json_schema" and owner in self.types.classes:
                self.raw_types.defs = {}
                root = self.raw_types.model(self.types.classes[owner])
                return ({"$defs": dict(self.raw_types.defs), **root} if self.raw_types.defs else root), []
        if isinstance(node, ast.Call) and (dotted(node.func) or "").endswith("ToolAnnotations"):
            return {k: v for k, v in self.constants.call_kwargs(node).items() if v is not None}, []
        return self.constants.value_lenient(node)


def _dict_get(node: ast.AST, key: str) -> ast.expr | None:
    if isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values, strict=True):
            if isinstance(k, ast.Constant) and k.value == key:
                return v
    return None
