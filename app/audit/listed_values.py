"""Values of a string parameter written in prose: the closed choices a server lists in a description instead of
an `enum` ("1. get - Get details", "action: One of: ``create``, ``update``.").

Real servers often write the operations of a consolidated tool this way, and a model reads them there; so the
successor finder (app/audit/successors/) and the synthetic selector's argument filler read them too.
"""

from __future__ import annotations

import re
from typing import Any

# One value a line: "- 'add' - adds ...", "2. get_diff - Get the diff", "* `close`: closes ...".
_LISTED = re.compile(
    r"^\s*(?:[-*\u2022]|\d+[.)])?\s*[`'\"]?([A-Za-z][A-Za-z0-9_-]*)[`'\"]?\s*(?:-|:|\u2013|\u2014)\s+\S"
)
_QUOTED = re.compile(r"[`'\"]{1,2}([A-Za-z][A-Za-z0-9_-]*)[`'\"]{1,2}")
_BETWEEN = re.compile(r"\s*(?:[,|/]\s*)?(?:(?:or|and)\s+)?")
# Where a docstring's Args entry ends: the next `name:` line or a blank line.
_ENTRY_END = re.compile(r"\n\s*[A-Za-z_][\w-]*\s*:|\n\s*\n")


def listed_per_line(text: str) -> list[str]:
    """Values listed one per line (two at least), in order."""
    found = [m.group(1) for line in text.splitlines() if (m := _LISTED.match(line))]
    return list(dict.fromkeys(found)) if len(found) >= 2 else []


def listed_inline(text: str, param: str) -> list[str]:
    """Values of `param` written as a quoted list after its name: "action: One of: `create`, `update`." (an Args
    entry of a docstring) or "Actions: ``list``, ``get``." in a tool's description; the list ends at the first
    word that is not a separator."""
    for found in re.finditer(rf"(?i)(?<![\w-]){re.escape(param)}s?\s*:", text):
        segment = text[found.end() : found.end() + 600]
        end = _ENTRY_END.search(segment)
        segment = segment[: end.start()] if end else segment
        values: list[str] = []
        last: int | None = None
        for quoted in _QUOTED.finditer(segment):
            if last is not None and not _BETWEEN.fullmatch(segment[last : quoted.start()]):
                break
            values.append(quoted.group(1))
            last = quoted.end()
        if len(values) >= 2:
            return list(dict.fromkeys(values))
    return []


def prose_values(name: str, spec: dict[str, Any], tool_description: str = "") -> list[str]:
    """The values a string parameter without an `enum` lists in its own description (one per line, or quoted
    after its name) or in its tool's description (quoted after its name); [] when it lists none."""
    if "enum" in spec or spec.get("type") not in ("string", None):
        return []
    own = spec.get("description")
    own = own if isinstance(own, str) else ""
    return listed_per_line(own) or listed_inline(own, name) or listed_inline(tool_description, name)
