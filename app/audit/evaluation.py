"""Evaluating a selector on labeled case files: loading them, running the selector, computing metrics."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from app.audit.models import NO_TOOL
from app.audit.results import Selection, SelectorInfo
from app.audit.selection import SelectionRequest, Selector, check_arguments
from app.audit.server_tools import ServerTools, find_servers_dir
from app.errors import CasesError


class LabeledCase(BaseModel):
    """One labeled case: its own tool list, the request and the benchmark's expected answer."""

    id: str
    file: str
    tools: list[dict[str, Any]]
    intent: str
    expected: str
    expected_arguments: dict[str, Any] | None = None


class ArgumentMetrics(BaseModel):
    """Argument checks on the cases where the expected tool was chosen."""

    checked: int = 0
    valid: int = 0
    share_valid: float | None = None
    failed: dict[str, int] = Field(default_factory=dict)  # failed check name -> count


class Metrics(BaseModel):
    cases: int = 0
    correct: int = 0
    accuracy: float | None = None
    no_tool_cases: int = 0
    no_tool_correct: int = 0
    no_tool_accuracy: float | None = None
    tool_cases: int = 0
    tool_correct: int = 0
    tool_accuracy: float | None = None
    # Ways of being wrong: a call where NO_TOOL was expected, NO_TOOL where a call was, the wrong tool,
    # and answers the selector could not give (a live model's failure; counted wrong, in none of the others).
    false_calls: int = 0
    false_abstentions: int = 0
    wrong_tool: int = 0
    errors: int = 0
    arguments: ArgumentMetrics = Field(default_factory=ArgumentMetrics)


class EvaluationReport(BaseModel):
    selector: SelectorInfo
    files: list[str]
    overall: Metrics
    per_file: dict[str, Metrics] | None = None
    # The only non-deterministic figure (wall time of the selections).
    cases_per_second: float

    def to_json(self) -> str:
        """Stable JSON: sorted keys, two-space indent."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True, indent=2, ensure_ascii=False)


def _line_of(text: str, case_id: str) -> int | None:
    needle = json.dumps(case_id)
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    return None


def load_cases(path: Path, *, servers_dir: Path | None = None) -> list[LabeledCase]:
    """Read one labeled case file; CasesError names the problem.

    A case gives its `tools` inline (corpora/labeled/README.md) or names a `server` file whose tools it
    uses (tests/fixtures/natural/README.md), read from `servers_dir`, else ../shared/corpora/servers.
    """
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CasesError(f"cannot read cases file: {exc.strerror or exc}", file=name) from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CasesError(f"not valid JSON: {exc.msg}", file=name, line=exc.lineno) from exc
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise CasesError('expected a JSON object with a "cases" array', file=name)
    out: list[LabeledCase] = []
    seen: set[str] = set()
    servers = ServerTools(servers_dir or find_servers_dir(path))
    for position, raw in enumerate(data["cases"]):
        out.append(_case(raw, position, name=name, text=text, seen=seen, servers=servers))
    return out


def _case(raw: Any, position: int, *, name: str, text: str, seen: set[str], servers: ServerTools) -> LabeledCase:
    if not isinstance(raw, dict):
        raise CasesError(f"case #{position + 1} is not an object", file=name)
    case_id = raw.get("id")
    if not isinstance(case_id, str) or not case_id:
        raise CasesError(f'case #{position + 1} has no string "id"', file=name)
    line = _line_of(text, case_id)

    def fail(problem: str) -> CasesError:
        return CasesError(f"case {case_id!r}: {problem}", file=name, line=line)

    if case_id in seen:
        raise fail("duplicate id")
    seen.add(case_id)
    tools = raw.get("tools")
    server = raw.get("server")
    if tools is None and server is not None:
        if not isinstance(server, str) or not server:
            raise fail('"server" must be the name of a server file')
        tools = servers.tools(server, file=name, line=line, case_id=case_id)
    if not isinstance(tools, list) or not all(isinstance(t, dict) and isinstance(t.get("name"), str) for t in tools):
        raise fail('"tools" must be a list of objects with a string "name" (or "server" a server file name)')
    intent, expected = raw.get("intent"), raw.get("expected")
    if not isinstance(intent, str):
        raise fail('"intent" must be a string')
    if not isinstance(expected, str) or not expected:
        raise fail('"expected" must be a tool name or NO_TOOL')
    names = [t["name"] for t in tools]
    if expected != NO_TOOL and names.count(expected) != 1:
        raise fail(f"expected tool {expected!r} must appear exactly once in its tools")
    arguments = raw.get("expected_arguments")
    if arguments is not None and not isinstance(arguments, dict):
        raise fail('"expected_arguments" must be an object or null')
    return LabeledCase(id=case_id, file=name, tools=tools, intent=intent, expected=expected,
                       expected_arguments=arguments)  # fmt: skip


def _acceptable(expected_arguments: dict[str, Any] | None) -> dict[str, list[Any]] | None:
    if not expected_arguments:
        return None
    return {k: v if isinstance(v, list) else [v] for k, v in expected_arguments.items()}


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def _metrics(pairs: Sequence[tuple[LabeledCase, Selection]]) -> Metrics:
    m = Metrics(cases=len(pairs))
    failed: Counter[str] = Counter()
    for case, sel in pairs:
        right = sel.error is None and sel.tool == case.expected
        m.correct += right
        m.errors += sel.error is not None
        if case.expected == NO_TOOL:
            m.no_tool_cases += 1
            m.no_tool_correct += right
            m.false_calls += not right and sel.error is None
            continue
        m.tool_cases += 1
        m.tool_correct += right
        if not right:
            if sel.error is None and sel.tool == NO_TOOL:
                m.false_abstentions += 1
            elif sel.error is None:
                m.wrong_tool += 1
            continue
        tool = next(t for t in case.tools if t.get("name") == case.expected)
        declared = tool.get("inputSchema")
        schema: dict[str, Any] = declared if isinstance(declared, dict) else {"type": "object"}
        check = check_arguments(schema, sel.arguments, _acceptable(case.expected_arguments))
        m.arguments.checked += 1
        m.arguments.valid += check.valid
        if not check.valid and check.failed_check:
            failed[check.failed_check] += 1
    m.accuracy = _ratio(m.correct, m.cases)
    m.no_tool_accuracy = _ratio(m.no_tool_correct, m.no_tool_cases)
    m.tool_accuracy = _ratio(m.tool_correct, m.tool_cases)
    m.arguments.share_valid = _ratio(m.arguments.valid, m.arguments.checked)
    m.arguments.failed = dict(sorted(failed.items()))
    return m


def run_cases(selector: Selector, cases: Sequence[LabeledCase]) -> list[Selection]:
    """The selector's answers, in case order, through one select_many batch."""
    requests = [SelectionRequest(tools=c.tools, intent=c.intent) for c in cases]
    return selector.select_many(requests) if requests else []


def load_all(files: Sequence[Path], *, servers_dir: Path | None = None) -> list[LabeledCase]:
    """The cases of every file, in file order."""
    return [case for path in files for case in load_cases(path, servers_dir=servers_dir)]


def evaluate(
    selector: Selector, files: Sequence[Path], *, per_file: bool = False, servers_dir: Path | None = None
) -> EvaluationReport:
    """Load every file, run the selector on all cases, and compute the metrics."""
    return evaluate_cases(selector, load_all(files, servers_dir=servers_dir), files=files, per_file=per_file)


def evaluate_cases(
    selector: Selector, cases: Sequence[LabeledCase], *, files: Sequence[Path], per_file: bool = False
) -> EvaluationReport:
    """Run the selector on loaded cases (one batch) and compute the metrics, per file if asked."""
    start = time.perf_counter()
    answers = run_cases(selector, cases)
    seconds = time.perf_counter() - start
    pairs = list(zip(cases, answers, strict=True))
    by_file: dict[str, Metrics] | None = None
    if per_file:
        by_file = {str(p): _metrics([pair for pair in pairs if pair[0].file == str(p)]) for p in files}
    return EvaluationReport(
        selector=selector.info,
        files=[str(p) for p in files],
        overall=_metrics(pairs),
        per_file=by_file,
        cases_per_second=round(len(cases) / seconds, 1) if seconds > 0 else 0.0,
    )
