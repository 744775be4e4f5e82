"""What FastMCP lists beside a Python tool's parameters: the outputSchema derived from its return type and the
`_meta` it builds from `tags=` and `meta=` (FastMCP 2 and 3 differ)."""

from __future__ import annotations

import ast
from typing import Any

from app.extract.common import Draft, FileResult, Unresolved
from app.extract.python.syntax import dotted, keyword, last_name, walk
from app.extract.python.type_hints import TypeReader
from app.extract.python.values import Constants

# Return types that produce no outputSchema (MCP content, FastMCP media and results).
_CONTENT_TYPES = {
    "TextContent",
    "ImageContent",
    "AudioContent",
    "EmbeddedResource",
    "ResourceLink",
    "Image",
    "Audio",
    "File",
    "ToolResult",
    "CallToolResult",
    "ContentBlock",
}




class ResultFields:
    """Mixed into the Python reader: the outputSchema and `_meta` of a FastMCP tool."""

    result: FileResult
    constants: Constants
    types: TypeReader
    sdk_flavour: bool
    fastmcp_major: int

    def _meta(self, draft: Draft, call: ast.Call | None) -> None:
        tags: list[Any] = []
        meta: dict[str, Any] = {}
        try:
            node = keyword(call, "tags") if call else None
            tags = sorted(self.constants.value(node)) if node is not None else []
            meta_node = keyword(call, "meta") if call else None
            meta = dict(self.constants.value(meta_node)) if meta_node is not None else {}
        except Unresolved as exc:
            self.result.unresolved(f"the tags or meta of tool `{draft.name}`", exc, tool=draft.name)
        if self.fastmcp_major < 3:  # FastMCP 2: `_fastmcp`, upstream keys kept, tags overwrite
            found = meta.get("_fastmcp")
            meta["_fastmcp"] = {**(found if isinstance(found, dict) else {}), "tags": tags}
            draft.fields["_meta"] = meta
            return
        found = meta.get("fastmcp")
        upstream: dict[str, Any] = found if isinstance(found, dict) else {}
        meta["fastmcp"] = {**{k: v for k, v in upstream.items() if not k.startswith("_")}, "tags": tags}
        draft.fields["_meta"] = meta

    def _output(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, draft: Draft, call: ast.Call | None) -> Any:
        explicit = keyword(call, "output_schema") if call else None
        if explicit is not None:
            try:
                return self.constants.value(explicit)
            except Unresolved as exc:
                self.result.unresolved(f"the output schema of tool `{draft.name}`", exc, tool=draft.name)
                return None
        ret = fn.returns
        if self.sdk_flavour:
            structured = keyword(call, "structured_output") if call else None
            if isinstance(structured, ast.Constant) and structured.value is False:
                return None
        if ret is None or (isinstance(ret, ast.Constant) and ret.value is None) or dotted(ret) in {"Any", "typing.Any"}:
            return None
        if any(last_name(n) in _CONTENT_TYPES for n in walk(ret)):
            return None
        try:
            base = self.types.schema(ret)
        except Unresolved as exc:
            self.result.unresolved(f"the output schema of tool `{draft.name}`", exc, tool=draft.name)
            return None
        if base.get("type") == "object":
            return base
        if self.sdk_flavour:
            return {
                "properties": {"result": {**base, "title": "Result"}},
                "required": ["result"],
                "title": f"{fn.name}Output",
                "type": "object",
            }
        return {"properties": {"result": base}, "required": ["result"], "type": "object", "x-fastmcp-wrap-result": True}


