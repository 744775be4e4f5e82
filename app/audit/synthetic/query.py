"""The request as the synthetic selector reads it: its stems and weights, and the tool-list terms for each."""

from __future__ import annotations

from dataclasses import dataclass

from app.audit.synthetic.analysis import analysed_words
from app.audit.synthetic.index import ToolSetIndex


@dataclass(slots=True)
class Query:
    """The request's stems: `terms` (tool-list term -> weight) ranks; `groups` measure coverage.

    A group is one request stem with its weight and the terms that stand for it in the tool list (itself
    or another form of it with factor 1, a synonym with `words.synonym_weight`).
    """

    terms: dict[str, float]
    groups: list[tuple[str, float, dict[str, float]]]
    surface: dict[str, str]  # request stem -> the word as the request wrote it
    in_values: frozenset[str]  # request stems written only inside values: they count only when matched


def _is_word(stem: str) -> bool:
    return len(stem) > 1 or stem.isdigit()  # a lone letter ("what's" -> s) is not a word of the request


def read_request(
    intent: str,
    index: ToolSetIndex,
    value_words: frozenset[str],
    *,
    weak: frozenset[str],
    weak_weight: float,
    synonyms: dict[str, tuple[str, ...]],
    synonym_weight: float,
) -> Query:
    """Request stems with their weights, and the tool-list terms that stand for each."""
    terms: dict[str, float] = {}
    groups: list[tuple[str, float, dict[str, float]]] = []
    surface: dict[str, str] = {}
    analysed = analysed_words(intent)
    outside = {s for s, written in analysed if written not in value_words}
    for s, written in analysed:
        if s in surface:
            continue
        surface[s] = written
        if not _is_word(s):
            continue
        weight = weak_weight if s in weak else 1.0
        candidates = dict.fromkeys(index.related(s) or [s], 1.0)
        # A word only inside a value ("invoice export" quoted, a repository's name) is data, not the request's own
        # vocabulary: it matches as written, never through a synonym.
        for other in synonyms.get(s, ()) if s in outside else ():
            for term in index.related(other) or [other]:
                if term in index.postings:
                    candidates.setdefault(term, synonym_weight)
        for term, factor in candidates.items():
            terms[term] = max(terms.get(term, 0.0), weight * factor)
        groups.append((s, weight, candidates))
    return Query(terms, groups, surface, frozenset(s for s in surface if s not in outside))


def request_words(intent: str) -> list[str]:
    """The request's content words as written, once each (for a reason that names them)."""
    return list(dict.fromkeys(w for s, w in analysed_words(intent) if _is_word(s)))


def in_list(index: ToolSetIndex, term: str) -> bool:
    """True when some tool of this (possibly derived) list has `term`."""
    postings = index.postings.get(term)
    if not postings:
        return False
    return index.remap is None or any(index.remap[i] >= 0 for i, _ in postings)
