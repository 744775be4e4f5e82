"""Checks on one top-level parameter of a tool: description, name, type, enum members, value formats."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from app.audit.models import Tool
from app.audit.rules.registry import COUNT, PASS, RATIO, REGEX_LIST, WORD_LIST, Anchor, Target, Verdict, register
from app.audit.rules.registry import search as matches
from app.audit.rules.wording import resolve_ref
from app.audit.text import has_token, split_identifier, words

# Keys that declare what a value may be, besides `type`.
TYPE_KEYS = ("type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref")
# Keys that pin a value's format without words.
FORMAT_KEYS = ("format", "pattern", "examples", "enum", "const")


def _description(tool: Tool, schema: Mapping[str, Any]) -> str:
    text = resolve_ref(tool, schema).get("description")
    return text.strip() if isinstance(text, str) else ""


@register("parameter_described", Target.PARAMETER)
def parameter_described(tool: Tool, name: str, schema: Mapping[str, Any], options: Mapping[str, Any]) -> Verdict:
    return PASS if _description(tool, schema) else Verdict(False, anchor=Anchor.PARAMETER)


@register(
    "parameter_name_specific", Target.PARAMETER, options={"generic_names": WORD_LIST}, required=("generic_names",)
)
def parameter_name_specific(
    tool: Tool, name: str, schema: Mapping[str, Any], options: Mapping[str, Any]
) -> Verdict:
    """The name, lower-cased with separators removed, is not one of `generic_names`."""
    flat = re.sub(r"[^a-z0-9]", "", name.lower())
    generic = {re.sub(r"[^a-z0-9]", "", g.lower()) for g in options["generic_names"]}
    return Verdict(False, anchor=Anchor.PARAMETER) if flat in generic else PASS


@register("parameter_typed", Target.PARAMETER)
def parameter_typed(tool: Tool, name: str, schema: Mapping[str, Any], options: Mapping[str, Any]) -> Verdict:
    return PASS if any(k in schema for k in TYPE_KEYS) else Verdict(False, anchor=Anchor.PARAMETER)


def _enum(schema: Mapping[str, Any]) -> list[Any] | None:
    if isinstance(schema.get("enum"), list):
        return list(schema["enum"])
    items = schema.get("items")
    if isinstance(items, dict) and isinstance(items.get("enum"), list):
        return list(items["enum"])
    return None


def _self_explanatory(member: Any) -> bool:
    """A string member made of real words ('created_at', 'desc'), not a code ('a', '3', 'X1')."""
    return isinstance(member, str) and any(len(w) >= 2 and w.isalpha() for w in split_identifier(member))


def _mentioned(member: Any, text_words: set[str], text: str) -> bool:
    """The member appears in the text as a whole token ('P1', '+1', 'created_at'), or all its words do."""
    member_text = str(member).lower()
    if has_token(text, member_text):
        return True
    parts = split_identifier(str(member))
    return bool(parts) and all(p in text_words for p in parts)


@register(
    "enum_documented",
    Target.PARAMETER,
    options={"max_plain_members": COUNT, "min_mentioned_share": RATIO},
    required=("max_plain_members", "min_mentioned_share"),
    details=("count",),
)
def enum_documented(tool: Tool, name: str, schema: Mapping[str, Any], options: Mapping[str, Any]) -> Verdict | None:
    """An enum passes with few self-explanatory members, or when the description names enough of them."""
    resolved = resolve_ref(tool, schema)
    members = _enum(resolved)
    if not members:
        return None
    if len(members) <= options["max_plain_members"] and all(_self_explanatory(m) for m in members):
        return PASS
    text = _description(tool, schema).lower()
    text_words = set(words(text))
    mentioned = sum(1 for m in members if _mentioned(m, text_words, text))
    if mentioned >= options["min_mentioned_share"] * len(members):
        return PASS
    return Verdict(False, {"count": str(len(members))}, anchor=Anchor.PARAMETER)


KIND_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name_words"],
    "properties": {
        "name_words": WORD_LIST,
        "exclude_name_words": WORD_LIST,
        "description_patterns": REGEX_LIST,
        # Types whose values need no further format (an integer id is just a number).
        "exempt_types": {"type": "array", "items": {"type": "string"}},
    },
}


def _types(schema: Mapping[str, Any]) -> set[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared}
    return {t for t in declared if isinstance(t, str)} if isinstance(declared, list) else set()


def _has_format_keys(schema: Mapping[str, Any]) -> bool:
    items = schema.get("items")
    return any(k in schema for k in FORMAT_KEYS) or (isinstance(items, dict) and any(k in items for k in FORMAT_KEYS))


@register(
    "format_documented",
    Target.PARAMETER,
    options={
        "kinds": {"type": "object", "additionalProperties": KIND_SCHEMA, "minProperties": 1},
        "hints": REGEX_LIST,
    },
    required=("kinds", "hints"),
    details=("kind",),
)
def format_documented(tool: Tool, name: str, schema: Mapping[str, Any], options: Mapping[str, Any]) -> Verdict | None:
    """A parameter that looks like an id, date, URL, email or path states its format (in words or keys)."""
    resolved = resolve_ref(tool, schema)
    text = _description(tool, schema)
    name_parts = set(split_identifier(name))
    types = _types(resolved)
    kind = None
    for candidate, spec in sorted(options["kinds"].items()):
        exempt = set(spec.get("exempt_types", []))
        if (types and types <= exempt) or name_parts & {w.lower() for w in spec.get("exclude_name_words", [])}:
            continue
        by_name = name_parts & {w.lower() for w in spec["name_words"]}
        by_text = bool(text) and bool(spec.get("description_patterns")) and matches(spec["description_patterns"], text)
        if by_name or by_text:
            kind = candidate
            break
    if kind is None:
        return None
    if _has_format_keys(resolved) or (text and matches(options["hints"], text)):
        return PASS
    return Verdict(False, {"kind": kind}, anchor=Anchor.PARAMETER)
