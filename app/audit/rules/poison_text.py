"""The text of a tool that reaches the model, field by field, and a short, safe display of an offending span.

Security rules (TC5xx) read every string a client passes to the model: the tool's name, title and description,
every string of its annotations (`title`, `description`, any other key, at any depth), and in the input schema
every description, title, enum value, const, default and example, every string under a key that is not JSON
Schema's own structure (`x-hint`, `$comment`, `markdownDescription`...), at any depth and through every
sub-schema keyword, plus property names. Each string is a `Field` that knows where it sits, so a finding says
"description of parameter `notes`" and points at that parameter's lines. Names are identifiers; `prose` reads
them as words (`always_call_me_first` -> "always call me first") for the rules that look for sentences.

`show()` renders an offending span for a person: invisible characters become `<U+200B>`, Unicode tag runs
show the ASCII they hide, long whitespace runs become `<120 spaces>`, line breaks `⏎`, and long key-like
tokens are masked so an excerpt never carries a secret (truncating one could slip past the redactor).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from app.audit.models import Tool
from app.audit.rules.registry import Anchor
from app.audit.text import split_identifier

# Schema keys whose string values (or strings inside them) the model reads as text.
TEXT_KEYS = ("description", "title", "enum", "const", "default", "examples", "example")
# Schema keys that hold sub-schemas: one (or, for items, a list), a list of them, or a name -> schema map.
SUB_SCHEMA = ("items", "additionalProperties", "not", "contains", "if", "then", "else", "propertyNames",
              "unevaluatedProperties", "unevaluatedItems", "contentSchema")
SUB_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
SUB_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")
# JSON Schema's own keys whose strings are structure (types, formats, regexes, references, property names),
# not prose. The strings of any other key (an extension such as `x-hint`, `$comment`, `errorMessage`) reach
# the model like a description and are read as text, kind "annotation".
STRUCTURE_KEYS = frozenset((
    "type", "format", "pattern", "$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor",
    "$vocabulary", "required", "dependentRequired", "contentEncoding", "contentMediaType",
))
# Excerpt budget: characters of context each side of a span, and of the span itself.
CONTEXT_CHARS = 40
SPAN_CHARS = 90
# A run of key-like characters this long, with letters and digits, is masked in excerpts.
_TOKEN = re.compile(r"[A-Za-z0-9+/=_.~-]{20,}")
_WHITESPACE_RUN = re.compile(r"[^\S\n]{4,}|\n(?:[^\S\n]*\n){2,}")


@dataclass(frozen=True)
class Field:
    """One model-visible string of a tool. `parameter` is the top-level parameter it belongs to, if any."""

    text: str
    where: str  # "description", "enum value of parameter `mode`", "annotation `description`" ...
    kind: str  # description | title | name | enum | const | default | example | annotation
    parameter: str | None = None
    # The innermost property the string belongs to (`cfg` for `options.cfg`); None outside any property.
    prop: str | None = None

    @property
    def anchor(self) -> Anchor:
        if self.parameter is not None:
            return Anchor.PARAMETER
        if self.kind == "name":
            return Anchor.NAME
        return Anchor.DESCRIPTION if self.kind == "description" else Anchor.TOOL

    @property
    def prose(self) -> str:
        """The text as words: a name split into its words (`list_secrets` -> "list secrets"), other text as is."""
        return " ".join(split_identifier(self.text)) if self.kind == "name" else self.text


@dataclass(frozen=True)
class Offense:
    """One offending span of a field's text, with what it is."""

    start: int
    end: int
    label: str
    evidence: str | None = None  # shown instead of the excerpt (encoded payloads show what they decode to)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)


_KIND = {"enum": "enum", "const": "const", "default": "default", "examples": "example", "example": "example"}


def _where(kind: str, owner: str) -> str:
    """'description of parameter `mode`', 'enum value of parameter `filter.state`', 'input schema title'."""
    word = kind if kind in ("description", "title", "name") else f"{kind} value"
    return f"{word} of {owner}" if owner else f"input schema {word}"


def _extension_where(key: str, owner: str) -> str:
    """'`x-hint` of parameter `mode`', 'input schema `$comment`'."""
    return f"`{_shown(key)}` of {owner}" if owner else f"input schema `{_shown(key)}`"


def _shown(name: str) -> str:
    return name if name.isascii() and name.isprintable() else show(name, limit=60)


_SUB_SCHEMA_KEYS = frozenset(SUB_SCHEMA + SUB_SCHEMA_LISTS + SUB_SCHEMA_MAPS)


def _schema_fields(schema: Any, *, owner: str, parameter: str | None, prop: str | None = None,
                   depth: int = 0) -> Iterator[Field]:
    """Strings of `schema`; `owner` names what they describe ("parameter `filter.state`"), "" at the root."""
    if isinstance(schema, list) and depth > 0:  # `items` as a list of schemas (older drafts)
        for item in schema:
            yield from _schema_fields(item, owner=owner, parameter=parameter, prop=prop, depth=depth + 1)
        return
    if not isinstance(schema, dict) or depth > 12:
        return
    for key in TEXT_KEYS:
        if key not in schema:
            continue
        kind = _KIND.get(key, key)
        for text in _strings(schema[key]):
            yield Field(text, _where(kind, owner), kind, parameter, prop)
    for key, value in schema.items():
        if key in TEXT_KEYS or key in _SUB_SCHEMA_KEYS or key in STRUCTURE_KEYS:
            continue
        for text in _strings(value):
            yield Field(text, _extension_where(str(key), owner), "annotation", parameter, prop)
    for key in SUB_SCHEMA:
        yield from _schema_fields(schema.get(key), owner=owner, parameter=parameter, prop=prop, depth=depth + 1)
    for key in SUB_SCHEMA_LISTS:
        items = schema.get(key)
        for item in items if isinstance(items, list) else ():
            yield from _schema_fields(item, owner=owner, parameter=parameter, prop=prop, depth=depth + 1)
    for key in SUB_SCHEMA_MAPS:
        children = schema.get(key)
        if not isinstance(children, dict):
            continue
        for name, child in children.items():
            if key == "dependencies" and not isinstance(child, dict):
                continue  # a list of required property names, not a schema
            if depth == 0 and key == "properties":
                top, child_owner = str(name), f"parameter `{_shown(str(name))}`"
            elif depth == 0:
                top, child_owner = None, f"schema `{_shown(str(name))}`"
            else:
                top, child_owner = parameter, f"{owner[:-1]}.{_shown(str(name))}`" if owner else f"`{name}`"
            child_prop = str(name) if key in ("properties", "patternProperties") else prop
            yield Field(str(name), _where("name", child_owner), "name", top, child_prop)
            yield from _schema_fields(child, owner=child_owner, parameter=top, prop=child_prop, depth=depth + 1)


def _annotation_fields(value: Any, path: str) -> Iterator[Field]:
    """Every string of the annotations, at any depth: `title` is the tool's title shown to people, any other
    string (`description`, a vendor's hint) is text like a description."""
    if isinstance(value, str):
        if path == "title":
            yield Field(value, "annotations title", "title")
        else:
            yield Field(value, f"annotation `{_shown(path)}`", "annotation")
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _annotation_fields(item, path)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _annotation_fields(item, f"{path}.{key}" if path else str(key))


# fields() memo: id(tool) -> (the tool, kept so the id is not reused; a fingerprint of its text; its fields).
_MEMO: dict[int, tuple[Tool, str, tuple[Field, ...]]] = {}
_MEMO_SIZE = 4096


def fields(tool: Tool) -> tuple[Field, ...]:
    """Every model-visible string of `tool`, in a stable order. Five rules read them, so they are kept per tool
    object while its text is unchanged (a repr fingerprint costs a fifth of walking the schema again)."""
    fingerprint = repr((tool.name, tool.title, tool.description, tool.annotations, tool.input_schema))
    memo = _MEMO.get(id(tool))
    if memo is not None and memo[0] is tool and memo[1] == fingerprint:
        return memo[2]
    out = [Field(tool.name, "name", "name")]
    if tool.title:
        out.append(Field(tool.title, "title", "title"))
    if tool.description:
        out.append(Field(tool.description, "description", "description"))
    annotations = tool.annotations if isinstance(tool.annotations, dict) else {}
    out.extend(_annotation_fields(annotations, ""))
    out.extend(_schema_fields(tool.input_schema, owner="", parameter=None))
    if len(_MEMO) >= _MEMO_SIZE:
        _MEMO.clear()
    _MEMO[id(tool)] = (tool, fingerprint, tuple(out))
    return _MEMO[id(tool)][2]


def purpose_words(tool: Tool) -> frozenset[str]:
    """Words of the tool's name and title: what the tool says it is for (exemptions are read against these)."""
    return frozenset(split_identifier(tool.name) + split_identifier(tool.title or ""))


def related(tool: Tool, words: Sequence[str]) -> bool:
    """Whether the tool's name or title has one of `words` (prefix match: 'auth' covers 'authenticate')."""
    own = purpose_words(tool)
    return any(w.startswith(p) for w in own for p in words)


# --- display -------------------------------------------------------------------------------------------

TAG_START, TAG_END = 0xE0000, 0xE007F


def _codepoint(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def _visible_char_run(run: str) -> str:
    first = run[0]
    if TAG_START <= ord(first) <= TAG_END:
        hidden = "".join(chr(ord(c) - TAG_START) for c in run if 0x20 <= ord(c) - TAG_START < 0x7F)
        return f'<{len(run)} tag characters "{_clip(hidden, 60)}">' if hidden else f"<{_codepoint(first)}>"
    if len(run) > 2 and len(set(run)) == 1:
        return f"<{_codepoint(first)} ×{len(run)}>"
    return "".join(f"<{_codepoint(c)}>" for c in run)


def invisible(ch: str) -> bool:
    """A character a person does not see: format and control characters (but tab and line breaks), line and
    paragraph separators, variation selectors, Hangul and Khmer fillers, the blank Braille pattern."""
    if ch in "\t\n\r":
        return False
    cat = unicodedata.category(ch)
    o = ord(ch)
    return cat in ("Cf", "Cc", "Zl", "Zp") or 0xFE00 <= o <= 0xFE0F or 0xE0100 <= o <= 0xE01EF or o in (
        0x115F, 0x1160, 0x3164, 0xFFA0, 0x034F, 0x180E, 0x17B4, 0x17B5, 0x2800)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _mask(match: re.Match[str]) -> str:
    token = match.group(0)
    has_digit = any(c.isdigit() for c in token)
    mixed = any(c.isupper() for c in token) and any(c.islower() for c in token)
    if has_digit and (mixed or len(token) >= 32):
        return f"<{len(token)}-character token>"
    return token


def show(text: str, *, limit: int = SPAN_CHARS) -> str:
    """`text` for a person: invisible characters named, whitespace runs counted, tokens masked, clipped."""
    out: list[str] = []
    i = 0
    plain: list[str] = []

    def flush() -> None:
        if plain:
            out.append(_TOKEN.sub(_mask, "".join(plain)))
            plain.clear()

    while i < len(text):
        ch = text[i]
        if invisible(ch):
            j = i + 1
            tag = TAG_START <= ord(ch) <= TAG_END
            while j < len(text) and invisible(text[j]) and (TAG_START <= ord(text[j]) <= TAG_END) == tag:
                j += 1
            flush()
            out.append(_visible_char_run(text[i:j]))
            i = j
            continue
        ws = _WHITESPACE_RUN.match(text, i)
        if ws:
            flush()
            run = ws.group(0)
            breaks = run.count("\n")
            out.append(f"<{breaks} line breaks>" if breaks >= 3 else f"<{len(run)} spaces>")
            i = ws.end()
            continue
        plain.append("⏎" if ch == "\n" else " " if ch in "\t\r" else ch)
        i += 1
    flush()
    return _clip("".join(out), limit)


def excerpt(text: str, start: int, end: int) -> str:
    """The span `text[start:end]` with a little context each side, shown safely.

    The context is widened to whole words before it is shown, so a key next to the span is masked whole
    rather than cut in two with its first half quoted; only then is it clipped to CONTEXT_CHARS.
    """
    left_at = max(0, start - CONTEXT_CHARS)
    while left_at > 0 and not text[left_at - 1].isspace():
        left_at -= 1
    right_at = min(len(text), end + CONTEXT_CHARS)
    while right_at < len(text) and not text[right_at].isspace():
        right_at += 1
    left = show(text[left_at:start], limit=len(text))
    right = show(text[end:right_at], limit=len(text))
    if len(left) > CONTEXT_CHARS:
        left, left_at = left[-CONTEXT_CHARS:].split(" ", 1)[-1], left_at + 1
    if len(right) > CONTEXT_CHARS:
        right, right_at = right[:CONTEXT_CHARS].rsplit(" ", 1)[0], right_at - 1
    before = "…" if left_at > 0 else ""
    after = "…" if right_at < len(text) else ""
    return f"{before}{left}{show(text[start:end])}{right}{after}"
