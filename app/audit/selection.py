"""Running a selector over a suite: the Selector protocol, per-case tool lists, and argument checks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from jsonschema import Draft202012Validator

from app.audit.models import NO_TOOL, Case, Suite, Tool, ToolSet
from app.audit.results import ArgumentCheck, Run, Selection, SelectorInfo
from app.audit.successors import Successor, Target, choose_targets


@dataclass(frozen=True, slots=True)
class SelectionRequest:
    """What a selector is given: the tools as an MCP client lists them, and one user request.

    A plain dataclass, not a pydantic model: requests share one tool list per tool set (validation would
    copy every tool for every case), and selectors may recognise a tool list they have seen by identity.
    """

    tools: list[dict[str, Any]]
    intent: str
    # True when the answer must come from the selector itself, not from a cache (confirmation re-runs).
    fresh: bool = False
    # The suite case asking, for messages that must name it (a replay without its answer); not shown to selectors.
    case_id: str = ""


class Selector(Protocol):
    """Anything that picks a tool (or NO_TOOL) for a request. Synthetic and live selectors implement it.

    Optional, looked up with getattr by app/audit/engine.py: `case_generator()` returns the CaseGenerator a
    model-backed selector uses to write and validate cases; `usage_totals(runs)` returns per-audit totals
    (calls, cache hits, tokens, cost) to put in the report.
    """

    @property
    def info(self) -> SelectorInfo: ...

    def select_many(self, requests: Sequence[SelectionRequest]) -> list[Selection]:
        """Answers in the order of `requests`. A live selector may run them concurrently."""
        ...


def tools_for_case(toolset: ToolSet, case: Case, *, listed: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The MCP tool list the selector sees for `case`: near-miss cases drop their removed tools.

    `listed` is the tool set's MCP listing computed once; cases without removed tools get that very list.
    """
    listed = listed if listed is not None else toolset.to_mcp()
    if not case.removed_tools:
        return listed
    removed = set(case.removed_tools)
    return [item for item, tool in zip(listed, toolset.tools, strict=True) if tool.name not in removed]


def runnable(toolset: ToolSet, case: Case) -> str | None:
    """None if the case can run on this tool set, else why not (coverage that exists on one side only)."""
    names = set(toolset.names())
    if case.expected != NO_TOOL and case.expected not in names:
        return f"expected tool {case.expected!r} is not in this tool set"
    if case.target_tool and case.target_tool not in names:
        return f"the case's target tool {case.target_tool!r} is not in this tool set"
    return None


# Why a case that a live plan did not ask was not run (app/audit/live_plan.py).
LEFT_OUT = "left out of the live plan (the change cannot reach it, and it was not drawn for the sample)"


def moved_to(case: Case, names: set[str], successors: Mapping[str, Successor]) -> Successor | None:
    """The successor a case is judged against on a side without its tool: a case written for (and expecting) a
    removed tool with a successor; near-miss cases, which leave tools out on purpose, stay where they were."""
    found = successors.get(case.expected)
    if found is None or case.expected in names or case.removed_tools or case.target_tool not in (None, case.expected):
        return None
    return found


def successor_case(case: Case, successor: Successor, by_name: Mapping[str, Tool]) -> tuple[Case, list[Target]]:
    """A case of a tool this side lacks as this side judges it: expecting the successor that fits it (and its
    argument values); `by_name` is the side's tools by name."""
    targets = choose_targets(successor, case.intent, by_name)
    first = targets[0]
    acceptable = dict(case.acceptable_arguments or {})
    for key, value in first.arguments.items():
        acceptable[key] = [value]
    return case.model_copy(update={"expected": first.tool, "acceptable_arguments": acceptable or None}), targets


def run_suite(
    selector: Selector,
    toolset: ToolSet,
    suite: Suite,
    *,
    asked: set[str] | None = None,
    successors: Sequence[Successor] = (),
) -> list[Run]:
    """Run every case of `suite` against `toolset` (only those in `asked`, when given); cases that cannot run,
    or were not asked, are recorded, unscored. A case expecting a tool absent here that has a successor is judged
    against the successor (app/audit/successors/)."""
    by_name = toolset.by_name()
    pending: list[tuple[Case, SelectionRequest]] = []
    skipped: dict[str, str] = {}
    moved: dict[str, tuple[Successor, list[Target]]] = {}
    after = {s.removed: s for s in successors}
    names = set(by_name)
    listed = toolset.to_mcp()
    for case in suite.cases:
        successor = moved_to(case, names, after)
        if successor is not None:
            retargeted, targets = successor_case(case, successor, by_name)
            moved[case.id] = (successor, targets)
            case = retargeted.model_copy(update={"target_tool": None})
        reason = runnable(toolset, case)
        if reason is None and asked is not None and case.id not in asked:
            reason = LEFT_OUT
        if reason:
            skipped[case.id] = reason
        else:
            tools = tools_for_case(toolset, case, listed=listed)
            pending.append((case, SelectionRequest(tools=tools, intent=case.intent, case_id=case.id)))
    answers = selector.select_many([req for _, req in pending]) if pending else []
    answered = {case.id: (case, sel) for (case, _), sel in zip(pending, answers, strict=True)}
    runs: list[Run] = []
    for case in suite.cases:
        if case.id in skipped:
            runs.append(
                Run(
                    case_id=case.id,
                    expected=case.expected,
                    selected="",
                    passed=False,
                    why=f"not run: {skipped[case.id]}",
                    scored=False,
                )
            )
            continue
        asked_case, sel = answered[case.id]
        if case.id in moved:
            successor, targets = moved[case.id]
            runs.append(judge_successor(asked_case, sel, by_name.get(sel.tool), successor, targets))
        else:
            runs.append(judge(case, sel, by_name.get(sel.tool)))
    return runs


def judge_successor(case: Case, sel: Selection, tool: Any | None, successor: Successor, targets: list[Target]) -> Run:
    """Judge a case of a tool this side lacks against the tool(s) doing its work here: the right tool, and the
    argument values that select the operation (`action: close`)."""
    hit = next((t for t in targets if t.tool == sel.tool), None) if not sel.error else None
    if hit is not None and sel.tool != case.expected:
        acceptable = {k: [v] for k, v in hit.arguments.items()} or None
        case = case.model_copy(update={"expected": hit.tool, "acceptable_arguments": acceptable})
    run = judge(case, sel, tool)
    wanted = targets[0] if hit is None else hit
    update: dict[str, Any] = {"successor_of": successor.removed, "expected": wanted.tool}
    if hit is not None:
        wrong = [k for k, v in sorted(hit.arguments.items()) if not _value_acceptable(sel.arguments.get(k), [v])]
        if wrong:
            said = ", ".join(f"{k}: {sel.arguments.get(k, '(none)')}" for k in wrong)
            why = f"selected {sel.tool} with {said}, not {hit.label()} (in place of {successor.removed})"
            update |= {"passed": False, "why": why}
        else:
            update["why"] = f"selected {hit.label()} in place of {successor.removed}"
    elif not run.passed:
        update["why"] = f"{run.why} (expected {successor.label()} in place of {successor.removed})"
    return run.model_copy(update=update)


def judge(case: Case, sel: Selection, selected_tool: Any | None) -> Run:
    """Pass/fail of one answer, with the reason, and the argument check when a tool was selected."""
    if sel.error:
        passed = False
        why = f"selector failed: {sel.error}"
    elif sel.tool == case.expected:
        passed = True
        why = "expected NO_TOOL and abstained" if case.expected == NO_TOOL else f"selected {sel.tool}"
    elif case.expected == NO_TOOL:
        passed = False
        why = f"expected NO_TOOL but selected {sel.tool}"
    elif sel.tool == NO_TOOL:
        passed = False
        # The selector's reason says what was missing (the synthetic one: words no tool covers, its score).
        why = f"abstained (NO_TOOL): {sel.reason}" if sel.reason else f"expected {case.expected} but abstained"
    else:
        passed = False
        why = f"expected {case.expected} but selected {sel.tool}"
    check: ArgumentCheck | None = None
    if not sel.error and sel.tool != NO_TOOL:
        if selected_tool is None:
            check = ArgumentCheck(valid=False, failed_check="tool_name", detail=f"no tool named {sel.tool!r}")
        else:
            acceptable = case.acceptable_arguments if passed else None
            check = check_arguments(selected_tool.input_schema, sel.arguments, acceptable)
    return Run(
        case_id=case.id,
        expected=case.expected,
        selected=sel.tool if not sel.error else "",
        arguments=sel.arguments,
        confidence=sel.confidence,
        reason=sel.reason,
        passed=passed,
        why=why,
        scored=case.scored,
        argument_check=check,
        error=sel.error,
        raw=sel.raw,
        usage=sel.usage,
    )


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _type_ok(value: Any, declared: Any) -> bool:
    if declared is None:
        return True
    names = declared if isinstance(declared, list) else [declared]
    for name in names:
        kinds = _JSON_TYPES.get(name) if isinstance(name, str) else None
        if kinds is None:
            return True
        if isinstance(value, bool) and name in ("integer", "number"):
            continue
        if name == "integer" and isinstance(value, float) and value.is_integer():
            return True
        if isinstance(value, kinds):
            return True
    return False


def check_arguments(
    schema: dict[str, Any], arguments: dict[str, Any], acceptable: dict[str, list[Any]] | None = None
) -> ArgumentCheck:
    """Check generated arguments in BFCL's order, then against the whole schema with jsonschema.

    Order: required parameters present, no unexpected parameters, declared types (an integer is
    accepted for a number), schema validity (enum members, nested shapes), then acceptable values
    where the case gives them ("" in a list means the parameter may be left out).
    """
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    assert isinstance(props, dict)
    listed = schema.get("required")
    required = [r for r in listed if isinstance(r, str)] if isinstance(listed, list) else []
    missing = [r for r in required if r not in arguments]
    if missing:
        return ArgumentCheck(valid=False, failed_check="required", detail=f"missing {', '.join(missing)}")
    open_schema = not props and schema.get("additionalProperties", True) is not False
    if not open_schema:
        unexpected = sorted(k for k in arguments if k not in props)
        if unexpected:
            return ArgumentCheck(valid=False, failed_check="unexpected", detail=f"unexpected {', '.join(unexpected)}")
    for key, value in arguments.items():
        spec = props.get(key)
        if isinstance(spec, dict) and not _type_ok(value, spec.get("type")):
            return ArgumentCheck(valid=False, failed_check="type", detail=f"{key}: expected {spec.get('type')}")
    try:
        errors = sorted(Draft202012Validator(schema).iter_errors(arguments), key=lambda e: list(e.path))
    except Exception as exc:  # an invalid schema is reported by the rules; here it only fails the check
        return ArgumentCheck(valid=False, failed_check="schema", detail=f"schema unusable: {exc}")
    errors = [e for e in errors if not (e.validator == "type" and _type_ok(e.instance, e.validator_value))]
    if errors:
        first = errors[0]
        path = ".".join(str(p) for p in first.path) or "(root)"
        return ArgumentCheck(valid=False, failed_check="schema", detail=f"{path}: {first.message}"[:300])
    if acceptable:
        for key, values in sorted(acceptable.items()):
            if key not in arguments:
                if "" in values or not values:
                    continue
                return ArgumentCheck(valid=False, failed_check="value", detail=f"{key}: missing")
            if not _value_acceptable(arguments[key], values):
                return ArgumentCheck(valid=False, failed_check="value", detail=f"{key}: not an acceptable value")
    return ArgumentCheck(valid=True)


def _value_acceptable(value: Any, values: list[Any]) -> bool:
    for allowed in values:
        if allowed == value:
            return True
        if isinstance(allowed, str) and isinstance(value, str) and allowed.strip().lower() == value.strip().lower():
            return True
        if isinstance(allowed, int | float) and isinstance(value, int | float) and float(allowed) == float(value):
            return True
    return False
