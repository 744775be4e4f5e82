"""One ranked tool judged for the synthetic selector: request words it has and lacks, its arguments and features."""

from __future__ import annotations

from dataclasses import dataclass

from app.audit.synthetic.arguments import Filled, fill_arguments
from app.audit.synthetic.decision import Evidence, gather
from app.audit.synthetic.index import ToolSetIndex
from app.audit.synthetic.query import Query, in_list
from app.audit.synthetic.ranking import exclusion_share
from app.audit.synthetic.values import Found


@dataclass(slots=True)
class Scored:
    position: int
    rank: float
    matched: list[str]
    nowhere: list[str]  # request words (as written) that no tool of the list has
    not_in_tool: list[str]  # request words that other tools have but this one lacks
    decision: float
    coverage: float
    filled: Filled
    evidence: Evidence


def decide(
    index: ToolSetIndex,
    ranked: tuple[int, float],
    runner_up: float,
    query: Query,
    found: Found,
    intent: str,
    actions: frozenset[str],
    *,
    weak: frozenset[str],
    synonyms: dict[str, tuple[str, ...]],
) -> Scored:
    """The ranked tool's words, arguments and decision features, against the `runner_up` score (decision left 0)."""
    doc = index.docs[ranked[0]]
    total = 0.0
    matched: list[str] = []
    matched_terms: set[str] = set()
    nowhere: list[str] = []
    not_in_tool: list[str] = []
    got = boundary_weight = by_synonym = in_core = 0.0
    specific = unmatched_specific = long_letters = 0
    for stem, weight, candidates in query.groups:
        hits = [(f, t) for t, f in candidates.items() if t in doc.terms]
        if not hits and stem in query.in_values:
            continue  # a word inside a value ("acme" of acme/web) need not be the tool's
        total += weight
        if not hits:
            if stem not in weak:
                anywhere = any(in_list(index, t) for t in candidates)
                (not_in_tool if anywhere else nowhere).append(query.surface[stem])
                unmatched_specific += 1
            continue
        factor, term = max(hits)
        matched.append(query.surface[stem])
        got += weight * factor
        by_synonym += weight * factor if factor < 1.0 else 0.0
        in_core += weight * factor if term in doc.core_terms else 0.0
        matched_terms.add(term)
        specific += stem not in weak
        long_letters += max(0, len(stem) - 3) if stem not in weak else 0
        boundary_weight += weight * factor if term in doc.boundary_terms else 0.0
    filled = fill_arguments(doc.params, intent, found, synonyms)
    evidence = gather(
        doc,
        total=total,
        got=got,
        by_synonym=by_synonym,
        in_core=in_core,
        matched_terms=matched_terms,
        margin=_margin(index, ranked[1], runner_up),
        long_letters=long_letters,
        intent=intent,
        actions=actions,
        specific=specific,
        unmatched=unmatched_specific,
        filled=filled,
        boundary=boundary_weight / (total or 1.0),
        exclusion=exclusion_share(doc, query.terms),
        found=found,
        query_terms={t for _, _, candidates in query.groups for t, f in candidates.items() if f == 1.0},
    )
    coverage = got / (total or 1.0)
    return Scored(ranked[0], ranked[1], matched, nowhere, not_in_tool, 0.0, coverage, filled, evidence)


def _margin(index: ToolSetIndex, best: float, runner_up: float) -> float:
    """The best tool's ranking lead over the runner-up, relative to its own score (1 when alone)."""
    return 1.0 if index.size == 1 or best <= 0 else max(0.0, best - runner_up) / best
