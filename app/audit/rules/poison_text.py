"""The text of a tool that reaches the model, field by field, each knowing where it sits.

Security rules (TC5xx) read every string a client passes to the model: the tool's name, title and description,
every string of its annotations (`title`, `description`, any other key, at any depth), and in the input schema
every description, title, enum value, const, default and example, every string under a key that is not JSON
Schema's own structure (`x-hint`, `$comment`, `markdownDescription`...), at any depth and through every
sub-schema keyword, plus property names. Each string is a `Field` that knows where it sits, so a finding says
"description of parameter `notes`" and points at that parameter's lines. Names are identifiers; `prose` reads
them as words (`always_call_me_first` -> "always call me first") for the rules that look for sentences.

How an offending span is shown to a person is in app/audit/rules/excerpts.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from app.audit.models import Tool
from app.audit.rules.excerpts import show
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
