"""Shadowing: one tool's text steering how the model uses another tool ("whenever send_email is called, also
copy audit@…"), or running another tool down so the model avoids it ("the send_email tool is broken").

A reference is any name in the tool set, an identifier-shaped word (`send_email`, `sendEmail`, `mail.send`) or
"the X tool"; never the tool itself or one of its own parameters. Pointing at a sibling as the better choice
("use search_issues instead", "prefer this tool over X") is a boundary, which the quality rules ask for, and
is not matched: what is matched is an instruction attached to the other tool's use, or a claim about it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from app.audit.models import Tool
from app.audit.rules.checks_poison import DETAILS, Offense, details_of
from app.audit.rules.poison_text import Field, fields
from app.audit.rules.registry import REGEX_LIST, Failure, SetOutcome, Target, compiled, register

_IDENTIFIER = r"[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*"
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)")
PLACEHOLDER = "{tool}"
# "this tool", "any tool", "the other tool": not a reference to another tool by name.
_NOT_A_NAME = frozenset("this that the a an any other another each every same which what your our its one".split())


@lru_cache(maxsize=64)
def _reference(names: tuple[str, ...]) -> str:
    listed = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True) if len(n) >= 3)
    alternatives = f"{listed}|{_IDENTIFIER}|\\w+" if listed else f"{_IDENTIFIER}|\\w+"
    # A bare word counts only as "the X tool"; identifiers and listed names count on their own.
    return rf"(?:the\s+)?[`'\"]?(?P<ref>{alternatives})[`'\"]?(?P<suffix>\s+tool\b)?"


@lru_cache(maxsize=64)
def _patterns(templates: tuple[str, ...], reference: str) -> tuple[re.Pattern[str], ...]:
    """Each template on its own (they all name the group `ref`), case-insensitive like every rule pattern."""
    return tuple(re.compile(t.replace(PLACEHOLDER, reference), re.IGNORECASE) for t in templates)


def _offenses(field: Field, tool: Tool, *, names: frozenset[str], uses: Sequence[re.Pattern[str]],
              directives: re.Pattern[str], claims: Sequence[re.Pattern[str]]) -> list[Offense]:
    own = {tool.name, *tool.properties, *_NOT_A_NAME}
    out: list[Offense] = []
    for sentence in _SENTENCE.finditer(field.text):
        text, base = sentence.group(0), sentence.start()
        checks = [(p, True) for p in uses] + [(p, False) for p in claims]
        for pattern, needs_directive in checks:
            for m in pattern.finditer(text):
                ref = m.group("ref")
                named = ref in names or re.fullmatch(_IDENTIFIER, ref) or m.group("suffix")
                if ref in own or ref.lower() in _NOT_A_NAME or not named:
                    continue
                if needs_directive and not directives.search(text, m.end()):
                    continue
                out.append(Offense(base + m.start(), base + len(text.rstrip()), f"instructions about `{ref}`"))
    return out


@register(
    "shadowing",
    Target.TOOL_SET,
    options={"uses": REGEX_LIST, "directives": REGEX_LIST, "claims": REGEX_LIST},
    required=("uses", "directives", "claims"),
    details=DETAILS,
)
def shadowing(tools: Sequence[Tool], options: Mapping[str, Any]) -> SetOutcome:
    """One failure per field of a tool whose text attaches instructions to another tool's use, or disparages it.

    `uses` and `claims` are templates with `{tool}` standing for a reference to a tool; a `uses` match counts
    only with one of `directives` after it in the same sentence.
    """
    names = frozenset(t.name for t in tools)
    reference = _reference(tuple(sorted(names)))
    uses = _patterns(tuple(options["uses"]), reference)
    claims = _patterns(tuple(options["claims"]), reference)
    directives = compiled(tuple(options["directives"]))
    failures: list[Failure] = []
    for index, tool in enumerate(tools):
        for field in fields(tool):
            if field.kind == "name":
                continue
            found = _offenses(field, tool, names=names, uses=uses, directives=directives, claims=claims)
            if found:
                failures.append(Failure(tool=index, details=details_of(field, found), anchor=field.anchor,
                                        parameter=field.parameter))
    return SetOutcome(applicable=frozenset(range(len(tools))), failures=failures)
