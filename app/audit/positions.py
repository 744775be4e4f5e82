"""Line ranges of every value in a JSON or YAML document, keyed by JSON-pointer-like paths."""

from __future__ import annotations

import json
import re
from json.decoder import scanstring  # type: ignore[attr-defined]

import yaml

from app.audit.models import LineRange

Path = tuple[str | int, ...]

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_WS = re.compile(r"[ \t\n\r]*")


class _JsonScanner:
    """Walks JSON text that json.loads already accepted and records each value's line range."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.ranges: dict[Path, LineRange] = {}
        # Offsets of line starts, to turn character offsets into 1-based line numbers.
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(self, offset: int) -> int:
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def skip_ws(self, pos: int) -> int:
        m = _WS.match(self.text, pos)
        return m.end() if m else pos

    def value(self, pos: int, path: Path) -> int:
        pos = self.skip_ws(pos)
        start = pos
        ch = self.text[pos]
        if ch == "{":
            pos = self.skip_ws(pos + 1)
            if self.text[pos] == "}":
                pos += 1
            else:
                while True:
                    pos = self.skip_ws(pos)
                    key, pos = scanstring(self.text, pos + 1)
                    pos = self.skip_ws(pos)
                    pos = self.value(pos + 1, (*path, key))  # skip ':'
                    pos = self.skip_ws(pos)
                    if self.text[pos] == ",":
                        pos += 1
                        continue
                    pos += 1  # '}'
                    break
        elif ch == "[":
            pos = self.skip_ws(pos + 1)
            index = 0
            if self.text[pos] == "]":
                pos += 1
            else:
                while True:
                    pos = self.value(pos, (*path, index))
                    index += 1
                    pos = self.skip_ws(pos)
                    if self.text[pos] == ",":
                        pos += 1
                        continue
                    pos += 1  # ']'
                    break
        elif ch == '"':
            _, pos = scanstring(self.text, pos + 1)
        elif self.text.startswith(("true", "null"), pos):
            pos += 4
        elif self.text.startswith("false", pos):
            pos += 5
        else:
            m = _NUMBER.match(self.text, pos)
            pos = m.end() if m else pos + 1
        self.ranges[path] = LineRange(start=self.line_of(start), end=self.line_of(max(start, pos - 1)))
        return pos


def json_ranges(text: str) -> dict[Path, LineRange]:
    """Line ranges of the values of a JSON document (the text must already parse with json.loads)."""
    scanner = _JsonScanner(text)
    if text.strip():
        scanner.value(0, ())
    return scanner.ranges


def yaml_ranges(text: str) -> dict[Path, LineRange]:
    """Line ranges of the values of a YAML document, from the composed node tree's marks."""
    return yaml_node_ranges(yaml.compose(text, Loader=yaml.SafeLoader))


def yaml_node_ranges(root: yaml.Node | None) -> dict[Path, LineRange]:
    """Line ranges of the values under a composed YAML node (aliases are walked once per use)."""
    ranges: dict[Path, LineRange] = {}

    def walk(node: yaml.Node, path: Path) -> None:
        start = node.start_mark.line + 1
        end_mark = node.end_mark
        # A block scalar or collection ends at column 0 of the following line.
        end = end_mark.line if end_mark.column == 0 and end_mark.line + 1 > start else end_mark.line + 1
        ranges[path] = LineRange(start=start, end=max(start, end))
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                walk(value_node, (*path, str(key_node.value)))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                walk(item, (*path, i))

    if root is not None:
        walk(root, ())
    return ranges


def is_json_text(text: str) -> bool:
    stripped = text.lstrip()
    return stripped.startswith(("{", "["))


def json_error_line(exc: json.JSONDecodeError) -> int:
    return exc.lineno
