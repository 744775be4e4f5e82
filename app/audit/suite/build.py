"""Building the frozen test suite: user cases, generated requests and negatives, validated, topped up, hashed."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from app.audit.models import Case, CaseFamily, Suite, Tool, ToolSet
from app.audit.suite.intents import TemplateCaseGenerator, contrastive_requests, positive_case, requests_for
from app.audit.suite.phrase_parts import Phrased
from app.audit.suite.spelling import as_written
from app.audit.suite.targeting import MIN_SCORED_CHANGED, budgets, changed_tools, neighbours
from app.audit.suite.tool_requests import name_prefixes
from app.audit.suite.validate import MIN_CONFIDENCE, CaseValidator, SideValidator
from app.audit.text import content_stems, has_token, split_identifier

# The validator's note names the tool a case could not be told apart from.
_RIVAL = re.compile(r"(?:validator expected |runner-up )([^;)\s]+)")
# Requests tried per tool at most, budget and top-up together: beyond this the tool's text is the problem.
MAX_CANDIDATES = 14
# Rivals a contrastive request is built against: the tools a tool's requests were most often taken for.
CONTRAST_RIVALS = 2


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
    description changed gets requests from both versions, so neither side writes the exam alone), spelled the way
    the tool list spells its words (a typo one side fixes is not copied into requests: spelling.py);
    identical requests are merged. A generated request that the other version of its tool, the one whose text
    says more about it, reads as another tool's at least as much is contested and exploratory (validate.py,
    SideValidator): the fuller text shows the request was ambiguous, not that the change broke it. With two
    sides (base, head) the tools the change touches and their neighbours get more requests
    (app/audit/suite/targeting.py). The default generator is deterministic and
    validated by a separate scorer (app/audit/suite/validate.py); a tool left with too few scored cases gets
    further requests until it has them or its candidates run out, and the suite's notes say which tools
    could not be covered and why. A model-backed generator validates its own cases.
    """
    cases: dict[str, Case] = {}
    for case in user_cases:
        cases[case.id] = case
    notes: list[str] = []
    if generator is None and intents_per_tool > 0:
        changed = changed_tools(toolsets[0], toolsets[-1]) if len(toolsets) == 2 else []
        plan = budgets(toolsets[0], toolsets[-1], per_tool=intents_per_tool) if changed else {}
        generated: dict[tuple[str, str, tuple[str, ...]], Case] = {}
        validators = [CaseValidator(t) for t in toolsets]
        # Requests are written in words spelled right (spelling.py); each side is validated as it is.
        for side, toolset in enumerate(as_written(toolsets)):
            validator = SideValidator(validators[side], [v for i, v in enumerate(validators) if i != side])
            new = TemplateCaseGenerator().generate(
                toolset, per_tool=intents_per_tool, negatives=negatives, budgets=plan
            )
            for case in new:
                key = _key(case)
                if key not in generated:
                    generated[key] = validator.validate(case, min_confidence=MIN_CONFIDENCE)
            _top_up(toolset, generated, validator, targets={n: MIN_SCORED_CHANGED for n in changed}, given=user_cases)
        _add_unique(cases, generated.values())
        notes = _shortfalls(toolsets[-1], list(cases.values()), changed)
    elif generator is not None:
        for toolset in toolsets:
            _add_unique(cases, generator.generate(toolset, per_tool=intents_per_tool, negatives=negatives))
    return Suite(cases=list(cases.values()), notes=notes)


def _key(case: Case) -> tuple[str, str, tuple[str, ...]]:
    return (case.intent.lower(), case.expected, case.removed_tools)


def _scored_per_tool(cases: Any) -> Counter[str]:
    return Counter(c.expected for c in cases if c.family == CaseFamily.POSITIVE and c.scored)


def _top_up(
    toolset: ToolSet,
    generated: dict[tuple[str, str, tuple[str, ...]], Case],
    validator: SideValidator,
    *,
    targets: Mapping[str, int],
    given: Sequence[Case],
) -> None:
    """Further requests for tools under their target of scored cases (1, or more for a changed tool); the
    user's own scored cases count towards it. The tool's own requests first, then contrastive ones: what
    tells it apart from the tools its requests read as and from its nearest neighbours."""
    scored = _scored_per_tool([*generated.values(), *given])
    written = Counter(c.expected for c in generated.values() if c.family == CaseFamily.POSITIVE)
    prefixes = name_prefixes(toolset.names())

    def short(tool: Tool) -> bool:
        return bool(tool.description) and scored[tool.name] < targets.get(tool.name, 1)

    def attempt(tool: Tool, phrased: Phrased) -> None:
        written[tool.name] += 1
        case = positive_case(tool.name, phrased, written[tool.name], why=" (added: too few scored cases)")
        checked = None if _key(case) in generated else validator.validate(case, min_confidence=MIN_CONFIDENCE)
        if checked is not None and checked.scored:
            generated[_key(case)] = checked
            scored[tool.name] += 1
        else:
            written[tool.name] -= 1

    for tool in toolset.tools:
        if not short(tool):
            continue
        for phrased in requests_for(tool, MAX_CANDIDATES, prefixes=prefixes):
            if not short(tool):
                break
            attempt(tool, phrased)
    left = [t for t in toolset.tools if short(t)]
    near = neighbours(toolset, [t.name for t in left]) if left else {}
    tools = {t.name: t for t in toolset.tools}
    # Counted once, before any contrastive request is added: those added are all scored, and only cases that
    # were not scored say what a tool was taken for.
    confused = _confusions(generated.values())
    for tool in left:
        taken_for = [n for n, _ in confused.get(tool.name, Counter()).most_common(CONTRAST_RIVALS)]
        names = dict.fromkeys([*taken_for, *near.get(tool.name, [])])
        rivals = [tools[n] for n in names if n in tools and n != tool.name]
        for phrased in contrastive_requests(tool, rivals, prefixes=prefixes):
            if not short(tool):
                break
            attempt(tool, phrased)


def _confusions(cases: Any) -> dict[str, Counter[str]]:
    """Per tool, the tools the validator took its requests for, counted in the cases' order (ties of
    most_common go to the rival met first)."""
    found: dict[str, Counter[str]] = {}
    for case in cases:
        if case.family == CaseFamily.POSITIVE and not case.scored and (match := _RIVAL.search(case.note or "")):
            found.setdefault(case.expected, Counter())[match.group(1)] += 1
    return found


def _shortfalls(head: ToolSet, cases: list[Case], changed: list[str]) -> list[str]:
    """Plain sentences for the report: which tools the suite could not cover, and why."""
    scored = _scored_per_tool(cases)
    rivals: dict[str, Counter[str]] = {}
    for case in cases:
        if case.family == CaseFamily.POSITIVE and not case.scored and case.note:
            found = _RIVAL.search(case.note)
            if found:
                rivals.setdefault(case.expected, Counter())[found.group(1)] += 1
    notes = []
    tools = {t.name: t for t in head.tools}
    for name in changed:
        if name in tools and scored[name] < MIN_SCORED_CHANGED:
            written = len(requests_for(tools[name], MAX_CANDIDATES))
            why = _why(name, rivals, tools) if name in rivals else f"its text gives only {written} distinct requests"
            notes.append(f"Changed tool {name} has {scored[name]} scored cases, not {MIN_SCORED_CHANGED}: {why}.")
    uncovered = [t.name for t in head.tools if t.description and not scored[t.name] and t.name not in changed]
    if uncovered:
        shown = ", ".join(f"{n} ({_why(n, rivals, tools)})" for n in uncovered[:5])
        more = f" and {len(uncovered) - 5} more" if len(uncovered) > 5 else ""
        count = "1 tool has" if len(uncovered) == 1 else f"{len(uncovered)} tools have"
        notes.append(f"{count} no scored case: {shown}{more}.")
    return notes


def _why(name: str, rivals: dict[str, Counter[str]], tools: Mapping[str, Tool]) -> str:
    for other in tools:
        twin = _twin(tools[name], tools[other]) if other != name else None
        if twin:
            return f"no request can tell {name} from {other}: {twin}"
    if name in rivals:
        return f"its requests also read as {rivals[name].most_common(1)[0][0]}"
    return "no request could be told apart from the other tools with confidence 0.7"


def _twin(tool: Tool, rival: Tool) -> str | None:
    """Why no request can tell two tools apart, when their definitions leave nothing to tell them by."""
    mine, theirs = split_identifier(tool.name), split_identifier(rival.name)
    if content_stems(" ".join(mine)) == content_stems(" ".join(theirs)):
        same_words = [w.rstrip("s") for w in mine] == [w.rstrip("s") for w in theirs]
        return "their names differ only by a plural" if same_words else "their names say the same words"
    for old, new in ((tool, rival), (rival, tool)):
        text = (old.description or "").lower()
        if "deprecated" in text and "instead" in text and has_token(text, new.name.lower()):
            return f"{old.name} is marked deprecated in favour of {new.name}, so both do the same job"
    return None


def _add_unique(cases: dict[str, Case], new: Any) -> None:
    intents = {_key(c) for c in cases.values()}
    for case in sorted(new, key=lambda c: c.id):
        key = _key(case)
        if key in intents:
            continue
        intents.add(key)
        case_id = case.id
        n = 2
        while case_id in cases:
            case_id = f"{case.id}~{n}"
            n += 1
        cases[case_id] = case if case_id == case.id else case.model_copy(update={"id": case_id})
