"""Reading tool definitions from JSON or YAML text: MCP, OpenAI and Anthropic formats, with line locations.

Accepted shapes (format "auto" detects them per tool):
- MCP: a `tools/list` result `{"tools": [...]}` (extra top-level keys such as `source` are ignored),
  a bare list of tools, or one tool; a tool has `name`, `description`, `inputSchema`, ...
- OpenAI: `{"type": "function", "function": {"name", "description", "parameters"}}` or the flat form
  `{"name", "description", "parameters"}`.
- Anthropic: `{"name", "description", "input_schema"}`.

Problems with single tools (no name, duplicate name, a field of the wrong type) become findings TC080-TC089
and the other tools are still read; a file that cannot be parsed at all raises DefinitionError.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from app.audit.documents import read_document
from app.audit.models import Dimension, Finding, LineRange, Location, Severity, Tool, ToolSet
from app.audit.positions import Path
from app.errors import DefinitionError

FORMATS = ("auto", "mcp", "openai", "anthropic")

# Loader findings; rules/ uses other TC0xx ids for schema and naming rules.
NOT_AN_OBJECT = "TC080"
MISSING_NAME = "TC081"
DUPLICATE_NAME = "TC082"
WRONG_FIELD_TYPE = "TC083"
UNKNOWN_SHAPE = "TC084"


def load_definitions(name: str, *, text: str, fmt: str = "auto") -> ToolSet:
    """Parse one definition file's text. `name` is how the file is shown (keep it relative)."""
    if fmt not in FORMATS:
        raise DefinitionError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}", file=name)
    data, ranges, syntax = read_document(name, text, error=DefinitionError)
    items, base = _tool_items(data, name)
    return _read_tools(items, base=base, name=name, ranges=ranges, fmt=fmt, syntax=syntax)


def merge_toolsets(sets: Iterable[ToolSet]) -> ToolSet:
    """One ToolSet from several files; a name defined twice is reported once, the first one kept."""
    merged = ToolSet()
    seen: dict[str, Tool] = {}
    for toolset in sets:
        merged.sources.extend(toolset.sources)
        merged.load_findings.extend(toolset.load_findings)
        for tool in toolset.tools:
            if tool.name in seen:
                first = seen[tool.name].location
                merged.load_findings.append(
                    _finding(
                        DUPLICATE_NAME,
                        f"tool name {tool.name!r} is defined again (first in {first.file if first else '?'}); "
                        "this definition is ignored",
                        tool=tool.name,
                        location=tool.location,
                    )
                )
                continue
            seen[tool.name] = tool
            merged.tools.append(tool)
    merged.load_findings.sort(key=Finding.sort_key)
    return merged


def _tool_items(data: Any, name: str) -> tuple[list[Any], Path]:
    if isinstance(data, dict) and isinstance(data.get("tools"), list):
        return data["tools"], ("tools",)
    if (
        isinstance(data, dict)
        and isinstance(data.get("result"), dict)
        and isinstance(data["result"].get("tools"), list)
    ):
        return data["result"]["tools"], ("result", "tools")
    if isinstance(data, list):
        return data, ()
    if isinstance(data, dict) and ("name" in data or "function" in data):
        return [data], ()
    if data is None:
        raise DefinitionError("the file is empty; expected tool definitions", file=name, line=1)
    raise DefinitionError(
        'no tool definitions found: expected {"tools": [...]}, a list of tools, or one tool', file=name, line=1
    )


def _read_tools(
    items: Sequence[Any], *, base: Path, name: str, ranges: dict[Path, LineRange], fmt: str, syntax: str
) -> ToolSet:
    toolset = ToolSet(sources=[name])
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        path: Path = (*base, index)
        where = ranges.get(path)
        line = where.start if where else None
        if not isinstance(item, dict):
            toolset.load_findings.append(
                _finding(NOT_AN_OBJECT, f"tool #{index + 1} is not an object", file=name, line=line)
            )
            continue
        raw, prefix, kind = _unwrap(item, fmt)
        if kind is None:
            toolset.load_findings.append(
                _finding(UNKNOWN_SHAPE, f"tool #{index + 1} is not in the {fmt} format", file=name, line=line)
            )
            continue
        tool_path: Path = (*path, *prefix)
        tool_name = raw.get("name")
        if not isinstance(tool_name, str) or not tool_name.strip():
            toolset.load_findings.append(
                _finding(MISSING_NAME, f"tool #{index + 1} has no name; it is skipped", file=name, line=line)
            )
            continue
        if tool_name in seen:
            toolset.load_findings.append(
                _finding(
                    DUPLICATE_NAME,
                    f"tool name {tool_name!r} is used again (first at tool #{seen[tool_name] + 1}); "
                    "this definition is ignored",
                    tool=tool_name,
                    file=name,
                    line=line,
                )
            )
            continue
        seen[tool_name] = index
        tool, problems = _build_tool(raw, kind)
        for problem in problems:
            toolset.load_findings.append(_finding(WRONG_FIELD_TYPE, problem, tool=tool_name, file=name, line=line))
        schema_key = {"mcp": "inputSchema", "openai": "parameters", "anthropic": "input_schema"}[kind]
        params = {
            key: r
            for key in tool.properties
            if (r := ranges.get((*tool_path, schema_key, "properties", key, "description")))
        }
        tool.location = Location(
            file=name,
            tool_lines=where,
            name_lines=ranges.get((*tool_path, "name")),
            description_lines=ranges.get((*tool_path, "description")),
            parameter_description_lines=params,
            syntax=syntax,
        )
        toolset.tools.append(tool)
    toolset.load_findings.sort(key=Finding.sort_key)
    return toolset


def _unwrap(item: dict[str, Any], fmt: str) -> tuple[dict[str, Any], Path, str | None]:
    """The tool's own object, its path prefix inside the item, and its format."""
    if isinstance(item.get("function"), dict) and fmt in ("auto", "openai"):
        return item["function"], ("function",), "openai"
    if fmt == "openai" or (fmt == "auto" and "parameters" in item and "inputSchema" not in item):
        return item, (), "openai"
    if fmt == "anthropic" or (fmt == "auto" and "input_schema" in item and "inputSchema" not in item):
        return item, (), "anthropic"
    if fmt in ("auto", "mcp"):
        return item, (), "mcp"
    return item, (), None


_MCP_FIELDS = {"name", "title", "description", "inputSchema", "outputSchema", "annotations"}
_OTHER_FIELDS = {
    "openai": {"name", "description", "parameters", "strict"},
    "anthropic": {"name", "description", "input_schema"},
}


def _build_tool(raw: dict[str, Any], kind: str) -> tuple[Tool, list[str]]:
    problems: list[str] = []
    schema_key = {"mcp": "inputSchema", "openai": "parameters", "anthropic": "input_schema"}[kind]
    schema = raw.get(schema_key, {"type": "object"})
    if not isinstance(schema, dict):
        problems.append(f"{schema_key} must be an object, not {type(schema).__name__}; treated as empty")
        schema = {"type": "object"}
    description = raw.get("description")
    if description is not None and not isinstance(description, str):
        problems.append(f"description must be a string, not {type(description).__name__}; ignored")
        description = None
    title = raw.get("title")
    if title is not None and not isinstance(title, str):
        problems.append("title must be a string; ignored")
        title = None
    annotations = raw.get("annotations")
    if annotations is not None and not isinstance(annotations, dict):
        problems.append("annotations must be an object; ignored")
        annotations = None
    output_schema = raw.get("outputSchema")
    if output_schema is not None and not isinstance(output_schema, dict):
        problems.append("outputSchema must be an object; ignored")
        output_schema = None
    known = _MCP_FIELDS if kind == "mcp" else _OTHER_FIELDS[kind]
    extra = {k: v for k, v in raw.items() if k not in known}
    tool = Tool(
        name=raw["name"],
        title=title,
        description=description,
        inputSchema=schema,
        outputSchema=output_schema,
        annotations=annotations,
        extra=extra if kind == "mcp" else {},
    )
    return tool, problems


def _finding(
    rule_id: str,
    message: str,
    *,
    tool: str | None = None,
    file: str | None = None,
    line: int | None = None,
    location: Location | None = None,
) -> Finding:
    if location is not None:
        file = location.file
        line = location.tool_lines.start if location.tool_lines else None
    return Finding(
        rule_id=rule_id,
        severity=Severity.ERROR,
        dimension=Dimension.INPUT,
        message=message,
        tool=tool,
        file=file,
        line=line,
    )
