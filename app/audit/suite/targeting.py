"""Where a before/after suite spends its requests: on the tools the pull request changed and their neighbours.

A changed tool (added, or any of name, description, input schema, annotations differing between base and
head) gets CHANGED_FACTOR times the usual number of requests, so that it ends with at least MIN_SCORED_CHANGED
scored cases where its text allows it. Its neighbours are the NEIGHBOURS tools most similar to it in text
(TF-IDF cosine of name, description and parameter names, at least NEIGHBOUR_MIN_SIMILARITY): the tools a model
could confuse it with, whose cases show whether the change moved requests towards or away from them. They get
NEIGHBOUR_EXTRA requests more than the rest. Three neighbours because confusions in our corpus runs concentrate
on the two or three closest tools; more would spread the budget over tools the change cannot affect.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Sequence

from app.audit.models import Tool, ToolSet
from app.audit.text import content_stems, split_identifier

CHANGED_FACTOR = 2
MIN_SCORED_CHANGED = 6
NEIGHBOURS = 3
NEIGHBOUR_EXTRA = 2
NEIGHBOUR_MIN_SIMILARITY = 0.2


def changed_tools(base: ToolSet, head: ToolSet) -> list[str]:
    """Tools of the head that are new or differ from the base, in name order."""
    before = {t.name: t.definition_hash() for t in base.tools}
    return sorted(t.name for t in head.tools if before.get(t.name) != t.definition_hash())


def neighbours(toolset: ToolSet, names: Sequence[str], *, count: int = NEIGHBOURS) -> dict[str, list[str]]:
    """For each named tool, the `count` most similar other tools (best first, ties by name).

    Only the tools sharing a term with the named one are scored (an inverted index): every weight is positive, so
    any other tool's similarity is 0, under NEIGHBOUR_MIN_SIMILARITY.
    """
    vectors = _vectors(toolset.tools)
    having: dict[str, list[tuple[str, float]]] = {}
    for other, vec in vectors.items():
        for term, weight in vec.items():
            having.setdefault(term, []).append((other, weight))
    out: dict[str, list[str]] = {}
    for name in names:
        if name not in vectors:
            continue
        ranked = heapq.nsmallest(
            count, _similarities(name, vectors, having).items(), key=lambda kv: (-kv[1], kv[0])
        )
        out[name] = [other for other, sim in ranked if sim >= NEIGHBOUR_MIN_SIMILARITY]
    return out


def _similarities(
    name: str, vectors: dict[str, dict[str, float]], having: dict[str, list[tuple[str, float]]]
) -> dict[str, float]:
    """The cosine of `name` with each other tool sharing a term with it, the very float `_cosine` gives.

    `_cosine` adds its products in the term order of the shorter vector (the named one's when they are as long);
    the terms they do not share add 0.0, which leaves a sum of positive products as it is. The products are added
    here in the named tool's order: that order, or any order when they share one term only; else `_cosine` itself.
    """
    mine = vectors[name]
    out: dict[str, float] = {}
    single: dict[str, bool] = {}  # whether the tools share one term only
    for term, weight in mine.items():
        for other, theirs in having[term]:
            if other in out:
                out[other] += weight * theirs
                single[other] = False
            else:
                out[other] = weight * theirs
                single[other] = True
    out.pop(name, None)  # a tool with no terms shares none, not even with itself
    for other in out:
        if not single[other] and len(vectors[other]) < len(mine):
            out[other] = _cosine(mine, vectors[other])
    return out


def budgets(base: ToolSet, head: ToolSet, *, per_tool: int) -> dict[str, int]:
    """Requests per tool for a before/after suite: more for changed tools and their neighbours."""
    changed = changed_tools(base, head)
    near = {n for names in neighbours(head, changed).values() for n in names} - set(changed)
    out = {t.name: per_tool for t in [*base.tools, *head.tools]}
    for name in near:
        out[name] = per_tool + NEIGHBOUR_EXTRA
    for name in changed:
        out[name] = max(per_tool * CHANGED_FACTOR, MIN_SCORED_CHANGED)
    return out


def _vectors(tools: Sequence[Tool]) -> dict[str, dict[str, float]]:
    docs = {
        t.name: Counter(content_stems(" ".join([*split_identifier(t.name), t.description or "", *t.properties])))
        for t in tools
    }
    df: Counter[str] = Counter()
    for doc in docs.values():
        df.update(doc.keys())
    n = len(docs)
    out = {}
    for name, doc in docs.items():
        vec = {term: count * (math.log((1 + n) / (1 + df[term])) + 1.0) for term, count in doc.items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        out[name] = {term: v / norm for term, v in vec.items()}
    return out


def _cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(term, 0.0) for term, v in a.items())
