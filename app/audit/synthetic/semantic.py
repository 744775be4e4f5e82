"""The synthetic selector's semantic signal: the Similarity protocol it is given, and what it reads from it.

The core holds no model: a Similarity (app/semantic/ builds one over a sentence embedding) is injected by
app/selector_factory.py. It answers the cosine of a request with each tool's text, rounded (`DECIMALS`) so
that floating-point differences between machines do not flip a decision.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

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
    name = tool.get("name") if isinstance(tool.get("name"), str) else ""
    words = _CAMEL.sub(" ", name).replace("_", " ").replace("-", " ").replace(".", " ")
    parts = [words.strip()]
    for key in ("title", "description"):
        value = tool.get(key)
        if isinstance(value, str) and value.strip():
            parts.append(value.strip())
    return ": ".join(p for p in parts if p)


@dataclass(frozen=True, slots=True)
class Cosines:
    """The request's cosine with each offered tool, by position."""

    values: list[float]

    def best_other(self, position: int) -> float | None:
        others = [c for i, c in enumerate(self.values) if i != position]
        return max(others) if others else None

    def top(self) -> int:
        """Position of the highest cosine (the first one on ties)."""
        return max(range(len(self.values)), key=lambda i: (self.values[i], -i))


def blended_top(scores: dict[int, float], cosines: Cosines, blend: float, *, k: int = 2) -> list[tuple[int, float]]:
    """The best `k` tools (position, score) by word-matching score relative to the best one plus `blend` x
    cosine: every tool takes part, also one that shares no word with the request (when another does)."""
    top = max(scores.values(), default=0.0)
    scale = 1.0 / top if top > 0 else 0.0
    ranked = [(i, scores.get(i, 0.0) * scale + blend * c) for i, c in enumerate(cosines.values)]
    return sorted(ranked, key=lambda r: (-r[1], r[0]))[:k]


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
    """Fill the best tool's semantic features: its cosine, its lead over the best other tool's, agreement."""
    other = cosines.best_other(position)
    evidence.semantic_cosine = cosines.values[position]
    evidence.semantic_margin = 0.0 if other is None else round(evidence.semantic_cosine - other, DECIMALS)
    evidence.semantic_agree = 1.0 if by_words == position == cosines.top() else 0.0
