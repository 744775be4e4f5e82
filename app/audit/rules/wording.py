"""Small wording helpers for checks: verb forms (lemminflect's), first sentence, name words, schema lookups."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from app.audit.models import Tool
from app.audit.suite.kept_forms import kept
from app.audit.text import split_identifier, words

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*[-*#])")


@lru_cache(maxsize=64)
def verb_forms(verbs: tuple[str, ...]) -> frozenset[str]:
    """Every form of base verbs, as lemminflect inflects them: delete -> delete, deletes, deleted, deleting;
    stop -> stopped, stopping; run -> ran; a verb it does not know by its spelling rules (upsert -> upserted)."""
    return frozenset(form for verb in verbs for form in kept("verb forms", _verb_forms, verb.lower()))


# The tags of a verb's forms: base, third person, past, participle, gerund.
_VERB_TAGS = ("VB", "VBZ", "VBD", "VBN", "VBG")


def _verb_forms(verb: str) -> list[str]:
    # Imported here, only for a verb not kept from an earlier run (app/audit/suite/kept_forms.py).
    from lemminflect import getInflection

    return sorted({verb, *(form for tag in _VERB_TAGS for form in getInflection(verb, tag))})


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
