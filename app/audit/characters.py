"""Characters no text we read may hold: lone surrogates, Unicode non-characters, NUL and other control characters.

A tool definition or cases file can spell any code point with a JSON or YAML escape (`"\\ud800"`, `"\\u0007"`),
and source code can hold one in a string literal. None of them is text a model should read, and a lone surrogate
cannot even be encoded as UTF-8, so hashing, redaction and every renderer would fail on it. They are refused
where text enters: every key and string of a document, and every text of an extracted tool, is checked once, and
the first offence is one InputError naming file, line, field and the code point. Tab, line feed and carriage
return are ordinary whitespace and pass; invisible format characters (zero-width, bidirectional controls) are
readable text and left to the hidden-text rule TC501, which reports them as findings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from app.audit.models import LineRange, Tool
from app.audit.positions import Path
from app.errors import InputError

# C0 controls but tab, LF, CR; DEL and the C1 controls; surrogates; the 66 non-characters.
_BAD = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef"
    + "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(17))
    + "]"
)


def character_problem(text: str) -> str | None:
    """What is wrong with the first refused character of `text`, or None when there is none."""
    found = _BAD.search(text)
    if found is None:
        return None
    code = ord(found.group())
    if 0xD800 <= code <= 0xDFFF:
        kind = "a lone surrogate"
    elif code == 0:
        kind = "NUL"
    elif code < 0xA0:
        kind = "the control character"
    else:
        kind = "the Unicode non-character"
    return f"{kind} U+{code:04X} at character {found.start() + 1}"


def shown(text: str, limit: int = 60) -> str:
    """`text` printable whatever it holds: refused characters as \\uXXXX escapes, cut at `limit` characters."""
    cut = text if len(text) <= limit else text[:limit] + "…"
    return _BAD.sub(lambda m: f"\\u{ord(m.group()):04x}", cut)


def field_name(path: Path) -> str:
    """`tools[2].inputSchema.properties.city` for a path of keys and indexes."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            name = shown(part)
            out += f".{name}" if re.fullmatch(r"[A-Za-z_$][\w$-]*", name) else f"['{name}']"
    return out.lstrip(".") or "the document"


def check_document(
    data: Any,
    *,
    file: str,
    ranges: Mapping[Path, LineRange],
    error: type[InputError],
    line: int | None = None,
    label: str = "",
) -> None:
    """Raise `error` naming file, line and field at the first key or string of `data` holding a refused
    character. `ranges` gives each value's lines (the nearest enclosing value's when a path has none);
    `line` is used when no range is known; `label` comes before the field's name ("tool 'x' ")."""
    stack: list[tuple[Path, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            _check(value, path, None, file=file, ranges=ranges, error=error, line=line, label=label)
        elif isinstance(value, Mapping):
            items = list(value.items())
            for key, _ in items:
                if isinstance(key, str):
                    _check(key, path, key, file=file, ranges=ranges, error=error, line=line, label=label)
            stack.extend(((*path, key), child) for key, child in reversed(items))
        elif isinstance(value, list):
            stack.extend(((*path, index), child) for index, child in reversed(list(enumerate(value))))


def check_tool(tool: Tool, *, error: type[InputError]) -> None:
    """`check_document` over a tool read from source code: the lines are the ones its location knows."""
    where = tool.location
    ranges: dict[Path, LineRange] = {}
    if where is not None:
        known: list[tuple[Path, LineRange | None]] = [
            ((), where.tool_lines),
            (("name",), where.name_lines),
            (("description",), where.description_lines),
        ]
        known += [(("inputSchema", "properties", p), r) for p, r in where.parameter_description_lines.items()]
        ranges = {path: lines for path, lines in known if lines is not None}
    file = where.file if where is not None else f"tool {shown(tool.name)}"
    check_document(tool.to_mcp(), file=file, ranges=ranges, error=error, label=f"tool '{shown(tool.name)}' ")


def _check(
    text: str,
    path: Path,
    key: str | None,
    *,
    file: str,
    ranges: Mapping[Path, LineRange],
    error: type[InputError],
    line: int | None,
    label: str,
) -> None:
    problem = character_problem(text)
    if problem is None:
        return
    field = f"{label}{field_name(path)}"
    where = f"the key '{shown(key)}' of {field}" if key is not None else field
    at = (*path, key) if key is not None else path
    while at and at not in ranges:
        at = at[:-1]
    found = ranges.get(at)
    raise error(
        f"{where} holds {problem}; remove it or write it as visible text",
        file=file,
        line=found.start if found is not None else line,
    )
