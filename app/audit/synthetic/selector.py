"""The synthetic selector: a deterministic heuristic that picks a tool (or NO_TOOL) for a request.

Algorithm (weights and thresholds come from selectors/synthetic.yml, the "profile"):

1. Index (once per tool list, cached in cache.py; a near-miss list, a cached list less a few
   tools, reuses that list's postings): each tool becomes weighted stem counts over its name and title
   (`fields.name`), description (`fields.description`), parameter names, descriptions and enum
   members (`fields.parameters`). Usage-boundary sentences are read apart: words of a "Use this
   when / Use for / Useful for" sentence count with `fields.boundary` and are remembered as the
   tool's boundary; words after "Do not use for / Don't use when / Not for" are not evidence for
   the tool but its exclusion list.
2. Request: its content stems (stopwords dropped). A stem listed in `words.weak` (get, find,
   information...) weighs `words.weak_weight`, every other stem 1. A stem that no tool uses stands
   for the tools' other forms of the word (same first 5 letters, at most 3 letters longer:
   discovered/discoverer). Values are also found in the request (values.py): quoted
   strings, numbers (also "two", "6mm"), bracketed lists, URLs, emails, paths, dates, times,
   owner/name strings, capitalised names.
3. Ranking: BM25 (k1, b from the profile) of the request stems against each tool, with idf taken
   over the tool list and multiplied by the stem's weight. A tool whose exclusion list catches
   request stems loses that share of its score; a tool whose name's verb is of another kind of
   action (read, create, update, delete: `actions.verbs`) than the request's verbs loses
   `actions.penalty` of it ("find a hotel" prefers search_hotels to reserve_hotel).
4. Abstention: the request's values are matched to the best-ranked tool's parameters (step 5), and
   the tool gets a decision score
       coverage * ln((1 + matched stem weight) / (1 + request stem weight))
     + specific_words   if two or more non-weak request stems are found in the tool
     + required_filled * (share of required parameters filled from request values; 0.5 with none)
     + name_words * (share of the tool name's stems that the request uses)
     + request_values   if the request carries values (numbers, quoted text, paths, dates, names...)
     + boundary_bonus * (share of the request's stem weight inside the tool's boundary sentence)
     - exclusion_penalty * (share of matched weight that only the exclusion list explains)
   It is chosen when the score reaches `decision.threshold`; otherwise the answer is NO_TOOL.
   (These weights were fitted once by a logistic regression on the development cases, then rounded.)
5. Arguments: request values are matched to the chosen tool's parameters (arguments.py):
   required parameters first, only keys of the schema, integers for integer parameters, enum members
   the request names, dates and times in the format a parameter's description asks for.
6. Confidence: 0.5 + 0.5 * min(distance of the decision score from the threshold / confidence.scale,
   relative ranking margin over the runner-up), clipped to [0, 1]. The reason names the matched words.

Everything is ordered and tie-broken by position in the tool list, so the same tools and request
give byte-identical answers.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.audit.models import NO_TOOL, Mode
from app.audit.results import Selection, SelectorInfo
from app.audit.selection import SelectionRequest
from app.audit.synthetic.arguments import Filled, fill_arguments
from app.audit.synthetic.cache import IndexCache
from app.audit.synthetic.index import ToolDoc, ToolSetIndex, action_kinds, analysed_stems
from app.audit.synthetic.profiles import PROFILE_FILE, SCHEMA_FILE, Profile, load_profile
from app.audit.synthetic.values import Found, find_values
from app.audit.text import match_stem, words


@dataclass(slots=True)
class _Scored:
    position: int
    rank: float
    matched: list[str]
    decision: float
    coverage: float
    filled: Filled
    boundary: float
    exclusion: float


class SyntheticSelector:
    """Deterministic heuristic selector; see the module docstring for the algorithm."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self._weak = frozenset(match_stem(w) for w in profile.words.weak)
        self._action_of = action_kinds(profile)
        self._cache = IndexCache(profile)

    @classmethod
    def from_profile(cls, path: Path | None = None) -> SyntheticSelector:
        """Load a profile (default: the shipped selectors/synthetic.yml) and build the selector."""
        from app.resources import selectors_dir

        base = selectors_dir()
        return cls(load_profile(path or base / PROFILE_FILE, schema_path=base / SCHEMA_FILE))

    @property
    def info(self) -> SelectorInfo:
        return SelectorInfo(
            mode=Mode.SYNTHETIC, name="synthetic", profile_hash=self.profile.hash, settings=self.profile.settings()
        )

    def select_many(self, requests: Sequence[SelectionRequest]) -> list[Selection]:
        return [self.select(req.tools, req.intent) for req in requests]

    def select(self, tools: list[dict[str, Any]], intent: str) -> Selection:
        """Pick one of `tools` for `intent`, or NO_TOOL."""
        if not tools:
            return Selection(tool=NO_TOOL, confidence=1.0, reason="no tools offered")
        index = self._cache.index_for(tools)
        query = self._query(intent, index)
        ranked = self._rank(index, query, self._actions(intent))
        if not ranked:
            return Selection(tool=NO_TOOL, confidence=1.0, reason="no word of the request appears in any tool")
        found = find_values(intent)
        best = self._decide(index.docs[ranked[0][0]], ranked[0], query, found, intent)
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        return self._answer(index, best, runner_up)

    def decision_score(self, tools: list[dict[str, Any]], intent: str) -> float | None:
        """The decision score of the best-ranked tool (None when no tool shares a word with the request)."""
        if not tools:
            return None
        index = self._cache.index_for(tools)
        query = self._query(intent, index)
        ranked = self._rank(index, query, self._actions(intent))
        if not ranked:
            return None
        return self._decide(index.docs[ranked[0][0]], ranked[0], query, find_values(intent), intent).decision

    def _query(self, intent: str, index: ToolSetIndex) -> dict[str, float]:
        """Request stems with their weights; a stem absent from the tools stands for its other forms there."""
        weak = self.profile.words.weak_weight
        query: dict[str, float] = {}
        for s in dict.fromkeys(analysed_stems(intent)):
            weight = weak if s in self._weak else 1.0
            for term in index.related(s) or [s]:
                query.setdefault(term, weight)
        return query

    def _actions(self, intent: str) -> frozenset[str]:
        """Kinds of action the request's verbs name (read, create, update, delete...)."""
        return frozenset(k for k in (self._action_of.get(match_stem(w)) for w in words(intent)) if k)

    def _rank(self, index: ToolSetIndex, query: dict[str, float], actions: frozenset[str]) -> list[tuple[int, float]]:
        """The best and the runner-up (position, BM25 score less exclusion and action penalties), best first."""
        scores: dict[int, float] = {}
        k1 = self.profile.bm25.k1
        remap, norms = index.remap, index.norms
        for term, weight in query.items():
            postings = index.postings.get(term)
            if not postings or not index.df.get(term):
                continue
            idf = index.idf(term) * weight * (k1 + 1.0)
            for base_position, tf in postings:
                i = base_position if remap is None else remap[base_position]
                if i < 0:
                    continue
                scores[i] = scores.get(i, 0.0) + idf * tf / (tf + norms[i])
        top: list[tuple[int, float]] = []
        for i, score in scores.items():
            doc = index.docs[i]
            if doc.exclusion_terms:
                score *= 1.0 - _exclusion_share(doc, query, _matched(doc, query))
            if actions:
                kind = doc.action
                if kind is not None and kind not in actions:
                    score *= 1.0 - self.profile.actions.penalty
            top.append((i, score))
        return heapq.nsmallest(2, top, key=lambda r: (-r[1], r[0]))

    def _decide(
        self, doc: ToolDoc, ranked: tuple[int, float], query: dict[str, float], found: Found, intent: str
    ) -> _Scored:
        d = self.profile.decision
        total = sum(query.values())
        matched = _matched(doc, query)
        got = sum(query[t] for t in matched)
        specific = sum(1 for t in matched if t not in self._weak)
        boundary = sum(query[t] for t in matched if t in doc.boundary_terms) / (total or 1.0)
        exclusion = _exclusion_share(doc, query, matched)
        filled = fill_arguments(doc.params, intent, found)
        required_share = filled.required_found / filled.required if filled.required else 0.5
        name_share = sum(1 for t in doc.name_terms if t in query) / len(doc.name_terms) if doc.name_terms else 0.0
        score = (
            d.coverage * math.log((1.0 + got) / (1.0 + total))
            + (d.specific_words if specific >= 2 else 0.0)
            + d.required_filled * required_share
            + d.name_words * name_share
            + (d.request_values if found.kinds() or found.propers else 0.0)
            + d.boundary_bonus * boundary
            - d.exclusion_penalty * exclusion
        )
        return _Scored(ranked[0], ranked[1], matched, score, got / (total or 1.0), filled, boundary, exclusion)

    def _answer(self, index: ToolSetIndex, best: _Scored, runner_up: float) -> Selection:
        d = self.profile.decision
        scale = self.profile.confidence.scale
        doc = index.docs[best.position]
        above = (best.decision - d.threshold) / scale
        words_text = ", ".join(repr(t) for t in best.matched[:6])
        evidence = f"{doc.name} matched {words_text} (coverage {best.coverage:.2f}, score {best.decision:.2f})"
        if best.decision < d.threshold:
            confidence = _clip(0.5 + 0.5 * min(1.0, -above))
            return Selection(
                tool=NO_TOOL,
                confidence=confidence,
                reason=f"best candidate {evidence} is below the threshold {d.threshold:.2f}",
            )
        margin = 1.0 if index.size == 1 or best.rank <= 0 else (best.rank - runner_up) / best.rank
        confidence = _clip(0.5 + 0.5 * min(1.0, above, margin))
        notes = []
        if best.filled.required:
            notes.append(f"{best.filled.required_found:g}/{best.filled.required} required values found")
        if best.boundary > 0:
            notes.append("fits its usage boundary")
        if best.exclusion > 0:
            notes.append("despite its exclusion clause")
        return Selection(
            tool=doc.name, arguments=best.filled.arguments, confidence=confidence, reason="; ".join([evidence, *notes])
        )


def _matched(doc: ToolDoc, query: dict[str, float]) -> list[str]:
    return [t for t in query if t in doc.terms]


def _exclusion_share(doc: ToolDoc, query: dict[str, float], matched: list[str]) -> float:
    """Share of the request's matched weight that only the tool's "do not use for" words explain."""
    if not doc.exclusion_terms:
        return 0.0
    ex = sum(w for t, w in query.items() if t in doc.exclusion_terms)
    if ex == 0:
        return 0.0
    pos = sum(query[t] for t in matched)
    return ex / (ex + pos)


def _clip(x: float) -> float:
    return round(min(1.0, max(0.0, x)), 4)
