"""Small wording helpers for checks: verb forms, first sentence, name words, schema lookups."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from app.audit.models import Tool
from app.audit.text import split_identifier, words

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*[-*#])")


@lru_cache(maxsize=64)
def verb_forms(verbs: tuple[str, ...]) -> frozenset[str]:
    """Inflections of base verbs: delete -> delete, deletes, deleted, deleting; stop -> stopped, stopping."""
    forms: set[str] = set()
    for verb in verbs:
        v = verb.lower()
        forms.update({v, v + "s", v + "es", v + "ed", v + "ing"})
        if v.endswith("e"):
            forms.update({v + "d", v[:-1] + "ing"})
        if v.endswith("y") and len(v) > 2 and v[-2] not in "aeiou":
            forms.update({v[:-1] + "ies", v[:-1] + "ied"})
        if len(v) >= 3 and v[-1] not in "aeiouwxy" and v[-2] in "aeiou" and v[-3] not in "aeiou":
            forms.update({v + v[-1] + "ed", v + v[-1] + "ing"})
    return frozenset(forms)


def first_verb(text_words: Iterable[str], verbs: Iterable[str]) -> str | None:
    """The first word that is a form of one of `verbs`."""
    forms = verb_forms(tuple(verbs))
    return next((w for w in text_words if w in forms), None)


def leading_verb(text_words: Iterable[str], *verb_lists: Iterable[str]) -> str | None:
    """The first word that is a form of a verb in any of `verb_lists`: it decides what the text does.

    `get_commit` -> 'get' (so 'commit' is read as a noun); `jira_delete_issue` -> 'delete'.
    """
    forms = verb_forms(tuple(v for verbs in verb_lists for v in verbs))
    return next((w for w in text_words if w in forms), None)


def is_form_of(word: str | None, verbs: Iterable[str]) -> bool:
    return word is not None and word in verb_forms(tuple(verbs))


def first_sentence(text: str) -> str:
    stripped = text.strip()
    return _SENTENCE_END.split(stripped, maxsplit=1)[0] if stripped else ""


def description(tool: Tool) -> str:
    return (tool.description or "").strip()


def name_words(tool: Tool) -> list[str]:
    return split_identifier(tool.name)


def leading_words(text: str, count: int) -> list[str]:
    return words(first_sentence(text))[:count]


def resolve_ref(tool: Tool, schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """A local `$ref` (#/$defs/X or #/definitions/X) merged under the schema's own keys; else the schema."""
    ref = schema.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return schema
    node: Any = tool.input_schema
    for part in ref[2:].split("/"):
        node = node.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(node, dict) else None
    return {**node, **schema} if isinstance(node, dict) else schema


def annotation(tool: Tool, key: str) -> Any:
    return tool.annotations.get(key) if isinstance(tool.annotations, dict) else None
