"""A request's scores over an indexed tool set (see validate.py): what they are made of (`Request`), how each is
computed, and a `Ranking` that computes only those that can be read."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass

from app.audit.suite.request_words import asked_kind, filler_words, given_words
from app.audit.suite.tool_index import NAME_WEIGHT, ToolIndex

# A tool whose name words the request does not use keeps this share of its score (0.2 + 0.8 x words used).
NAME_FLOOR = 0.2
# A tool whose name has none of the request's naming words keeps this share of its score.
RECALL_FLOOR = 0.5
# Squared: a request that says all of a tool's name words points at it much more than one saying half.
NAME_EXPONENT = 2
# For NO_TOOL: a remaining tool whose name words the request uses is this plausible per share of them.
NAME_PLAUSIBLE = 0.8
# A tool whose action is of another kind than the one asked for ("get rid of" vs a read tool) counts half.
OTHER_KIND_FACTOR = 0.5
# A parameter named right before its value ("latitude 38.72", "team slug M-1042"): the request supplies that
# argument, so a tool taking a parameter of that name has the word as surely as if its name said it.
GIVEN_WEIGHT = NAME_WEIGHT
# A tool's raw share of a request's words bounds its score (every factor applied to it is at most 1); a bound
# is widened by this much so that no rounding, of the score or of the bound, can put a score above it.
BOUND_MARGIN = 1 + 1e-9


@dataclass(frozen=True)
class Request:
    """One request read against a tool set: what every tool's score for it is made of (read_request)."""

    terms: list[str]
    # Its words as a set, and those of them that name some tool, by rarity: "worklog" says more than "issue".
    asked: set[str]
    naming: dict[str, float]
    naming_total: float
    # Each tool's weighted sum of the request's words (0.0 where it has none), and their total weight.
    sums: list[float]
    total: float
    # The tools with one of the request's own words, not only a frame's filler word their name says.
    own: set[int]
    kind: str | None
    known_only: bool
    removed: tuple[str, ...]


class _Bounded:
    """Tools in descending order of a bound on their scores: a value of theirs times `scale`.

    The first is found without sorting the rest, which is sorted (once) only when read: often no tool after
    the first of a list is.
    """

    def __init__(self, tools: Collection[int], values: Mapping[int, float] | list[float], scale: float) -> None:
        self._tools = tools
        self._values = values
        self._scale = scale
        self._top = max(tools, key=values.__getitem__)
        self._rest: list[int] | None = None

    def __iter__(self) -> Iterator[tuple[float, int]]:
        """(bound, tool), highest bound first."""
        yield self._values[self._top] * self._scale, self._top
        if self._rest is None:
            rest = sorted(self._tools, key=self._values.__getitem__, reverse=True)
            self._rest = [i for i in rest if i != self._top]
        for i in self._rest:
            yield self._values[i] * self._scale, i


class Ranking:
    """A request's scores over a tool set, each computed only when it could be read.

    The tools a score is given to are those with one of the request's own words (`own`) that are not removed.
    What is read of them is the best (best()), and a score by name (get()); a tool's score is computed when it is
    asked for by name, or when its bound could still reach the best score found. Among 1,000 near-duplicate tools
    most share only a common word with the request and are never scored.
    """

    def __init__(self, index: ToolIndex, request: Request) -> None:
        self.request = request
        self._tool_index = index
        self._names = index.names
        self._exact: dict[int, float] = {}
        self._bounds: list[_Bounded] | None = None
        # The tool whose score a name gets is the one `position` says, unless names repeat in the tool set: then,
        # as in a dict filled in the order the tools got their sums, the last of them with a score.
        self._index: dict[str, int] | None = None
        if index.repeated:
            self._index = {self._names[i]: i for i in touched_tools(index, request.terms) if self._given(i)}

    def get(self, name: str) -> float | None:
        """The tool's score, or None when it gets none (it shares no counted word with the request, or is removed)."""
        i = self._tool(name)
        return None if i is None else self._scored(i)

    def __contains__(self, name: str) -> bool:
        return self._tool(name) is not None

    def all(self) -> dict[str, float]:
        """Every score, in the order the tools got their sums."""
        touched = touched_tools(self._tool_index, self.request.terms)
        return {self._names[i]: self._scored(i) for i in touched if self._given(i)}

    def best(self, keep: Callable[[str], bool] | None = None, *, last: bool = False) -> tuple[str, float] | None:
        """(name, score) of the best-scored tool `keep` lets through: of tools tied on that score, the first by name
        (the first when sorting every score best first), or with `last` the last (what max((score, name)) gives).

        The tools come in descending order of a bound at least their score; once a bound is below the best score
        found, no tool after it can reach it. `keep` is asked about a tool before its score is computed.
        """
        if self._bounds is None:
            self._bounds = bounds(self._tool_index, self.request)
        found: tuple[str, float] | None = None
        seen: set[int] = set()
        for bound, i in heapq.merge(*self._bounds, reverse=True):
            if found is not None and bound < found[1]:
                break
            if i in seen:
                continue
            seen.add(i)
            name = self._names[i]
            # Where names repeat, only the tool whose score its name gets is in the order.
            if (self._index is not None and self._index.get(name) != i) or (keep is not None and not keep(name)):
                continue
            score = self._scored(i)
            if found is None or score > found[1] or (score == found[1] and (name > found[0]) == last):
                found = (name, score)
        return found

    def _given(self, i: int) -> bool:
        """Whether tool i gets a score: the verb alone ("Show changes" for git_show) does not make a tool fit, the
        rest of the request must say it too."""
        return i in self.request.own and self._names[i] not in self.request.removed

    def _tool(self, name: str) -> int | None:
        if self._index is not None:
            return self._index.get(name)
        i = self._tool_index.position.get(name)
        return i if i is not None and self._given(i) else None

    def _scored(self, i: int) -> float:
        if i not in self._exact:
            self._exact[i] = tool_score(self._tool_index, i, self.request)
        return self._exact[i]


def read_request(
    index: ToolIndex, text: str, terms: list[str], *, removed: tuple[str, ...], known_only: bool
) -> Request:
    """What the tools' scores for a request are made of (see CaseValidator.scores())."""
    filler = filler_words()
    weight = {t: index.idf.get(t, 0.0 if known_only else index.unknown_idf) for t in terms}
    total = sum(weight.values())
    sums = [0.0] * len(index.names)
    own: set[int] = set()
    if total:
        given = given_words(text)
        for t in terms:
            w = weight[t]
            # A parameter named right before its value: the tools taking it have the word as if named.
            takes = index.takes.get(t) if t in given else None
            for where, tools in index.counted.get(t, ()):
                add = w * where
                if takes:
                    for i in tools:
                        sums[i] += w * GIVEN_WEIGHT if i in takes else add
                else:
                    for i in tools:
                        sums[i] += add
            if t not in filler:
                own.update(index.postings.get(t, ()))
    asked = set(terms)
    naming = {t: weight[t] for t in asked if t in index.named and t not in filler}
    kind = asked_kind(text) if total else None
    return Request(terms, asked, naming, sum(naming.values()), sums, total, own, kind, known_only, removed)


def touched_tools(index: ToolIndex, terms: list[str]) -> dict[int, None]:
    """The tools with a sum for the request's words, in the order they got it (word by word)."""
    return dict.fromkeys(i for t in terms for i in index.postings.get(t, ()) if t in index.counting[i])


def bounds(index: ToolIndex, request: Request) -> list[_Bounded]:
    """The tools with a score, in lists in descending order of a bound at least their score.

    A score is the tool's raw share of the request's words times factors of at most 1, and a tool whose name
    has none of the request's words keeps at most NAME_FLOOR squared of it (and RECALL_FLOOR of that when the
    request names some tool). For a NO_TOOL case, a tool whose name the request says may score NAME_PLAUSIBLE
    times the share of its name said instead. Bounds are widened by BOUND_MARGIN so that no rounding can put
    a score above its bound.
    """
    sums, own = request.sums, request.own - {index.position[n] for n in request.removed if n in index.position}
    if not own:
        return []
    named = set().union(*(own.intersection(index.name_postings.get(t, ())) for t in request.asked))
    unnamed = NAME_FLOOR**NAME_EXPONENT * (RECALL_FLOOR if request.naming_total else 1.0)
    out = [
        _Bounded(tools, sums, factor / request.total * BOUND_MARGIN)
        for tools, factor in ((named, 1.0), (own - named, unnamed))
        if tools
    ]
    if not request.known_only and named:
        plausible = {i: NAME_PLAUSIBLE * _said(index, i, request.asked) for i in named}
        out.append(_Bounded(plausible, plausible, BOUND_MARGIN))
    return out


def _said(index: ToolIndex, i: int, asked: set[str]) -> float:
    """The share of tool i's name slots the request's words fill."""
    named = index.name_terms[i]
    return (len(named) - sum(map(asked.isdisjoint, named))) / len(named) if named else 0.0


def tool_score(index: ToolIndex, i: int, request: Request) -> float:
    """Tool i's score for the request (see CaseValidator.scores())."""
    named = index.name_terms[i]
    said = _said(index, i, request.asked)
    precision = NAME_FLOOR + (1 - NAME_FLOOR) * said
    other_kind = request.kind is not None and index.kinds[i] not in (request.kind, "other")
    share = request.sums[i] / request.total * precision**NAME_EXPONENT
    if request.naming_total:
        # A tool whose name lacks the request's rarest naming words fits it less ('the worklog entries for
        # the Jira issue' says jira_get_worklog more than jira_get_issue). Summed in the naming words' order.
        recalled = 0.0
        for t, w in request.naming.items():
            if t in index.name_stems[i]:
                recalled += w
        share *= RECALL_FLOOR + (1 - RECALL_FLOOR) * recalled / request.naming_total
    if not request.known_only and named:
        # A tool whose own name the request mostly says is a plausible answer, whatever else it says.
        share = max(share, NAME_PLAUSIBLE * said)
    return share * (OTHER_KIND_FACTOR if other_kind else 1.0)
