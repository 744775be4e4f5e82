"""Tool descriptions from docstrings as each library sends them, and FastMCP 3's split into text and parameters.

What each library sends (read from their sources):
- the MCP SDK's FastMCP (`mcp.server.fastmcp`, mcp 1.x) and MCPServer (`mcp.server.mcpserver`, mcp 2.x), and
  standalone FastMCP 1.x and 2.0-2.8: `description or fn.__doc__ or ""`, the raw `__doc__` (Args included, no
  parameter descriptions). Python 3.13+ strips the docstring's indentation when compiling (compiled_docstring).
- FastMCP 2.9 to 3.2.3: `inspect.getdoc(fn)`, the whole docstring cleaned (None without one).
- FastMCP 3.2.4 and later (PrefectHQ/fastmcp PR #3872): Google, NumPy or Sphinx parameter sections are parsed;
  the text above them is the description and each parameter's text its schema description (parse_docstring).
  Explicit `description=` texts are never parsed.

The Python version matters for the raw `__doc__` only: Python 3.13 and later strip the docstring's common
indentation when compiling, older ones keep it. It is read, never guessed, from the nearest project folder above
the file (python_project.py): its `.python-version` (what uv and pyenv run), else the `requires-python` of its
`pyproject.toml` when the range lies wholly below or wholly at/above 3.13; the first folder holding either file
is the project root. When they do not decide, the text is shown as a current Python (3.13+) sends it, with a TC090
saying an older Python keeps the indentation (only when the two differ: one-line docstrings need no version).
"""

from __future__ import annotations

import inspect
import re
import textwrap
from enum import StrEnum


class DocStyle(StrEnum):
    RAW = "raw"  # `fn.__doc__` as compiled
    GETDOC = "getdoc"  # inspect.getdoc(fn)
    PARSED = "parsed"  # FastMCP's docstring parser: text above the parameter section, parameters apart


# FastMCP versions where the docstring handling changed (its tools/tool.py and PR #3872).
GETDOC_SINCE = (2, 9, 0)
PARSED_SINCE = (3, 2, 4)


def doc_style(*, sdk: bool, fastmcp_major: int, fastmcp_version: tuple[int, int, int] | None) -> DocStyle:
    """The docstring handling of the library: the SDK's, else FastMCP's by its exact version when a lock or pin
    gives it, else by its major version (a range installs the newest release of that major)."""
    if sdk or fastmcp_major <= 1:
        return DocStyle.RAW
    version = fastmcp_version if fastmcp_version is not None and fastmcp_version[0] == fastmcp_major else None
    if version is None:
        return DocStyle.GETDOC if fastmcp_major == 2 else DocStyle.PARSED
    if version < GETDOC_SINCE:
        return DocStyle.RAW
    return DocStyle.GETDOC if version < PARSED_SINCE else DocStyle.PARSED


def compiled_docstring(raw: str) -> str:
    """`__doc__` as Python 3.13+ compiles it: tabs expanded, the first line's leading spaces and the smallest
    indentation of the other non-blank lines removed (blank lines and trailing text kept, unlike cleandoc)."""
    lines = raw.expandtabs().split("\n")
    margin = min((len(line) - len(line.lstrip(" ")) for line in lines[1:] if line.lstrip(" ")), default=0)
    rest = [line[min(margin, len(line) - len(line.lstrip(" "))):] for line in lines[1:]]
    return "\n".join([lines[0].lstrip(" "), *rest])

_PARAM_SECTIONS = {"args", "arguments", "params", "parameters", "keyword args", "keyword arguments", "other parameters"}
_SECTIONS = _PARAM_SECTIONS | {
    "returns",
    "return",
    "raises",
    "raise",
    "exceptions",
    "yields",
    "yield",
    "examples",
    "example",
    "note",
    "notes",
    "warning",
    "warnings",
    "attributes",
    "see also",
    "todo",
    "receives",
    "receive",
    "functions",
    "methods",
    "classes",
    "modules",
    "deprecated",
    "warns",
}
_HEADER = re.compile(r"^([A-Za-z][A-Za-z ]*):\s*$")
_DASHES = re.compile(r"^\s*-{3,}\s*$")
_SPHINX = re.compile(r"^:param\s+(?:[^:]*\s)?(\*{0,2}\w+)\s*:(.*)$")
_PARAM = re.compile(r"^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def parse_docstring(raw: str) -> tuple[str | None, dict[str, str]]:
    """(description, {parameter: description}); the whole cleaned docstring when it has no `Args:` entries."""
    doc = inspect.cleandoc(raw)
    if not doc:
        return None, {}
    lines = doc.split("\n")
    text: list[str] | None = None
    params: dict[str, str] = {}
    i = 0
    while i < len(lines):
        header = _section_header(lines, i)
        if header is None:
            i += 1
            continue
        if text is None:
            text = lines[:i]
        body, i = _section_body(lines, i + 1)
        if header in _PARAM_SECTIONS:
            params.update(_params(body))
    if not params:
        return _numpy(lines) or _sphinx(lines) or (doc, {})
    description = "\n".join(text if text is not None else lines).strip()
    return description or None, params


def _numpy(lines: list[str]) -> tuple[str | None, dict[str, str]] | None:
    """NumPy style: `Parameters` over a dashed line, then `name : type` and indented descriptions."""
    for i in range(len(lines) - 1):
        if lines[i].strip().lower() in {"parameters", "other parameters"} and _DASHES.match(lines[i + 1]):
            params: dict[str, str] = {}
            current: str | None = None
            body = lines[i + 2:]
            for j, line in enumerate(body):
                if j + 1 < len(body) and _DASHES.match(body[j + 1]):
                    break  # the next section (`Returns` over dashes)
                if line and not line.startswith((" ", "\t")):
                    current = line.split(":", 1)[0].strip().lstrip("*")
                    params[current] = ""
                elif current and line.strip():
                    params[current] = (params[current] + "\n" + line.strip()).strip()
            params = {k: v for k, v in params.items() if k}
            if params:
                return "\n".join(lines[:i]).strip() or None, params
    return None


def _sphinx(lines: list[str]) -> tuple[str | None, dict[str, str]] | None:
    """Sphinx style: `:param name: text` fields after the description."""
    params: dict[str, str] = {}
    first_field: int | None = None
    current: str | None = None
    for i, line in enumerate(lines):
        match = _SPHINX.match(line)
        if match:
            first_field = i if first_field is None else first_field
            current = match.group(1)
            params[current] = match.group(2).strip()
        elif line.startswith(":"):
            first_field = i if first_field is None else first_field
            current = None
        elif current and line.strip() and line.startswith((" ", "\t")):
            params[current] = (params[current] + "\n" + line.strip()).strip()
    if not params or first_field is None:
        return None
    return "\n".join(lines[:first_field]).strip() or None, params


def _section_header(lines: list[str], i: int) -> str | None:
    match = _HEADER.match(lines[i])
    if not match or match.group(1).lower() not in _SECTIONS:
        return None
    if i + 1 >= len(lines) or not lines[i + 1].startswith((" ", "\t")):
        return None
    return match.group(1).lower()


def _section_body(lines: list[str], i: int) -> tuple[list[str], int]:
    body: list[str] = []
    while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
        body.append(lines[i])
        i += 1
    while body and not body[-1].strip():
        body.pop()
    return textwrap.dedent("\n".join(body)).split("\n") if body else [], i


def _params(body: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    current: str | None = None
    parts: list[str] = []
    for line in body:
        match = _PARAM.match(line) if not line.startswith((" ", "\t")) else None
        if match:
            if current:
                out[current] = "\n".join(parts).strip()
            current, parts = match.group(1).lstrip("*"), [match.group(2)]
        elif current:
            parts.append(line.strip())
    if current:
        out[current] = "\n".join(parts).strip()
    return out
