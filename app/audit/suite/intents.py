"""Deterministic requests written from a tool's own text, without a model (the synthetic mode's case writer).

Per tool, requests of three families (app/audit/suite/tool_requests.py): explicit, task-phrased and indirect,
interleaved so that any budget of three or more covers all three; a larger budget (a changed tool and its
neighbours, app/audit/suite/targeting.py) draws more frames and other example values; contrastive requests
(app/audit/suite/contrast.py) are written only for a tool still short of scored cases. Negatives: a
near-miss per tool (its first explicit request with that tool removed from the set, expecting NO_TOOL)
and a fixed list of hand-written off-topic requests. Generated cases are `ai_generated`: machine-written,
then machine-validated by app/audit/suite/validate.py, so directional evidence, not ground truth.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.audit.models import NO_TOOL, Case, CaseFamily, Phrasing, Provenance, Tool, ToolSet
from app.audit.suite.contrast import contrastive
from app.audit.suite.phrase_parts import Phrased
from app.audit.suite.tool_requests import name_prefixes, phrasings

# Hand-written requests that no ordinary tool set should serve; the validator still checks each one.
OFF_TOPIC_REQUESTS = (
    "What's the capital of Australia?",
    "Write a four-line poem about autumn leaves.",
    "Tell me a joke about penguins.",
    "How many teaspoons are in a tablespoon?",
    "Who painted the Mona Lisa?",
    "Explain the difference between a virus and a bacterium in simple terms.",
    "Thanks, that's all for now!",
    "Suggest a name for my new puppy.",
)
# Other example values tried when a tool's budget asks for more requests than one set of values gives.
VARIANTS = 3


def requests_for(tool: Tool, budget: int, *, prefixes: frozenset[str] = frozenset()) -> list[Phrased]:
    """Up to `budget` distinct requests for `tool`, families interleaved, first values first."""
    out: list[Phrased] = []
    seen: set[str] = set()
    for variant in range(VARIANTS):
        for phrased in phrasings(tool, variant=variant, prefixes=prefixes):
            if phrased.text.lower() not in seen:
                seen.add(phrased.text.lower())
                out.append(phrased)
        if len(out) >= budget:
            break
    return _interleaved(out)[:budget]


def contrastive_requests(
    tool: Tool, rivals: Sequence[Tool], *, prefixes: frozenset[str] = frozenset()
) -> list[Phrased]:
    """Distinct contrastive requests for `tool` against `rivals`, first values first."""
    out: list[Phrased] = []
    seen: set[str] = set()
    for variant in range(VARIANTS):
        for phrased in contrastive(tool, rivals, variant=variant, prefixes=prefixes):
            if phrased.text.lower() not in seen:
                seen.add(phrased.text.lower())
                out.append(phrased)
    return out


def _interleaved(requests: list[Phrased]) -> list[Phrased]:
    by_family = {p: [r for r in requests if r.phrasing == p] for p in Phrasing}
    out: list[Phrased] = []
    while any(by_family.values()):
        for family in Phrasing:
            if by_family[family]:
                out.append(by_family[family].pop(0))
    return out


def positive_case(tool: str, phrased: Phrased, k: int, *, why: str = "") -> Case:
    """The k-th generated request expecting `tool` (ids `gen-<tool>-<k>`, stable across runs)."""
    return Case(
        id=f"gen-{tool}-{k}",
        intent=phrased.text,
        expected=tool,
        provenance=Provenance.AI_GENERATED,
        family=CaseFamily.POSITIVE,
        target_tool=tool,
        phrasing=phrased.phrasing,
        note=f"{phrased.phrasing.value} request{why}",
    )


class TemplateCaseGenerator:
    """Writes cases from tool text alone; deterministic, no model."""

    def generate(
        self, toolset: ToolSet, *, per_tool: int, negatives: bool, budgets: Mapping[str, int] | None = None
    ) -> list[Case]:
        cases: list[Case] = []
        prefixes = name_prefixes(toolset.names())
        for tool in toolset.tools:
            budget = (budgets or {}).get(tool.name, per_tool)
            requests = requests_for(tool, budget, prefixes=prefixes)
            cases.extend(positive_case(tool.name, phrased, k) for k, phrased in enumerate(requests, start=1))
            explicit = next((r for r in requests if r.phrasing == Phrasing.EXPLICIT), None)
            if negatives and explicit and len(toolset.tools) > 1:
                cases.append(
                    Case(
                        id=f"nearmiss-{tool.name}",
                        intent=explicit.text,
                        expected=NO_TOOL,
                        provenance=Provenance.AI_GENERATED,
                        family=CaseFamily.NEAR_MISS,
                        target_tool=tool.name,
                        removed_tools=(tool.name,),
                        phrasing=Phrasing.EXPLICIT,
                        note=f"{tool.name} is removed from the tool set for this case",
                    )
                )
        if negatives:
            cases.extend(
                Case(
                    id=f"offtopic-{k:02d}",
                    intent=text,
                    expected=NO_TOOL,
                    provenance=Provenance.HUMAN_FIXTURE,
                    family=CaseFamily.OFF_TOPIC,
                )
                for k, text in enumerate(OFF_TOPIC_REQUESTS, start=1)
            )
        return cases
