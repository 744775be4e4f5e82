"""The synthetic selector's semantic signal: the Similarity protocol it is given, and what it reads from it.

The core holds no model: a Similarity (app/semantic/ builds one over a sentence embedding) is injected by
app/selector_factory.py. It answers the cosine of a request with each tool's text, rounded (`DECIMALS`) so
that floating-point differences between machines do not flip a decision.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from app.audit.synthetic.analysis import says_something, without_asker
from app.audit.synthetic.decision import Evidence
from app.audit.synthetic.profiles import Profile
from app.errors import SelectorError

# Cosines are rounded to this many decimals by every Similarity.
DECIMALS = 3


class Similarity(Protocol):
    """Cosine similarity of one request with several texts, each rounded to DECIMALS."""

    @property
    def model(self) -> str:
        """The model's name."""
        ...

    @property
    def weights_sha256(self) -> str:
        """sha256 of the model's weights file (the profile names the one it was fitted with)."""
        ...

    def similarities(self, request: str, texts: Sequence[str]) -> list[float]: ...

    def prepare(self, texts: Sequence[str]) -> None:
        """Compute the vectors of texts about to be compared, together (faster than one by one)."""
        ...


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def tool_text(tool: dict[str, Any]) -> str:
    """What the embedding reads of a tool: its name as words, its title and its description."""
    name = tool.get("name")
    name = name if isinstance(name, str) else ""
    words = _CAMEL.sub(" ", name).replace("_", " ").replace("-", " ").replace(".", " ")
    parts = [words.strip()]
    for key in ("title", "description"):
        value = tool.get(key)
        if isinstance(value, str) and value.strip():
            parts.append(value.strip())
    return ": ".join(p for p in parts if p)


# Sentences of a description read apart, at most (a long description's later sentences count in its whole text).
MAX_SENTENCES = 4
# Where a sentence ends: . ! or ? before white space, or a line end; where a clause ends inside it: , ; : or a dash
# between spaces.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\s*\n\s*")
_CLAUSE_END = re.compile(r"[,;:](?=\s)|\s[-\u2013\u2014]\s")


def tool_pieces(tool: dict[str, Any], reads: str) -> tuple[str, ...]:
    """What the embedding reads of a tool, as pieces whose best cosine ranks it; the last piece is the whole text,
    the one the decision reads: `tool_text`, less who asks (`without_asker`) and the sentences that are left with
    nothing to say. `reads` "whole": `tool_text` alone. "clauses": before the whole, for each of the description's
    first MAX_SENTENCES sentences, the name with its first clause and with the whole sentence; then the name with
    each opening of the description that ends at a sentence end. A sentence appended to a description keeps every
    piece the tool had but its whole text, and reordered sentences keep every sentence's pieces, so neither can
    lower a tool's rank by diluting what it said (the metamorphic benchmark in bench/RESULTS.md)."""
    if reads != "clauses":
        return (tool_text(tool),)
    description = tool.get("description")
    text = without_asker(description).strip() if isinstance(description, str) else ""
    split = [x.strip() for x in _SENTENCE_END.split(text) if x.strip()]
    sentences = [x for x in split if says_something(x)]
    if len(sentences) < len(split):  # "Use this when ." once who asks is gone: nothing to read
        text = " ".join(sentences)
    whole = tool_text({**tool, "description": text})
    head = tool_text({k: tool.get(k) for k in ("name", "title")})

    def said(part: str) -> str:
        return f"{head}: {part}" if head else part

    pieces: list[str] = []
    for sentence in sentences[:MAX_SENTENCES]:
        clause = _CLAUSE_END.search(sentence)
        if clause:
            pieces.append(said(sentence[: clause.start() + (1 if clause.group(0)[0] in ",;:" else 0)]))
        pieces.append(said(sentence))
    for end in range(2, min(len(sentences), MAX_SENTENCES + 1)):
        pieces.append(said(" ".join(sentences[:end])))
    pieces.append(whole)
    # Every piece ends as a sentence does: the embedding moves on a final full stop (0.06 of cosine seen), and
    # whether a description ends with one says nothing of the tool.
    return tuple(dict.fromkeys(_ended(p) for p in pieces if p))


def _ended(text: str) -> str:
    text = text.rstrip()
    return text if not text or text[-1] in ".!?,;:" else text + "."


@dataclass(frozen=True, slots=True)
class Cosines:
    """The request's cosine with each offered tool, by position: `values` ranks (the best of its pieces),
    `whole` is its whole text's (the decision's)."""

    values: list[float]
    whole: list[float]

    @classmethod
    def of_spans(cls, flat: Sequence[float], spans: Sequence[tuple[int, int]]) -> Cosines:
        """From the cosines of every piece, in order, each tool's pieces a run of them, flat[start:end]
        (`pieces_spans`), its last the whole text: a maximum over each run, not a step per piece (a 1,000-tool list
        has about 6,000 pieces, and each request reads them all). A tool without pieces ranks at -1."""
        best = [max(-1.0, max(flat[a:b])) if b > a else -1.0 for a, b in spans]
        whole = [flat[b - 1] if b > a else 0.0 for a, b in spans]
        return cls(best, whole)

    def of_whole(self) -> Cosines:
        return Cosines(self.whole, self.whole)

    def best_other(self, position: int) -> float | None:
        others = [c for i, c in enumerate(self.values) if i != position]
        return max(others) if others else None

    def top(self) -> int:
        """Position of the highest cosine (the first one on ties)."""
        return max(range(len(self.values)), key=lambda i: (self.values[i], -i))


def pieces_spans(counts: Sequence[int]) -> list[tuple[int, int]]:
    """Where each tool's pieces lie in the one list of every tool's pieces, given how many each has."""
    spans = []
    at = 0
    for count in counts:
        spans.append((at, at + count))
        at += count
    return spans


def blended_top(scores: dict[int, float], cosines: Cosines, blend: float, *, k: int = 2) -> list[tuple[int, float]]:
    """The best `k` tools (position, score) by word-matching score relative to the best one plus `blend` x
    cosine: every tool takes part, also one that shares no word with the request (when another does)."""
    top = max(scores.values(), default=0.0)
    scale = 1.0 / top if top > 0 else 0.0
    ranked = [(i, scores.get(i, 0.0) * scale + blend * c) for i, c in enumerate(cosines.values)]
    return heapq.nsmallest(k, ranked, key=lambda r: (-r[1], r[0]))  # sorted(...)[:k], without sorting them all


def word_top(scores: dict[int, float]) -> int | None:
    """Position of the best word-matching score (the first one on ties), None when no tool matched."""
    return min(scores, key=lambda i: (-scores[i], i)) if scores else None


def checked_similarity(profile: Profile, similarity: Similarity | None) -> Similarity | None:
    """The similarity the profile asks for; SelectorError when it is missing or another model's."""
    wanted = profile.semantic
    if wanted is None:
        return None
    if similarity is None:
        raise SelectorError(
            f"the synthetic profile uses the sentence embedding {wanted.model}, and none was loaded "
            "(build the selector with app.selector_factory.make_selector)"
        )
    if (similarity.model, similarity.weights_sha256) != (wanted.model, wanted.weights_sha256):
        raise SelectorError(
            f"the synthetic profile was fitted with {wanted.model} weights sha256 {wanted.weights_sha256[:12]}…, "
            f"but the installed model is {similarity.model} sha256 {similarity.weights_sha256[:12]}…"
        )
    return similarity


def read_cosines(evidence: Evidence, position: int, cosines: Cosines, by_words: int | None) -> None:
    """Fill the best tool's semantic features from the whole texts' cosines: its cosine, its lead over the best
    other tool's, agreement."""
    cosines = cosines.of_whole()
    other = cosines.best_other(position)
    evidence.semantic_cosine = cosines.values[position]
    evidence.semantic_margin = 0.0 if other is None else round(evidence.semantic_cosine - other, DECIMALS)
    evidence.semantic_agree = 1.0 if by_words == position == cosines.top() else 0.0
