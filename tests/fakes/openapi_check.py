"""Checks a request (method, path, query, JSON body) against GitHub's OpenAPI description, as a test oracle."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft7Validator

_HTTP_METHODS = ("get", "post", "patch", "put", "delete")


def _nullable_to_json_schema(node: Any) -> Any:
    """OpenAPI 3.0's `nullable: true` as JSON Schema (type plus "null"); other keywords kept."""
    if isinstance(node, list):
        return [_nullable_to_json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _nullable_to_json_schema(v) for k, v in node.items() if k not in ("example", "examples")}
    if out.pop("nullable", False):
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        for key in ("oneOf", "anyOf"):
            if key in out:
                out[key] = [*out[key], {"type": "null"}]
    return out


@dataclass
class Operation:
    method: str
    template: str
    operation_id: str
    pattern: re.Pattern[str]
    path_params: dict[str, dict[str, Any]]
    query_params: dict[str, dict[str, Any]]
    required_query: set[str]
    body_validator: Draft7Validator | None
    body_required: bool
    responses: dict[str, Any]


def _path_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]+\})", template)
    out = ""
    for part in parts:
        if part.startswith("{"):
            name = part[1:-1]
            # `path` in /contents/{path} may hold slashes; every other parameter is one segment.
            out += f"(?P<{name}>.+)" if name == "path" else f"(?P<{name}>[^/]+)"
        else:
            out += re.escape(part)
    return re.compile(f"^{out}$")


def _type_ok(raw: str, schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "integer":
        return re.fullmatch(r"-?\d+", raw) is not None
    if kind == "boolean":
        return raw in ("true", "false")
    enum = schema.get("enum")
    return not (isinstance(enum, list) and raw not in enum)


class OpenApiChecker:
    def __init__(self, spec_path: Path) -> None:
        spec = json.loads(spec_path.read_text(encoding="utf-8"))
        self.operations: list[Operation] = []
        for template, item in spec["paths"].items():
            for method, op in item.items():
                if method not in _HTTP_METHODS:
                    continue
                params = op.get("parameters", [])
                body = op.get("requestBody")
                schema = (body or {}).get("content", {}).get("application/json", {}).get("schema")
                self.operations.append(
                    Operation(
                        method=method.upper(),
                        template=template,
                        operation_id=op.get("operationId", ""),
                        pattern=_path_regex(template),
                        path_params={p["name"]: p.get("schema", {}) for p in params if p["in"] == "path"},
                        query_params={p["name"]: p.get("schema", {}) for p in params if p["in"] == "query"},
                        required_query={p["name"] for p in params if p["in"] == "query" and p.get("required")},
                        body_validator=Draft7Validator(_nullable_to_json_schema(schema)) if schema else None,
                        body_required=bool((body or {}).get("required")),
                        responses=op.get("responses", {}),
                    )
                )

    def match(self, method: str, path: str) -> tuple[Operation | None, dict[str, str]]:
        for op in self.operations:
            if op.method != method:
                continue
            found = op.pattern.match(path)
            if found:
                return op, found.groupdict()
        return None, {}

    def check(
        self, method: str, path: str, query: dict[str, list[str]], body: bytes
    ) -> tuple[Operation | None, list[str]]:
        """The operation and every way the request breaks the spec (empty when it conforms)."""
        op, params = self.match(method, path)
        if op is None:
            return None, [f"{method} {path}: no such operation in the spec"]
        problems: list[str] = []
        where = f"{method} {op.template}"
        for name, raw in params.items():
            if not _type_ok(raw, op.path_params.get(name, {})):
                problems.append(f"{where}: path parameter {name}={raw!r} is not a {op.path_params[name].get('type')}")
        for name, values in query.items():
            schema = op.query_params.get(name)
            if schema is None:
                problems.append(f"{where}: unknown query parameter {name!r}")
                continue
            problems.extend(f"{where}: query {name}={v!r} breaks {schema}" for v in values if not _type_ok(v, schema))
        problems.extend(f"{where}: missing required query parameter {n!r}" for n in op.required_query - set(query))
        if body:
            if op.body_validator is None:
                problems.append(f"{where}: a body was sent but the operation takes none")
            else:
                try:
                    data = json.loads(body)
                except ValueError as exc:
                    return op, [*problems, f"{where}: body is not JSON: {exc}"]
                for err in sorted(op.body_validator.iter_errors(data), key=lambda e: list(e.path)):
                    path_str = "/".join(str(p) for p in err.path) or "(root)"
                    problems.append(f"{where}: body {path_str}: {err.message[:300]}")
        elif op.body_required:
            problems.append(f"{where}: the request body is required")
        return op, problems
