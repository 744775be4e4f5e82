"""Building the frozen test suite: user cases, generated intents and negatives, validated, hashed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from app.audit.models import Case, Suite, ToolSet
from app.audit.suite.intents import TemplateCaseGenerator
from app.audit.suite.validate import MIN_CONFIDENCE, CaseValidator


class CaseGenerator(Protocol):
    """Writes cases for a tool set: positives per tool, and negatives when asked."""

    def generate(self, toolset: ToolSet, *, per_tool: int, negatives: bool) -> list[Case]: ...


def build_suite(
    toolsets: Sequence[ToolSet],
    *,
    user_cases: Sequence[Case] = (),
    intents_per_tool: int = 5,
    negatives: bool = True,
    generator: CaseGenerator | None = None,
) -> Suite:
    """One frozen suite for all sides of an audit (base and head together).

    User cases are kept as given. Generated cases come from every side's own text (a tool whose
    description changed gets intents from both versions, so neither side writes the exam alone);
    identical intents are merged. The default generator is deterministic and validated by a
    separate scorer (app/audit/suite/validate.py); a model-backed generator validates its own cases.
    """
    cases: dict[str, Case] = {}
    for case in user_cases:
        cases[case.id] = case
    if generator is None and intents_per_tool > 0:
        generated: dict[tuple[str, str, tuple[str, ...]], Case] = {}
        for toolset in toolsets:
            validator = CaseValidator(toolset)
            template = TemplateCaseGenerator()
            for case in template.generate(toolset, per_tool=intents_per_tool, negatives=negatives):
                key = (case.intent.lower(), case.expected, case.removed_tools)
                if key not in generated:
                    generated[key] = validator.validate(case, min_confidence=MIN_CONFIDENCE)
        _add_unique(cases, generated.values())
    elif generator is not None:
        for toolset in toolsets:
            _add_unique(cases, generator.generate(toolset, per_tool=intents_per_tool, negatives=negatives))
    return Suite(cases=list(cases.values()))


def _add_unique(cases: dict[str, Case], new: Any) -> None:
    intents = {(c.intent.lower(), c.expected, c.removed_tools) for c in cases.values()}
    for case in sorted(new, key=lambda c: c.id):
        key = (case.intent.lower(), case.expected, case.removed_tools)
        if key in intents:
            continue
        intents.add(key)
        case_id = case.id
        n = 2
        while case_id in cases:
            case_id = f"{case.id}~{n}"
            n += 1
        cases[case_id] = case if case_id == case.id else case.model_copy(update={"id": case_id})
