"""Reading a user's cases file (YAML or JSON): each case checked, with the file and line of any problem."""

from __future__ import annotations

from typing import Any

import yaml
from pydantic import ValidationError

from app.audit.documents import read_document
from app.audit.models import NO_TOOL, Case, CaseFamily, CaseStatus, Provenance
from app.audit.suite.validate import MIN_CONFIDENCE
from app.errors import CasesError


def load_cases(name: str, *, text: str) -> list[Case]:
    """User-defined cases from YAML or JSON: `{"cases": [...]}` or a bare list.

    Each case: `intent` (required), `expected` (a tool name or NO_TOOL, required), optional `id`,
    `arguments` (parameter -> list of acceptable values, or one value), `provenance`
    (user_defined by default, or human_fixture), `confidence` (default 1.0), `note`, and `without` (tools left
    out of the list for this case: a near-miss, which expects NO_TOOL).
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


_KEYS = frozenset({"id", "intent", "expected", "arguments", "provenance", "confidence", "note", "without"})


def _read_case(item: Any, *, index: int, name: str, line: int | None, seen: set[str]) -> Case:
    if not isinstance(item, dict):
        raise CasesError(f"case #{index + 1} is not a mapping", file=name, line=line)
    unknown = sorted(set(item) - _KEYS)
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
    without = item.get("without", [])
    if not isinstance(without, list) or not all(isinstance(n, str) and n.strip() for n in without):
        raise CasesError(f"case {case_id}: 'without' must be a list of tool names", file=name, line=line)
    try:
        confidence = float(item.get("confidence", 1.0))
        expected = item["expected"].strip()
        near_miss = bool(without) and expected == NO_TOOL
        family = CaseFamily.POSITIVE if expected != NO_TOOL else CaseFamily.OFF_TOPIC
        return Case(
            id=case_id,
            intent=item["intent"].strip(),
            expected=expected,
            acceptable_arguments=arguments,
            provenance=Provenance(provenance),
            confidence=confidence,
            status=CaseStatus.SCORED if confidence >= MIN_CONFIDENCE else CaseStatus.EXPLORATORY,
            family=CaseFamily.NEAR_MISS if near_miss else family,
            target_tool=without[0].strip() if near_miss else None if expected == NO_TOOL else expected,
            removed_tools=tuple(n.strip() for n in without),
            note=item.get("note"),
        )
    except (ValueError, TypeError, ValidationError) as exc:
        raise CasesError(f"case {case_id}: {exc}", file=name, line=line) from None


def dump_cases(cases: list[Case], *, header: str) -> str:
    """A cases file (YAML) holding `cases` as a person reads and edits them, after `header` as comments; read
    back by `load_cases` as user_defined cases (the validator's confidence kept, so exploratory stay so)."""
    rows: list[dict[str, Any]] = []
    for case in sorted(cases, key=lambda c: c.id):
        row: dict[str, Any] = {"id": case.id, "intent": case.intent, "expected": case.expected}
        if case.removed_tools:
            row["without"] = list(case.removed_tools)
        if case.acceptable_arguments:
            row["arguments"] = case.acceptable_arguments
        if case.confidence != 1.0:
            row["confidence"] = round(case.confidence, 3)
        if case.note:
            row["note"] = case.note
        rows.append(row)
    comments = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines())
    body = yaml.safe_dump({"cases": rows}, sort_keys=False, allow_unicode=True, width=10_000)
    return comments + body
