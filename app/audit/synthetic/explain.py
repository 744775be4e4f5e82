"""Why the synthetic selector abstained: the request's words no tool covers, and the best tool's shortfall.

A NO_TOOL answer names what was missing, in the request's own words: the words no offered tool has, the
ones the best-ranked tool lacks, the typed values (paths, repositories, dates...) none of its parameters
take, and its decision score against the threshold.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.audit.synthetic.decision import Evidence

# Words named in a reason, at most: enough to say what was missing, short enough to read.
_SHOWN = 4


def quoted(words: Sequence[str]) -> str:
    shown = [f'"{w}"' for w in words[:_SHOWN]]
    more = len(words) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def abstention_reason(
    tool: str,
    *,
    nowhere: Sequence[str],
    not_in_tool: Sequence[str],
    matched: Sequence[str],
    evidence: Evidence,
    score: float,
    threshold: float,
    semantic: bool = False,
) -> str:
    """One sentence-like line: what no tool covers, what the best tool lacks, its score and the threshold
    (and, when the profile reads a sentence embedding, the cosine of the request with the tool's text)."""
    parts = []
    if nowhere:
        parts.append(f"no tool covers {quoted(nowhere)}")
    if not_in_tool:
        parts.append(f"{tool} lacks {quoted(not_in_tool)}")
    if evidence.action_conflict:
        parts.append(f"{tool} does another kind of action than the request asks")
    if evidence.typed_unplaced:
        parts.append(f"no parameter of {tool} takes the values given")
    elif evidence.required_filled < 0.5:
        parts.append(f"few of {tool}'s required values are given")
    shown = [f"matched {quoted(matched)}"] if matched else []
    if semantic:
        shown.append(f"meaning similarity {evidence.semantic_cosine:.2f}")
    found = f" ({'; '.join(shown)})" if shown else ""
    parts.append(f"best tool {tool} scored {score:.2f}, below the threshold {threshold:.2f}{found}")
    return "; ".join(parts)


def no_word_reason(words: Sequence[str]) -> str:
    """The reason when no offered tool shares a single word with the request."""
    if not words:
        return "the request has no word a tool could match"
    return f"no tool covers any word of the request ({quoted(words)})"
