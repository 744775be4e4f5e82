"""Reading a user's cases file (YAML or JSON): each case checked, with the file and line of any problem."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from app.audit.documents import read_document
from app.audit.models import NO_TOOL, Case, CaseFamily, CaseStatus, Provenance
from app.audit.suite.validate import MIN_CONFIDENCE
from app.errors import CasesError


def load_cases(name: str, *, text: str) -> list[Case]:
    """User-defined cases from YAML or JSON: `{"cases": [...]}` or a bare list.

    Each case: `intent` (required), `expected` (a tool name or NO_TOOL, required), optional `id`,
    `arguments` (parameter -> list of acceptable values, or one value), `provenance`
    (user_defined by default, or human_fixture), `confidence` (default 1.0), `note`.
    """
    data, ranges, _ = read_document(name, text, error=CasesError)
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
