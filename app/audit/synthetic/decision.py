"""The synthetic selector's decision: the evidence that the best-ranked tool serves the request, as features.

Each feature is a number read from the request, the tool and the values found in the request; the decision
score is their sum weighted by the profile's `decision` weights (fitted by bench/fit_selector.py), and the
tool is chosen when it reaches `decision.threshold`. When it does not, `missing` says in words what the
tool lacked, for the NO_TOOL reason.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from app.audit.synthetic.analysis import ToolDoc
from app.audit.synthetic.arguments import Filled, param_kind
from app.audit.synthetic.profiles import Decision
from app.audit.synthetic.values import Found

# Kinds of value a request may carry and the parameter kinds that take them (arguments.param_kind).
_TYPED = ("path", "owner_name", "url", "email", "date", "time", "identifier")


@dataclass(slots=True)
class Evidence:
    """The decision features of one tool for one request (see DECISION_FEATURES for their meaning)."""

    coverage_log: float  # ln((1 + matched request word weight) / (1 + request word weight))
    specific_words: float  # 1 when two or more non-weak request words are found in the tool
    required_filled: float  # share of required parameters filled from request values (0.5 with none)
    name_words: float  # share of the tool name's words the request uses
    request_values: float  # 1 when the request carries values
    boundary: float  # share of request word weight inside the tool's "Use this when/for" sentence
    exclusion: float  # share of the matched weight only the "Do not use for" clause explains
    typed_values: float  # share of the request's typed values (paths, repos, dates...) a parameter takes
    typed_unplaced: float  # 1 when the request carries typed values and no parameter takes any of them
    unmatched_words: float  # ln(1 + non-weak request words the tool does not have)
    synonym_share: float  # share of the matched weight that only synonyms of the request's words match
    core_share: float  # share of the matched weight in the tool's name, title or first sentence
    name_objects: float  # share of the name's non-verb words the request names (itself, a form, a synonym)
    margin: float  # ranking margin over the runner-up, relative to the best (1 with one tool)
    long_words: float  # ln(1 + letters past the third of the non-weak request words found in the tool)
    question: float  # 1 when the request asks what/who/why/how something is (often general knowledge)
    action_conflict: float  # 1 when the request's verbs are of other kinds of action than the tool name's verb
    semantic_cosine: float = 0.0  # cosine of the request's and the tool's sentence embeddings (semantic.py)
    semantic_margin: float = 0.0  # that cosine less the best other tool's (0 with one tool)
    semantic_agree: float = 0.0  # 1 when word matching and the embedding rank the same tool first

    def score(self, d: Decision) -> float:
        return (
            d.coverage * self.coverage_log
            + d.specific_words * self.specific_words
            + d.required_filled * self.required_filled
            + d.name_words * self.name_words
            + d.request_values * self.request_values
            + d.boundary_bonus * self.boundary
            - d.exclusion_penalty * self.exclusion
            + d.typed_values * self.typed_values
            - d.typed_unplaced * self.typed_unplaced
            - d.unmatched_words * self.unmatched_words
            + d.synonym_share * self.synonym_share
            + d.core_share * self.core_share
            + d.name_objects * self.name_objects
            + d.margin * self.margin
            + d.long_words * self.long_words
            + d.question * self.question
            - d.action_conflict * self.action_conflict
            + d.semantic_cosine * self.semantic_cosine
            + d.semantic_margin * self.semantic_margin
            + d.semantic_agree * self.semantic_agree
        )


def typed_kinds(found: Found) -> set[str]:
    """Kinds of typed value in the request (a number counts when written as an integer id or count)."""
    pools = {
        "path": found.paths, "owner_name": found.owner_names, "url": found.urls, "email": found.emails,
        "date": found.dates, "time": found.times, "identifier": found.identifiers,
    }  # fmt: skip
    return {k for k in _TYPED if pools[k]}


def param_kinds(doc: ToolDoc) -> frozenset[str]:
    """Kinds of typed value the tool's parameters take; a parameter named like an id (the profile's
    `words.identifier`) takes identifiers."""
    if doc.value_kinds is None:
        out: set[str] = set()
        for p in doc.params:
            kind = param_kind(p) if p.type in ("string", "", "array") else ""
            if kind:
                out.add(kind)
        if doc.takes_identifier:
            out.add("identifier")
        doc.value_kinds = frozenset(out)
    return doc.value_kinds


# "What is ...", "Who are ...", "Why does ...", "How do ...": a question about how things are.
_QUESTION = re.compile(r"\s*(?:what|who|why|how|which)(?:'s|\s+(?:is|are|was|were|does|do|did))\b", re.IGNORECASE)


def gather(
    doc: ToolDoc,
    *,
    total: float,
    got: float,
    by_synonym: float,
    in_core: float,
    matched_terms: set[str],
    margin: float,
    long_letters: int,
    intent: str,
    actions: frozenset[str],
    specific: int,
    unmatched: int,
    filled: Filled,
    boundary: float,
    exclusion: float,
    found: Found,
    query_terms: set[str],
) -> Evidence:
    """`query_terms`: the request's stems and their other forms in the tool list (synonyms left out)."""
    required_share = filled.required_found / filled.required if filled.required else 0.5
    name_share = sum(1 for t in doc.name_terms if t in query_terms) / len(doc.name_terms) if doc.name_terms else 0.0
    kinds = typed_kinds(found)
    placed = kinds & param_kinds(doc)
    return Evidence(
        coverage_log=math.log((1.0 + got) / (1.0 + total)),
        specific_words=1.0 if specific >= 2 else 0.0,
        required_filled=required_share,
        name_words=name_share,
        request_values=1.0 if found.kinds() or found.propers else 0.0,
        boundary=boundary,
        exclusion=exclusion,
        typed_values=len(placed) / len(kinds) if kinds else 0.0,
        typed_unplaced=1.0 if kinds and not placed else 0.0,
        unmatched_words=math.log1p(unmatched),
        synonym_share=by_synonym / got if got else 0.0,
        core_share=in_core / got if got else 0.0,
        name_objects=len(doc.object_terms & matched_terms) / len(doc.object_terms) if doc.object_terms else 0.0,
        margin=margin,
        long_words=math.log1p(long_letters),
        question=1.0 if _QUESTION.match(intent) else 0.0,
        action_conflict=1.0 if actions and doc.action is not None and doc.action not in actions else 0.0,
    )
