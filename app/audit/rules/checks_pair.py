"""Checks on pairs of tools: names a model can confuse, descriptions that say the same thing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from app.audit.models import Tool
from app.audit.rules.registry import RATIO, Anchor, Failure, SetOutcome, Target, register
from app.audit.text import content_stems, name_similarity, split_identifier, stem, tfidf_vectors

# Leading syllables that turn a word into its opposite: `install`/`uninstall` are opposites, not look-alikes.
NEGATIONS = ("un", "dis", "non", "de")


def _differing(
    a: tuple[str, ...], b: tuple[str, ...], sa: tuple[str, ...], sb: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Token lists `a`, `b` without the leading and trailing tokens they share (by their stems `sa`, `sb`)."""
    k = 0
    while k < len(a) and k < len(b) and sa[k] == sb[k]:
        k += 1
    m = 0
    while m < len(a) - k and m < len(b) - k and sa[-1 - m] == sb[-1 - m]:
        m += 1
    return a[k : len(a) - m], b[k : len(b) - m]


def _opposites(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    x, y = "_".join(a), "_".join(b)
    return any(x == n + y or y == n + x for n in NEGATIONS)


def name_pair_similarity(a: tuple[str, ...], b: tuple[str, ...], threshold: float = 0.0) -> float | None:
    """Similarity of two token lists where they differ; None when they cannot be near-duplicates.

    Names equal up to stemming (`get_issue`/`get_issues`) score on the whole names. Otherwise shared
    leading and trailing tokens are dropped and text.name_similarity compares the rest, so a shared
    namespace or object (`create_pull_request`/`get_pull_request` -> `create`/`get`) does not count.
    Names where one only adds words (`search`/`search_code`) and opposites (`star`/`unstar`) give None,
    and so do pairs whose length bound shows they cannot reach `threshold`.
    """
    ra, rb = _differing(a, b, _stems(a), _stems(b))
    if not ra and not rb:
        ra, rb = a, b
    elif not ra or not rb or _opposites(ra, rb):
        return None
    la, lb = sum(map(len, ra)) + len(ra) - 1, sum(map(len, rb)) + len(rb) - 1
    na, nb = len(set(ra)), len(set(rb))
    # Upper bounds of both parts of name_similarity: SequenceMatcher's ratio and the token Jaccard.
    if 2 * min(la, lb) / (la + lb) < threshold and min(na, nb) / max(na, nb) < threshold:
        return None
    return name_similarity("_".join(ra), "_".join(rb))


@lru_cache(maxsize=4096)
def _stems(tokens: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(stem(t) for t in tokens)


@register(
    "similar_names",
    Target.TOOL_PAIR,
    options={"threshold": RATIO},
    required=("threshold",),
    details=("similarity",),
)
def similar_names(tools: Sequence[Tool], options: Mapping[str, Any]) -> SetOutcome:
    """Pairs whose name_pair_similarity reaches `threshold`. All tools are applicable."""
    threshold = options["threshold"]
    tokens = [tuple(split_identifier(t.name)) for t in tools]
    failures: list[Failure] = []
    for i in range(len(tools)):
        for j in range(i + 1, len(tools)):
            score = name_pair_similarity(tokens[i], tokens[j], threshold)
            if score is not None and score >= threshold:
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
