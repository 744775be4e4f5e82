"""The synthetic selector: a deterministic heuristic that picks a tool (or NO_TOOL) for a request.

Algorithm (weights and thresholds come from selectors/synthetic.yml, the "profile"):

1. Index (once per tool list, cached in cache.py; a near-miss list, a cached list less a few
   tools, reuses that list's postings): each tool becomes weighted stem counts over its name and title
   (`fields.name`), description (`fields.description`), parameter names, descriptions and enum
   members (`fields.parameters`). Usage-boundary sentences are read apart: words of a "Use this
   when / Use for / Useful for" sentence count with `fields.boundary` and are remembered as the
   tool's boundary; words after "Do not use for / Don't use when / Not for" are not evidence for
   the tool but its exclusion list.
2. Request: its content stems (stopwords and lone letters dropped). A stem listed in `words.weak` (get,
   find, information...) weighs `words.weak_weight`, every other stem 1. A stem that no tool uses stands
   for the tools' other forms of the word (same first 5 letters, at most 3 letters longer:
   discovered/discoverer; or a derivation of a 7-letter stem: multiply/multiplication; else the word it
   misspells by one typo: two letters swapped in a word of 6 letters or more, one wrong, missing or extra in
   one of 7 or more, the first letter kept), and for the words of its synonym groups (`words.synonyms`) that
   the tools use, at `words.synonym_weight`. Values are
   also found in the request (values.py): quoted strings, numbers (also "two", "6mm"), bracketed lists,
   URLs, emails, paths, dates, times, owner/name strings, ids, capitalised names; a word written only
   inside a value ("acme" of acme/web) counts for coverage only when a tool has it.
3. Ranking: BM25 (k1, b from the profile; the shipped b is 0, no length normalisation, so a tool whose
   description grows keeps its score) of the request stems against each tool, with idf taken over the tool
   list and multiplied by the stem's weight. A tool whose exclusion list catches
   request stems loses that share of its score; a tool whose name's verb is of another kind of
   action (read, create, update, delete: `actions.verbs`) than the request's verbs loses
   `actions.penalty` of it ("find a hotel" prefers search_hotels to reserve_hotel); a tool whose
   parameters take the kinds of typed value the request gives gains up to `bm25.typed_boost` of it.
   When the profile has a `semantic` section, a sentence embedding (semantic.py; injected, the core holds
   no model) gives the cosine of the request with each tool's name and description, and tools are ranked
   by that score relative to the best one plus `semantic.blend` x cosine: a tool sharing no word can rank
   first, provided some tool shares one (a request that shares no word with any tool is answered NO_TOOL).
   With `semantic.reads: clauses` the ranking cosine is the best of the tool's pieces: each sentence of its
   description and that sentence's first clause, each opening of it, the whole (semantic.tool_pieces, each
   with the name), so a sentence appended or moved cannot dilute what the others said. The decision reads the
   whole text's cosine.
4. Abstention: the request's values are matched to the best-ranked tool's parameters (step 5), and
   the tool gets a decision score, the sum of its features (decision.py: coverage, specific words,
   required parameters filled, name words, typed values placed, margin over the runner-up, boundary
   and exclusion shares, a verb of another kind, its cosine, its cosine's lead over the other tools, whether
   words and embedding agree on the best tool...) weighted by `decision.*`. It is chosen when the
   score reaches `decision.threshold`; when it falls short, the runner-up is judged the same way and chosen
   if it reaches the threshold (a ranking decided by a hair must not make NO_TOOL of a fitting tool);
   otherwise the answer is NO_TOOL, and the reason (explain.py)
   names the request's words no tool covers, those the best tool lacks, and its score against the
   threshold. The weights were fitted on the development cases by bench/fit_selector.py.
5. Arguments: request values are matched to the chosen tool's parameters (arguments.py):
   required parameters first, only keys of the schema, integers for integer parameters, enum members
   the request names, dates and times in the format a parameter's description asks for.
6. Confidence: 0.5 + 0.5 * min(distance of the decision score from the threshold / confidence.scale,
   relative ranking margin over the runner-up), clipped to [0, 1]. The reason names the matched words.

Ranking (step 3) lives in ranking.py, a ranked tool's judgement in judgement.py, the answer in answer.py.

Everything is ordered and tie-broken by position in the tool list, so the same tools and request
give byte-identical answers.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.audit.models import NO_TOOL, Mode
from app.audit.results import Selection, SelectorInfo
from app.audit.selection import SelectionRequest
from app.audit.synthetic.analysis import ToolDoc, action_kinds, synonym_map
from app.audit.synthetic.answer import answer
from app.audit.synthetic.cache import IndexCache
from app.audit.synthetic.decision import Evidence, typed_kinds
from app.audit.synthetic.explain import no_word_reason
from app.audit.synthetic.index import ToolSetIndex
from app.audit.synthetic.judgement import Scored, decide
from app.audit.synthetic.profiles import Profile, read_profile
from app.audit.synthetic.query import Query, read_request, request_words
from app.audit.synthetic.ranking import rank_tools
from app.audit.synthetic.semantic import (
    Cosines,
    Similarity,
    blended_top,
    checked_similarity,
    pieces_spans,
    read_cosines,
    tool_pieces,
    word_top,
)
from app.audit.synthetic.values import Found, find_values
from app.audit.text import match_stem, words


class SyntheticSelector:
    """Deterministic heuristic selector; see the module docstring for the algorithm."""

    def __init__(self, profile: Profile, *, similarity: Similarity | None = None) -> None:
        self.profile = profile
        self._similarity = checked_similarity(profile, similarity)
        self._weak = frozenset(match_stem(w) for w in profile.words.weak)
        self._action_of = action_kinds(profile)
        self._synonyms = synonym_map(profile.words.synonyms)
        self._cache = IndexCache(profile)

    @classmethod
    def from_profile(cls, path: Path | None = None, *, similarity: Similarity | None = None) -> SyntheticSelector:
        """Load a profile (default: the shipped selectors/synthetic.yml) and build the selector; a profile
        with a `semantic` section needs `similarity` (app/selector_factory.py supplies it)."""
        return cls(read_profile(path), similarity=similarity)

    @property
    def info(self) -> SelectorInfo:
        return SelectorInfo(
            mode=Mode.SYNTHETIC, name="synthetic", profile_hash=self.profile.hash, settings=self.profile.settings()
        )

    def select_many(self, requests: Sequence[SelectionRequest]) -> list[Selection]:
        self._prepare(requests)
        return [self.select(req.tools, req.intent) for req in requests]

    def rank_many(self, requests: Sequence[SelectionRequest], *, k: int = 3) -> list[list[str]]:
        """The names of the `k` best-ranked tools for each request, best first (the tool `select` answers
        with comes first unless it abstains): words and embedding blended as in step 3. A request that shares
        no word with any tool is ranked by its cosine alone; with no embedding, such a request ranks none."""
        self._prepare(requests)
        out: list[list[str]] = []
        for req in requests:
            if not req.tools:
                out.append([])
                continue
            index = self._cache.index_for(req.tools)
            _, _, _, scores, cosines = self._scores(req.tools, req.intent, index, always_cosines=True)
            if cosines is not None:
                ranked = blended_top(scores, cosines, self.profile.semantic.blend if self.profile.semantic else 0, k=k)
            else:
                ranked = heapq.nsmallest(k, scores.items(), key=lambda r: (-r[1], r[0]))
            out.append([index.docs[i].name for i, _ in ranked])
        return out

    def _prepare(self, requests: Sequence[SelectionRequest]) -> None:
        if self._similarity is not None and len(requests) > 1:
            lists = {id(r.tools): r.tools for r in requests}.values()
            # Near-miss lists hold the full list's tool objects: each tool's text is made once.
            tool_texts = {id(t): t for tools in lists for t in tools}
            reads = self.profile.semantic.reads if self.profile.semantic else "whole"
            pieces = [p for t in tool_texts.values() for p in tool_pieces(t, reads)]
            texts = [meant(r.intent) for r in requests] + pieces
            self._similarity.prepare(list(dict.fromkeys(texts)))

    def select(self, tools: list[dict[str, Any]], intent: str) -> Selection:
        """Pick one of `tools` for `intent`, or NO_TOOL."""
        if not tools:
            return Selection(tool=NO_TOOL, confidence=1.0, reason="no tools offered")
        best, _, index = self._best(tools, intent)
        if best is None:
            return Selection(tool=NO_TOOL, confidence=1.0, reason=no_word_reason(request_words(intent)))
        return answer(index, best, self.profile, semantic=self._similarity is not None)

    def decision_score(self, tools: list[dict[str, Any]], intent: str) -> float | None:
        """The decision score of the best-ranked tool (None when no tool shares a word with the request)."""
        if not tools:
            return None
        best, _, _ = self._best(tools, intent)
        return None if best is None else best.decision

    def evidence(self, tools: list[dict[str, Any]], intent: str) -> tuple[str, Evidence] | None:
        """The best-ranked tool's name and decision features (what bench/fit_selector.py fits on)."""
        best, _, index = self._best(tools, intent) if tools else (None, 0.0, None)
        return None if best is None or index is None else (index.docs[best.position].name, best.evidence)

    def _scores(
        self, tools: list[dict[str, Any]], intent: str, index: ToolSetIndex, *, always_cosines: bool = False
    ) -> tuple[Query, Found, frozenset[str], dict[int, float], Cosines | None]:
        """The request as read, its values, the kinds of action its verbs name, the word score of every tool
        sharing a word with it, and the cosines with every tool: None without an embedding, or when no tool shares
        a word unless `always_cosines`."""
        found = find_values(intent)
        # An owner/name string ("acme/billing-api") says where, in words its owner chose: no evidence for a tool
        # (its "api" does not make search_repositories the tool for 'Search issues for "x" in acme/billing-api').
        read = intent
        for name in found.owner_names:
            read = read.replace(name, " ")
        query = read_request(
            read, index, found.value_words, weak=self._weak, weak_weight=self.profile.words.weak_weight,
            synonyms=self._synonyms, synonym_weight=self.profile.words.synonym_weight,
        )  # fmt: skip
        actions = self._actions(intent)
        scores = rank_tools(index, query, actions, typed_kinds(found), self.profile)
        cosines = None
        wanted = bool(scores) or always_cosines
        if wanted and self._similarity is not None and self.profile.semantic is not None:
            if index.texts is None:
                reads = self.profile.semantic.reads
                pieces = [_pieces_of(doc, tool, reads) for doc, tool in zip(index.docs, tools, strict=True)]
                index.spans = pieces_spans([len(own) for own in pieces])
                index.texts = [p for own in pieces for p in own]
            flat = self._similarity.similarities(meant(intent), index.texts)
            cosines = Cosines.of_spans(flat, index.spans)
        return query, found, actions, scores, cosines

    def _best(self, tools: list[dict[str, Any]], intent: str) -> tuple[Scored | None, float, ToolSetIndex]:
        index = self._cache.index_for(tools)
        query, found, actions, scores, cosines = self._scores(tools, intent, index)
        if not scores:  # no tool shares a word: NO_TOOL (the embedding alone calls too many, bench/RESULTS.md)
            return None, 0.0, index
        if cosines is not None and self.profile.semantic is not None:
            ranked = blended_top(scores, cosines, self.profile.semantic.blend)
        else:
            ranked = heapq.nsmallest(2, scores.items(), key=lambda r: (-r[1], r[0]))
        if not ranked:
            return None, 0.0, index
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        best = self._judged(index, ranked[0], runner_up, query, found, intent, actions, scores, cosines)
        if best.decision < self.profile.decision.threshold and len(ranked) > 1:
            # The runner-up is judged too when the best-ranked tool falls short: a ranking decided by a hair (a
            # long catch-all tool a little ahead on words) must not turn a fitting tool into NO_TOOL. Its margin
            # over the best is 0, which its decision score counts against it.
            second = self._judged(index, ranked[1], ranked[0][1], query, found, intent, actions, scores, cosines)
            if second.decision >= self.profile.decision.threshold:
                return second, ranked[0][1], index
        return best, runner_up, index

    def _judged(
        self,
        index: ToolSetIndex,
        ranked: tuple[int, float],
        other: float,
        query: Query,
        found: Found,
        intent: str,
        actions: frozenset[str],
        scores: dict[int, float],
        cosines: Cosines | None,
    ) -> Scored:
        """One ranked tool's decision: its features (against the `other` ranked tool's score) and their score."""
        judged = decide(index, ranked, other, query, found, intent, actions, weak=self._weak, synonyms=self._synonyms)
        if cosines is not None:
            read_cosines(judged.evidence, judged.position, cosines, word_top(scores))
        judged.decision = judged.evidence.score(self.profile.decision)
        return judged

    def _actions(self, intent: str) -> frozenset[str]:
        """Kinds of action the request's verbs name (read, create, update, delete...)."""
        return frozenset(k for k in (self._action_of.get(match_stem(w)) for w in words(intent)) if k)


_QUOTED = re.compile(r'"[^"\n]{1,200}"|“[^”\n]{1,200}”')


@lru_cache(maxsize=4096)
def meant(intent: str) -> str:
    """What the embedding reads of a request: quoted text taken out, since it is data the tool is given ('Type the
    text "the release is out"'), not what the request asks for; kept when it is most of the request ('tool prompt
    "Find a recent news article"')."""
    rest = re.sub(r"\s+([?.!,])", r"\1", _QUOTED.sub("", intent)).strip()
    return rest if len(rest.split()) >= 3 else intent


def _pieces_of(doc: ToolDoc, tool: dict[str, Any], reads: str) -> tuple[str, ...]:
    """What the embedding reads of a tool, kept on its analysed doc (shared by every list that holds the tool):
    it depends only on the name, title and description, which are part of the key the doc is cached by (and on
    the profile, which a cache belongs to)."""
    if doc.pieces is None:
        doc.pieces = tool_pieces(tool, reads)
    return doc.pieces
