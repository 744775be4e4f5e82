"""Checks on pairs of tools: names a model can confuse, descriptions that say the same thing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.audit.models import Tool
from app.audit.rules.registry import RATIO, Anchor, Failure, SetOutcome, Target, register
from app.audit.text import content_stems, name_similarity, split_identifier, tfidf_vectors


def _remainders(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Both token lists without their common leading tokens (`get_issue`/`get_issues` -> `issue`/`issues`)."""
    k = 0
    while k < len(a) and k < len(b) and a[k] == b[k]:
        k += 1
    return a[k:], b[k:]


@register(
    "similar_names",
    Target.TOOL_PAIR,
    options={"threshold": RATIO},
    required=("threshold",),
    details=("similarity",),
)
def similar_names(tools: Sequence[Tool], options: Mapping[str, Any]) -> SetOutcome:
    """text.name_similarity of the two names after dropping their shared leading tokens.

    Names that differ only by a trailing qualifier (`search` / `search_code`) are not near-duplicates: one
    remainder is empty. Pairs whose character-length bound cannot reach the threshold are skipped unmeasured.
    """
    threshold = options["threshold"]
    tokens = [tuple(split_identifier(t.name)) for t in tools]
    failures: list[Failure] = []
    for i in range(len(tools)):
        for j in range(i + 1, len(tools)):
            ra, rb = _remainders(tokens[i], tokens[j])
            if not ra or not rb:
                continue
            la, lb = sum(map(len, ra)) + len(ra) - 1, sum(map(len, rb)) + len(rb) - 1
            # Upper bound of both parts of name_similarity: SequenceMatcher ratio and token Jaccard.
            sa, sb = len(set(ra)), len(set(rb))
            if 2 * min(la, lb) / (la + lb) < threshold and min(sa, sb) / max(sa, sb) < threshold:
                continue
            score = name_similarity("_".join(ra), "_".join(rb))
            if score >= threshold:
                failures.append(Failure(i, j, {"similarity": f"{score:.2f}"}, Anchor.NAME))
    return SetOutcome(frozenset(range(len(tools))), failures)


@register(
    "overlapping_descriptions",
    Target.TOOL_PAIR,
    options={"threshold": RATIO},
    required=("threshold",),
    details=("similarity",),
)
def overlapping_descriptions(tools: Sequence[Tool], options: Mapping[str, Any]) -> SetOutcome:
    """Cosine of TF-IDF vectors of the descriptions' content stems, idf taken over this tool set.

    Only pairs sharing a term are scored (an inverted index), so the cost follows shared vocabulary, not n².
    Tools without a description are not applicable.
    """
    threshold = options["threshold"]
    described = [i for i, t in enumerate(tools) if (t.description or "").strip()]
    vectors = tfidf_vectors([content_stems(tools[i].description or "") for i in described])
    postings: dict[str, list[tuple[int, float]]] = {}
    failures: list[Failure] = []
    for a, vec in enumerate(vectors):
        dots: dict[int, float] = {}
        for term, weight in vec.items():
            bucket = postings.setdefault(term, [])
            for b, other in bucket:
                dots[b] = dots.get(b, 0.0) + weight * other
            bucket.append((a, weight))
        for b, dot in sorted(dots.items()):
            if dot >= threshold - 1e-9:
                failures.append(Failure(described[b], described[a], {"similarity": f"{min(dot, 1.0):.2f}"},
                                        Anchor.DESCRIPTION))
    return SetOutcome(frozenset(described), failures)
