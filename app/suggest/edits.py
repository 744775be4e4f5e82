"""Applying suggested description texts to definition files in place, and rendering them as unified diffs.

Only the changed string literal is rewritten, at the lines the loader (or source extraction) recorded;
the rest of the file keeps its bytes. JSON strings are re-encoded with JSON escaping (ASCII escapes kept
when the file used them); YAML scalars keep their style (plain, single- or double-quoted, literal or
folded block); Python, TypeScript and Go plain string literals keep their quote character. Anything else
(concatenations, template literals, triple-quoted strings) is skipped with the reason.
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

import yaml

from app.audit.models import LineRange
from app.suggest.models import Suggestion

_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_SOURCE_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`[^`]*`')
_DESCRIPTION_KEY = re.compile(r'"description"\s*:\s*$')
_PLAIN_UNSAFE = re.compile(r"^[\s\-?:,\[\]{}#&*!|>'\"%@`]|: |\s#|\s$|^$")


@dataclass(frozen=True, slots=True)
class Edit:
    """One replacement in a file: characters [start, end) become `text`."""

    suggestion: Suggestion
    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class LineEdit:
    """The same edit as whole lines: lines `start`..`end` (1-based, inclusive) become `lines`."""

    start: int
    end: int
    lines: list[str]


def locate(source: str, suggestion: Suggestion) -> Edit | str:
    """The edit that puts `suggestion.new` in place of the old string, or why it cannot be made."""
    if suggestion.old is None:
        return "the field has no text in the file yet (adding a key is not supported)"
    if suggestion.lines is None:
        return "no recorded location for this text"
    value = _keep_edges(suggestion.old, suggestion.new)
    syntax = suggestion.syntax
    if syntax == "json":
        return _locate_json(source, suggestion, value)
    if syntax == "yaml":
        return _locate_yaml(source, suggestion, value)
    if syntax in ("python", "typescript", "go"):
        return _locate_source(source, suggestion, value)
    return f"cannot edit {syntax} files"


def _keep_edges(old: str, new: str) -> str:
    """The new text with the old one's leading and trailing whitespace (a block scalar's final newline)."""
    lead = old[: len(old) - len(old.lstrip())]
    trail = old[len(old.rstrip()) :]
    return lead + new.strip() + trail


def _span(source: str, lines: LineRange) -> tuple[int, int]:
    starts = [0] + [m.end() for m in re.finditer("\n", source)]
    begin = starts[min(lines.start, len(starts)) - 1]
    end = starts[lines.end] if lines.end < len(starts) else len(source)
    return begin, end


def _locate_json(source: str, suggestion: Suggestion, value: str) -> Edit | str:
    begin, end = _span(source, suggestion.lines)  # type: ignore[arg-type]
    matches = [m for m in _JSON_STRING.finditer(source, begin, end) if _json_value(m.group(0)) == suggestion.old]
    if not matches:
        return "the old text was not found at the recorded lines (the file changed?)"
    # The value after a "description" key when the same text also stands elsewhere on these lines.
    keyed = [m for m in matches if _DESCRIPTION_KEY.search(source, max(0, m.start() - 40), m.start())]
    m = (keyed or matches)[-1]
    ascii_only = "\\u" in m.group(0)
    return Edit(suggestion, m.start(), m.end(), json.dumps(value, ensure_ascii=ascii_only))


def _json_value(literal: str) -> str | None:
    try:
        value = json.loads(literal)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def _locate_yaml(source: str, suggestion: Suggestion, value: str) -> Edit | str:
    try:
        root = yaml.compose(source, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        return f"the file no longer parses as YAML ({exc})"
    lines = suggestion.lines
    assert lines is not None
    found: list[yaml.ScalarNode] = []
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            stack.extend(v for _, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif (
            isinstance(node, yaml.ScalarNode)
            and node.value == suggestion.old
            and lines.start <= node.start_mark.line + 1 <= lines.end
        ):
            found.append(node)
    if not found:
        return "the old text was not found at the recorded lines (the file changed?)"
    node = min(found, key=lambda n: n.start_mark.index)
    start, end = node.start_mark.index, node.end_mark.index
    return Edit(suggestion, start, end, _yaml_scalar(source, node, value))


def _yaml_scalar(source: str, node: yaml.ScalarNode, value: str) -> str:
    style = node.style
    if style in ("|", ">"):
        header_end = source.index("\n", node.start_mark.index)
        header = source[node.start_mark.index : header_end]
        body = source[header_end + 1 : node.end_mark.index]
        first = next((ln for ln in body.splitlines() if ln.strip()), "  ")
        indent = first[: len(first) - len(first.lstrip())] or "  "
        text = value.rstrip("\n")
        paragraphs = text.split("\n") if style == "|" else [p.replace("\n", " ") for p in text.split("\n")]
        joiner = "\n" if style == "|" else "\n\n"
        content = joiner.join(paragraphs)
        out = "\n".join(indent + ln if ln else "" for ln in content.split("\n"))
        return f"{header}\n{out}\n"
    if style == "'" and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    if style is None and "\n" not in value and not _PLAIN_UNSAFE.search(value) and _plain_roundtrips(value):
        return value
    return json.dumps(value, ensure_ascii="\\u" in source[node.start_mark.index : node.end_mark.index])


def _plain_roundtrips(value: str) -> bool:
    try:
        return yaml.safe_load(f"k: {value}") == {"k": value}
    except yaml.YAMLError:
        return False


def _locate_source(source: str, suggestion: Suggestion, value: str) -> Edit | str:
    begin, end = _span(source, suggestion.lines)  # type: ignore[arg-type]
    hits = []
    for m in _SOURCE_STRING.finditer(source, begin, end):
        literal = m.group(0)
        if _source_value(literal, suggestion.syntax) == suggestion.old:
            hits.append(m)
    if len(hits) != 1:
        return "the text is not one plain string literal at the recorded lines (concatenated or templated)"
    m = hits[0]
    quote = m.group(0)[0]
    if quote == "`":
        if "`" in value or (suggestion.syntax == "typescript" and "${" in value):
            return "the new text cannot be written as the same raw string"
        return Edit(suggestion, m.start(), m.end(), f"`{value}`")
    encoded = json.dumps(value, ensure_ascii=False)
    if quote == "'":
        inner = encoded[1:-1].replace('\\"', '"').replace("'", "\\'")
        encoded = f"'{inner}'"
    return Edit(suggestion, m.start(), m.end(), encoded)


def _source_value(literal: str, syntax: str) -> str | None:
    if literal.startswith("`"):
        return None if syntax == "typescript" and "${" in literal else literal[1:-1]
    if syntax == "python":
        try:
            value = ast.literal_eval(literal)
        except (ValueError, SyntaxError):
            return None
        return value if isinstance(value, str) else None
    if literal.startswith("'"):
        literal = '"' + literal[1:-1].replace('\\"', '"').replace("\\'", "'").replace('"', '\\"') + '"'
    return _json_value(literal)


def apply_edits(source: str, edits: Sequence[Edit]) -> str:
    """All edits applied (they must not overlap); the last in the file first so offsets stay valid."""
    out = source
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        out = out[: edit.start] + edit.text + out[edit.end :]
    return out


def line_edit(source: str, edit: Edit) -> LineEdit:
    """The whole lines `edit` touches and what they become (a GitHub suggestion block replaces lines)."""
    line_start = source.rfind("\n", 0, edit.start) + 1
    last = max(edit.start, edit.end - 1)
    newline = source.find("\n", last)
    line_end = len(source) if newline < 0 else newline
    if edit.end > edit.start and source[edit.end - 1] == "\n":
        line_end = edit.end - 1
    replacement = source[line_start : edit.start] + edit.text + source[edit.end : line_end]
    if replacement.endswith("\n") and edit.text.endswith("\n"):
        replacement = replacement[:-1]
    return LineEdit(
        start=source.count("\n", 0, line_start) + 1,
        end=source.count("\n", 0, line_end) + 1 if line_end > line_start else source.count("\n", 0, line_start) + 1,
        lines=replacement.split("\n"),
    )


def unified_diff(name: str, before: str, after: str) -> str:
    """A unified diff of one file, `a/` and `b/` prefixed like git's."""
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=f"a/{name}", tofile=f"b/{name}"
        )
    )
