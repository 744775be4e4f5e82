"""Building the frozen test suite: user cases from a file, generated intents, negatives, validation."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

import yaml
from pydantic import ValidationError

from app.audit.generate import TemplateCaseGenerator
from app.audit.models import NO_TOOL, Case, CaseFamily, CaseStatus, Provenance, Suite, ToolSet
from app.audit.positions import is_json_text, json_ranges, yaml_ranges
from app.audit.validate import CaseValidator
from app.errors import CasesError

# Cases whose expected answer cannot be defended with at least this confidence are exploratory.
MIN_CONFIDENCE = 0.7


class CaseGenerator(Protocol):
    """Writes cases for a tool set: positives per tool, and negatives when asked."""

    def generate(self, toolset: ToolSet, *, per_tool: int, negatives: bool) -> list[Case]: ...


def load_cases(name: str, *, text: str) -> list[Case]:
    """User-defined cases from YAML or JSON: `{"cases": [...]}` or a bare list.

    Each case: `intent` (required), `expected` (a tool name or NO_TOOL, required), optional `id`,
    `arguments` (parameter -> list of acceptable values, or one value), `provenance`
    (user_defined by default, or human_fixture), `confidence` (default 1.0), `note`.
    """
    try:
        if is_json_text(text):
            data = json.loads(text)
            ranges = json_ranges(text)
        else:
            data = yaml.safe_load(text)
            ranges = yaml_ranges(text)
    except json.JSONDecodeError as exc:
        raise CasesError(f"invalid JSON: {exc.msg}", file=name, line=exc.lineno) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise CasesError(f"invalid YAML: {exc.problem}", file=name, line=mark.line + 1 if mark else None) from None
    base: tuple[str | int, ...] = ()
    if isinstance(data, dict) and "cases" in data:
        data, base = data["cases"], ("cases",)
    if not isinstance(data, list):
        raise CasesError('expected a list of cases, or {"cases": [...]}', file=name, line=1)
    cases: list[Case] = []
    seen: set[str] = set()
    for index, item in enumerate(data):
        where = ranges.get((*base, index))
        line = where.start if where else None
        cases.append(_read_case(item, index=index, name=name, line=line, seen=seen))
    return cases


def _read_case(item: Any, *, index: int, name: str, line: int | None, seen: set[str]) -> Case:
    if not isinstance(item, dict):
        raise CasesError(f"case #{index + 1} is not a mapping", file=name, line=line)
    unknown = sorted(set(item) - {"id", "intent", "expected", "arguments", "provenance", "confidence", "note"})
    if unknown:
        raise CasesError(f"case #{index + 1} has unknown keys: {', '.join(unknown)}", file=name, line=line)
    for key in ("intent", "expected"):
        if not isinstance(item.get(key), str) or not item[key].strip():
            raise CasesError(f"case #{index + 1} needs a non-empty string {key!r}", file=name, line=line)
    case_id = str(item.get("id") or f"user-{index + 1:03d}")
    if case_id in seen:
        raise CasesError(f"case id {case_id!r} is used twice", file=name, line=line)
    seen.add(case_id)
    arguments = item.get("arguments")
    if arguments is not None:
        if not isinstance(arguments, dict):
            raise CasesError(f"case {case_id}: 'arguments' must be a mapping", file=name, line=line)
        arguments = {str(k): v if isinstance(v, list) else [v] for k, v in arguments.items()}
    provenance = item.get("provenance", Provenance.USER_DEFINED.value)
    if provenance not in (Provenance.USER_DEFINED.value, Provenance.HUMAN_FIXTURE.value):
        raise CasesError(
            f"case {case_id}: provenance must be user_defined or human_fixture (got {provenance!r})",
            file=name,
            line=line,
        )
    try:
        confidence = float(item.get("confidence", 1.0))
        expected = item["expected"].strip()
        return Case(
            id=case_id,
            intent=item["intent"].strip(),
            expected=expected,
            acceptable_arguments=arguments,
            provenance=Provenance(provenance),
            confidence=confidence,
            status=CaseStatus.SCORED if confidence >= MIN_CONFIDENCE else CaseStatus.EXPLORATORY,
            family=CaseFamily.OFF_TOPIC if expected == NO_TOOL else CaseFamily.POSITIVE,
            target_tool=None if expected == NO_TOOL else expected,
            note=item.get("note"),
        )
    except (ValueError, TypeError, ValidationError) as exc:
        raise CasesError(f"case {case_id}: {exc}", file=name, line=line) from None


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
    separate scorer (app/audit/validate.py); a model-backed generator validates its own cases.
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
