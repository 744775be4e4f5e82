"""Strict reading of a model's JSON answer: exact JSON, checked against the profile's answer schema."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from app.audit.models import NO_TOOL, canonical_json
from app.audit.results import Selection
from app.llm.tools import FunctionTools

# Shown to the user when an answer is unusable; long raw answers stay in `raw`, not in the message.
_ERROR_CHARS = 200


class AnswerError(ValueError):
    """An answer that is not exactly one JSON object satisfying the schema (a failed run, not a crash)."""


@cache
def _validator(schema_json: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_json))


def parse_json_answer(content: str | None, schema: dict[str, Any]) -> dict[str, Any]:
    """The answer as a dict, or AnswerError saying why not. No repair: fences or prose fail."""
    if content is None or not content.strip():
        raise AnswerError("empty answer")
    try:
        value = json.loads(content)
    except json.JSONDecodeError as exc:
        raise AnswerError(f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from exc
    errors = sorted(_validator(canonical_json(schema)).iter_errors(value), key=lambda e: [str(p) for p in e.path])
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.path) or "(top)"
        raise AnswerError(f"off-schema at {where}: {first.message}"[:_ERROR_CHARS])
    assert isinstance(value, dict)  # the schema's type is object
    return value


def selection_from_answer(
    content: str | None,
    *,
    schema: dict[str, Any],
    mapping: FunctionTools,
    usage: dict[str, Any],
    finish_reason: str | None = None,
    tool_calls: list[dict[str, Any]] | None = None,
) -> Selection:
    """A Selection from the answer text; an unusable answer becomes a failed run with its raw text."""
    raw = content
    if tool_calls and not (content or "").strip():
        raw = canonical_json({"tool_calls": tool_calls})
        return Selection(tool="", raw=raw, usage=usage, error="answered with a tool call instead of the JSON answer")
    try:
        value = parse_json_answer(content, schema)
    except AnswerError as exc:
        why = str(exc)
        if finish_reason == "length":
            why = f"{why} (the answer was cut at max_tokens)"
        elif finish_reason == "content_filter":
            why = f"{why} (the endpoint's content filter stopped the answer)"
        return Selection(tool="", raw=raw, usage=usage, error=why)
    name, arguments = value.get("tool"), value.get("arguments", {})
    if not isinstance(name, str) or not name or not isinstance(arguments, dict):
        return Selection(tool="", raw=raw, usage=usage, error="the answer names no tool or has no argument object")
    tool = NO_TOOL if name == NO_TOOL else mapping.original(name)
    confidence = value.get("confidence", 0.0)
    return Selection(
        tool=tool,
        arguments=arguments if tool != NO_TOOL else {},
        confidence=float(confidence) if isinstance(confidence, int | float) else 0.0,
        reason=str(value.get("reason", "")),
        raw=raw,
        usage=usage,
    )
