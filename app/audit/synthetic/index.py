"""The synthetic selector's index: tool lists indexed once (each tool analysed once in analysis.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from app.audit.synthetic.analysis import ToolDoc
from app.audit.synthetic.profiles import Profile
from app.audit.text import TRANSPOSED, deletions, one_typo

# Letters two forms of a word must share before they are matched as one (discover/discoverer).
PREFIX = 5
# Length from which a word also matches its longer derivations (translate/translation).
DERIVED = 7


@dataclass(slots=True)
class ToolSetIndex:
    """One tool list, indexed: documents, document frequencies and postings for BM25.

    A derived index (a near-miss list: a cached list minus a few tools) shares its base's postings;
    `remap` then maps a base position to the position in this list (-1 for a removed tool).
    """

    docs: list[ToolDoc]
    df: dict[str, int]
    avgdl: float
    postings: dict[str, list[tuple[int, float]]]
    remap: list[int] | None = None
    # BM25 length normalisation of each document: k1 * (1 - b + b * length / avgdl).
    norms: list[float] = field(default_factory=list)
    # Terms by their first PREFIX letters, to match another form of a word (discover/discoverer).
    prefixes: dict[str, list[str]] = field(default_factory=dict)
    # Terms by each form with one letter left out (and as written), to find the word a typo misspells.
    deletions: dict[str, list[str]] = field(default_factory=dict)
    # The docs' embedding pieces, as one list, and where each doc's pieces are in it (filled on first use): the
    # similarity stacks a list's vectors once.
    texts: list[str] | None = None
    spans: list[tuple[int, int]] = field(default_factory=list)  # each doc's pieces: texts[start:end]

    def related(self, term: str) -> list[str]:
        """Terms of this list that are another form of `term`: one is the other plus at most 3 letters, or
        the other's derivation (a stem of DERIVED letters or more, less its last letter, opens it)."""
        if len(term) < PREFIX or term in self.postings:
            return []
        out = []
        for other in self.prefixes.get(term[:PREFIX], ()):
            short, long = (term, other) if len(term) <= len(other) else (other, term)
            close = long.startswith(short[: max(PREFIX, len(short) - 1)]) and len(long) - len(short) <= 3
            # A long word and its derivation (multiply/multiplication): all of the shorter but a letter.
            derived = len(short) >= DERIVED and long.startswith(short[:-1])
            if close or derived:
                out.append(other)
        return out or self.misspelt(term)

    def misspelt(self, term: str) -> list[str]:
        """Terms of this list that `term` misspells by one typo (`one_typo`), in order."""
        if len(term) < TRANSPOSED or not self.deletions:
            return []
        seen: set[str] = set()
        for key in (term, *sorted(deletions(term))):
            seen.update(self.deletions.get(key, ()))
        return sorted(t for t in seen if one_typo(term, t))

    @property
    def size(self) -> int:
        return len(self.docs)

    def idf(self, term: str) -> float:
        """BM25's idf, kept positive: ln(1 + (N - df + 0.5) / (df + 0.5))."""
        n = len(self.docs)
        df = self.df.get(term, 0)
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def with_norms(index: ToolSetIndex, profile: Profile) -> ToolSetIndex:
    k1, b = profile.bm25.k1, profile.bm25.b
    index.norms = [k1 * (1.0 - b + b * d.length / index.avgdl) for d in index.docs]
    return index


def build_index(docs: list[ToolDoc]) -> ToolSetIndex:
    df: dict[str, int] = {}
    postings: dict[str, list[tuple[int, float]]] = {}
    for i, doc in enumerate(docs):
        for term, tf in doc.terms.items():
            df[term] = df.get(term, 0) + 1
            postings.setdefault(term, []).append((i, tf))
    avgdl = sum(d.length for d in docs) / len(docs) if docs else 1.0
    prefixes: dict[str, list[str]] = {}
    by_deletion: dict[str, list[str]] = {}
    for term in sorted(postings):
        if len(term) >= PREFIX:
            prefixes.setdefault(term[:PREFIX], []).append(term)
        if len(term) >= TRANSPOSED - 1 and term.isalpha():
            for key in (term, *sorted(deletions(term))):
                by_deletion.setdefault(key, []).append(term)
    return ToolSetIndex(
        docs=docs, df=df, avgdl=avgdl or 1.0, postings=postings, prefixes=prefixes, deletions=by_deletion
    )


def derive_index(base: ToolSetIndex, kept: list[int]) -> ToolSetIndex:
    """The index of the base list reduced to the base positions `kept` (in order), sharing postings."""
    if base.remap is not None:
        raise ValueError("derive from a built index, not from a derived one")
    remap = [-1] * len(base.docs)
    for new, old in enumerate(kept):
        remap[old] = new
    df = dict(base.df)
    for old, doc in enumerate(base.docs):
        if remap[old] < 0:
            for term in doc.terms:
                df[term] -= 1
    docs = [base.docs[old] for old in kept]
    avgdl = sum(d.length for d in docs) / len(docs) if docs else 1.0
    return ToolSetIndex(
        docs=docs,
        df=df,
        avgdl=avgdl or 1.0,
        postings=base.postings,
        remap=remap,
        prefixes=base.prefixes,
        deletions=base.deletions,
    )
