"""The check functions rules may name: their targets, option schemas and the verdicts they return."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any

from app.audit.models import Tool


class Target(StrEnum):
    TOOL = "tool"
    PARAMETER = "parameter"
    TOOL_PAIR = "tool_pair"
    TOOL_SET = "tool_set"


class Anchor(StrEnum):
    """Which lines of the tool's source a finding points at (falls back to the whole tool)."""

    TOOL = "tool"
    NAME = "name"
    DESCRIPTION = "description"
    PARAMETER = "parameter"


@dataclass(frozen=True)
class Verdict:
    """Result of one check on one applicable target; `details` fill the rule's message placeholders.

    A tool check that inspects a parameter's text may name it in `parameter`: the finding then points at it.
    """

    passed: bool
    details: Mapping[str, str] = field(default_factory=dict)
    anchor: Anchor = Anchor.TOOL
    parameter: str | None = None


PASS = Verdict(True)


@dataclass(frozen=True)
class Failure:
    """A failing target of a tool_pair / tool_set check: tool indexes into the tool list given to it."""

    tool: int
    other_tool: int | None = None
    details: Mapping[str, str] = field(default_factory=dict)
    anchor: Anchor = Anchor.TOOL
    parameter: str | None = None


@dataclass(frozen=True)
class SetOutcome:
    """Result of a tool_pair / tool_set check: the tools it applies to and the failures among them."""

    applicable: frozenset[int]
    failures: Sequence[Failure]


# A tool check may return several failing verdicts (one per offending field): each becomes a finding.
ToolCheck = Callable[[Tool, Mapping[str, Any]], Verdict | Sequence[Verdict] | None]
ParameterCheck = Callable[[Tool, str, Mapping[str, Any], Mapping[str, Any]], Verdict | None]
SetCheck = Callable[[Sequence[Tool], Mapping[str, Any]], SetOutcome]


@dataclass(frozen=True)
class Check:
    """A registered check: `None` from a tool or parameter check means "not applicable"; a tool check may
    return a list of verdicts (one result each)."""

    name: str
    target: Target
    func: Callable[..., Any]
    # JSON Schema of the options (additionalProperties false); regexes use "format": "regex".
    options_schema: Mapping[str, Any]
    # Placeholders the check fills in messages, besides tool, parameter, other_tool and the options.
    details: frozenset[str]


CHECKS: dict[str, Check] = {}


def register(
    name: str,
    target: Target,
    *,
    options: Mapping[str, Any] | None = None,
    required: Sequence[str] = (),
    details: Sequence[str] = (),
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: make a check function available to rules as `then.function: <name>`."""
    schema = {"type": "object", "additionalProperties": False, "properties": dict(options or {})}
    if required:
        schema["required"] = list(required)

    def add(func: Callable[..., Any]) -> Callable[..., Any]:
        if name in CHECKS:
            raise ValueError(f"check {name!r} is registered twice")
        CHECKS[name] = Check(name, target, func, schema, frozenset(details))
        return func

    return add


# Option schemas shared by several checks.
REGEX_LIST = {"type": "array", "items": {"type": "string", "format": "regex"}, "minItems": 1}
WORD_LIST = {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1}
RATIO = {"type": "number", "minimum": 0, "maximum": 1}
COUNT = {"type": "integer", "minimum": 0}


@lru_cache(maxsize=256)
def compiled(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One case-insensitive alternation of `patterns` (cached: rules are evaluated many times)."""
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


def search(patterns: Sequence[str], text: str) -> re.Match[str] | None:
    return compiled(tuple(patterns)).search(text)
