"""Checks on one tool: its input schema, its name and the wording of its description."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for

from app.audit.models import Tool, canonical_json
from app.audit.rules.registry import COUNT, PASS, REGEX_LIST, WORD_LIST, Anchor, Target, Verdict, register, search
from app.audit.rules.wording import description, first_sentence, first_verb, is_form_of, name_words
from app.audit.text import STOPWORDS, stem, words


@cache
def _meta_validator(cls: type[Validator]) -> Validator:
    """A validator of schemas of one dialect (built once: building it costs more than using it)."""
    return cls(cls.META_SCHEMA)


@register("input_schema_valid", Target.TOOL, details=("path", "error", "dialect"))
def input_schema_valid(tool: Tool, options: Mapping[str, Any]) -> Verdict:
    """The input schema is valid against the meta-schema its `$schema` names (default Draft 2020-12)."""
    problem = _schema_problem(canonical_json(tool.input_schema))
    if problem is None:
        return PASS
    path, error, dialect = problem
    return Verdict(False, {"path": path, "error": error, "dialect": dialect})


@lru_cache(maxsize=4096)
def _schema_problem(schema_json: str) -> tuple[str, str, str] | None:
    """(path, message, dialect) of the most relevant meta-schema error; cached because meta-validation is
    slow (milliseconds per schema) and a before/after audit sees most schemas twice."""
    schema = json.loads(schema_json)
    # A `$schema` that is no URI string names no dialect (jsonschema fails on it): check it as 2020-12, whose
    # meta-schema then reports the `$schema` itself.
    named = isinstance(schema.get("$schema"), str)
    try:
        cls = validator_for(schema, default=Draft202012Validator) if named else Draft202012Validator
    except ValueError:  # "http://[x" and the like
        cls = Draft202012Validator
    error = best_match(_meta_validator(cls).iter_errors(schema))
    if error is None:
        return None
    path = "/".join(str(p) for p in error.absolute_path) or "(root)"
    return path, error.message[:200], str(schema["$schema"]) if named else "draft 2020-12"


@register("input_schema_object", Target.TOOL, details=("found",))
def input_schema_object(tool: Tool, options: Mapping[str, Any]) -> Verdict:
    """The input schema's root says `type: object` (MCP and the model providers require it)."""
    found = tool.input_schema.get("type")
    if found == "object":
        return PASS
    return Verdict(False, {"found": "no type" if found is None else f"type {found!r}"})


@register(
    "name_pattern", Target.TOOL, options={"pattern": {"type": "string", "format": "regex"}}, required=("pattern",)
)
def name_pattern(tool: Tool, options: Mapping[str, Any]) -> Verdict:
    """The whole name matches `pattern` (case-sensitive)."""
    if re.fullmatch(options["pattern"], tool.name):
        return PASS
    return Verdict(False, anchor=Anchor.NAME)


@register("required_declared", Target.TOOL, details=("missing",))
def required_declared(tool: Tool, options: Mapping[str, Any]) -> Verdict | None:
    """Every name in `required` is a declared property. Not applicable without `required`."""
    required = tool.required
    if not required:
        return None
    missing = [r for r in required if r not in tool.properties]
    if not missing:
        return PASS
    return Verdict(False, {"missing": ", ".join(missing)})


@register("description_present", Target.TOOL)
def description_present(tool: Tool, options: Mapping[str, Any]) -> Verdict:
    return PASS if description(tool) else Verdict(False, anchor=Anchor.NAME)


@register(
    "description_states_action",
    Target.TOOL,
    options={"verbs": WORD_LIST},
    required=("verbs",),
)
def description_states_action(tool: Tool, options: Mapping[str, Any]) -> Verdict | None:
    """The first sentence has one of `verbs`, or opens with a word of the name (any inflection).

    Not applicable without a description.
    """
    text = description(tool)
    if not text:
        return None
    opening = words(first_sentence(text))
    if first_verb(opening, options["verbs"]) or first_verb(opening[:1], name_words(tool)):
        return PASS
    return Verdict(False, anchor=Anchor.DESCRIPTION)


@register(
    "description_agrees_with_name",
    Target.TOOL,
    options={"kinds": {"type": "object", "additionalProperties": WORD_LIST, "minProperties": 2}},
    required=("kinds",),
    details=("name_verb", "name_kind", "opening", "opening_kind"),
)
def description_agrees_with_name(tool: Tool, options: Mapping[str, Any]) -> Verdict | None:
    """The description does not open with a verb of another kind of action than the name's first verb, unless its
    first sentence also uses the name's verb. Not applicable without a description or without a verb in the name."""
    text = description(tool)
    kinds: Mapping[str, list[str]] = options["kinds"]
    named = next(((w, k) for w in name_words(tool) for k in sorted(kinds) if is_form_of(w, kinds[k])), None)
    if not text or named is None:
        return None
    opening_words = words(first_sentence(text))
    opening = opening_words[0] if opening_words else None
    found = next((k for k in sorted(kinds) if is_form_of(opening, kinds[k])), None)
    verb, kind = named
    if found is None or found == kind or first_verb(opening_words, [_base(verb, kinds[kind])]):
        return PASS
    details = {"name_verb": verb, "name_kind": kind, "opening": str(opening), "opening_kind": found}
    return Verdict(False, details, anchor=Anchor.DESCRIPTION)


def _base(word: str, verbs: list[str]) -> str:
    """The verb of `verbs` that `word` is a form of."""
    return next((v for v in verbs if is_form_of(word, [v])), word)


@register(
    "description_mentions",
    Target.TOOL,
    options={"patterns": REGEX_LIST, "output_schema_counts": {"type": "boolean"}},
    required=("patterns",),
)
def description_mentions(tool: Tool, options: Mapping[str, Any]) -> Verdict | None:
    """The description matches one of `patterns` (case-insensitive); optionally an outputSchema also passes."""
    text = description(tool)
    if not text:
        return None
    if options.get("output_schema_counts") and tool.output_schema:
        return PASS
    return PASS if search(options["patterns"], text) else Verdict(False, anchor=Anchor.DESCRIPTION)


@register(
    "description_max_length",
    Target.TOOL,
    options={"max_chars": {"type": "integer", "minimum": 1}},
    required=("max_chars",),
    details=("chars",),
)
def description_max_length(tool: Tool, options: Mapping[str, Any]) -> Verdict | None:
    text = description(tool)
    if not text:
        return None
    if len(text) <= options["max_chars"]:
        return PASS
    return Verdict(False, {"chars": str(len(text))}, anchor=Anchor.DESCRIPTION)


@register(
    "description_not_name_echo",
    Target.TOOL,
    options={"min_words": COUNT},
    required=("min_words",),
    details=("words",),
)
def description_not_name_echo(tool: Tool, options: Mapping[str, Any]) -> Verdict | None:
    """The description says more than the name: some content word beyond the name's, and `min_words` words."""
    text = description(tool)
    if not text:
        return None
    all_words = words(text)
    content = {stem(w) for w in all_words if w not in STOPWORDS and len(w) > 1}
    named = {stem(w) for w in name_words(tool)}
    if len(all_words) >= options["min_words"] and not content <= named:
        return PASS
    return Verdict(False, {"words": str(len(all_words))}, anchor=Anchor.DESCRIPTION)
