"""The synthetic selector's ranking: BM25 of the request's stems against each tool, with its penalties and boost."""

from __future__ import annotations

from app.audit.synthetic.analysis import ToolDoc
from app.audit.synthetic.decision import param_kinds
from app.audit.synthetic.index import ToolSetIndex
from app.audit.synthetic.profiles import Profile
from app.audit.synthetic.query import Query


def rank_tools(
    index: ToolSetIndex, query: Query, actions: frozenset[str], kinds: set[str], profile: Profile
) -> dict[int, float]:
    """Position -> BM25 score less exclusion and action penalties, plus the typed-value boost, of every
    tool that shares a word with the request."""
    boost = profile.bm25.typed_boost if kinds else 0.0
    scores: dict[int, float] = {}
    k1 = profile.bm25.k1
    remap, norms = index.remap, index.norms
    for term, weight in query.terms.items():
        postings = index.postings.get(term)
        if not postings or not index.df.get(term):
            continue
        idf = index.idf(term) * weight * (k1 + 1.0)
        for base_position, tf in postings:
            i = base_position if remap is None else remap[base_position]
            if i < 0:
                continue
            scores[i] = scores.get(i, 0.0) + idf * tf / (tf + norms[i])
    for i, score in scores.items():
        doc = index.docs[i]
        if doc.exclusion_terms:
            score *= 1.0 - exclusion_share(doc, query.terms)
        if actions:
            kind = doc.action
            if kind is not None and kind not in actions:
                score *= 1.0 - profile.actions.penalty
        if boost:
            score *= 1.0 + boost * len(kinds & param_kinds(doc)) / len(kinds)
        scores[i] = score
    return scores


def exclusion_share(doc: ToolDoc, terms: dict[str, float]) -> float:
    """Share of the request's matched weight that only the tool's "do not use for" words explain."""
    if not doc.exclusion_terms:
        return 0.0
    ex = sum(w for t, w in terms.items() if t in doc.exclusion_terms)
    if ex == 0:
        return 0.0
    pos = sum(w for t, w in terms.items() if t in doc.terms)
    return ex / (ex + pos)
