"""The separate validation step for machine-written cases: can the expected answer be defended?

The validator is deliberately a different scorer from the synthetic selector. It reads a request as a person
checking the case would: only the words that name things count (example values and the frames' own filler words
are set aside, since they say nothing about which tool fits; a filler word the request says as its own verb,
outside any frame phrase, counts for the tools whose name says it when the rest of the request fits them). A
tool's score is its weighted share of those words: each word weighs its rarity over the tool set (IDF) times
where the tool has it (name 1.0, title or description 0.7, parameters only 0.4); the share is scaled by how many
of the tool's own name words the request uses (0.2 + 0.8 x that fraction), by how much of the request's naming
words (words some tool's name has, weighted by rarity) the tool's name has (0.5 + 0.5 x that share: "the worklog
entries for the Jira issue" says jira_get_worklog more than jira_get_issue), and halved when the wording asks for
another kind of action than the tool's (read, list, search, create, update, delete, send, run: from the
request's verbs and the frames' cue phrases).

A name word the request writes as two words ("free/busy", "TaskRun") is said, and a frame's word inside a pair of
a name's words ("pull" of "the pull request #142", "dates" of "issue dates") is the name's, as is a derivation of a
name word ("an aggregation" says aggregate's name: 7 letters in common).

For a positive case the expected tool must rank first; its confidence is 1 - 0.5 x (runner-up / top): a
clear winner 1.0, a runner-up at 60% of the top 0.7, a tie 0.5. The runner-up is the best other tool that could be
the answer instead. These cannot:
- a tool that has only words the expected tool has too, and whose name the request says no more of ("Show the
  contents of the commit" is git_show's; git_commit has only "commit");
- a tool with the same words, when the request says all of the expected tool's name and the rival's name claims
  what the request does not say ("Add a comment to the Confluence page" is confluence_add_comment's, not
  confluence_add_inline_comment's) or says less of it ("Add a reaction to the issue comment" is
  add_issue_comment_reaction's, not add_issue_comment's);
- a twin with the same words whose name differs only in the number of a word the request says the other way
  ("Create a new calendar event." is create-event's, not create-events').
A tool whose description marks it deprecated in favour of another that also fits the request ties with it at best.

For a NO_TOOL case (near-miss or off-topic) the confidence is 1 - (best remaining tool's score), floored at 0:
when another tool plausibly serves the request, NO_TOOL cannot be defended. Cases under 0.7 become
`exploratory`: shown, not scored.
"""

from __future__ import annotations

import heapq
import itertools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from app.audit.models import NO_TOOL, Case, CaseStatus, Provenance, Tool, ToolSet
from app.audit.suite.lexicon import WORDS
from app.audit.suite.reading import base_verb, frame_data, operation_members, read_tool, verb_classes
from app.audit.text import folded_stems, has_token, match_stem, split_identifier, words

# Cases whose expected answer cannot be defended with at least this confidence are exploratory.
MIN_CONFIDENCE = 0.7
RUNNER_UP_WEIGHT = 0.5
NO_TOOL_WEIGHT = 1.0
# Where a tool has a request's word: in its name, in its title or description, only in its parameters.
NAME_WEIGHT, TEXT_WEIGHT, PARAMETER_WEIGHT = 1.0, 0.7, 0.4
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
# Letters a derivation shares with the name word it comes from ("aggregation" and "aggregate").
PREFIX = 7
# Where a request's own verb stands: first, or after "Could you", "someone has to", "someone can".
_VERB_AT = re.compile(r"^\W*(\w+)|\b(?:you|to|can) (\w+)", re.IGNORECASE)
_VALUE = re.compile(r"\"[^\"]*\"|#\d+|\S*[/@]\S*|\b[A-Z]+-\d+\b|\bv?\d[\d.:-]*\b")
# A tool's raw share of a request's words bounds its score (every factor applied to it is at most 1); a bound
# is widened by this much so that no rounding, of the score or of the bound, can put a score above it.
BOUND_MARGIN = 1 + 1e-9


def _replacements(tool: Tool, names: list[str]) -> set[str]:
    """The tools `tool`'s description marks it deprecated in favour of ("DEPRECATED: Use read_text_file instead")."""
    text = (tool.description or "").lower()
    if "deprecated" not in text or "instead" not in text:
        return set()
    return {n for n in names if n != tool.name and has_token(text, n.lower())}


def _number_twin(mine: str, theirs: str, text: str) -> bool:
    """Names that differ only in one word's number ('create-event' / 'create-events', 'get_issue_…' /
    'get_issues_…'), where the request says that word as the first name has it and never as the second."""
    a, b = split_identifier(mine), split_identifier(theirs)
    if len(a) != len(b):
        return False
    differ = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    if len(differ) != 1:
        return False
    own, other = differ[0]
    if own + "s" != other and other + "s" != own:
        return False
    said = set(words(text))
    return own in said and other not in said


def _parameter_text(tool: Tool) -> str:
    parts = []
    for param, spec in tool.properties.items():
        parts.append(" ".join(split_identifier(param)))
        if isinstance(spec, dict) and isinstance(spec.get("description"), str):
            parts.append(spec["description"])
    return " ".join(parts)


def _name_slots(name: str, operations: tuple[str, ...] = ()) -> list[frozenset[str]]:
    """A name's words as slots a request can fill; 'create_or_update_file' -> [{create, update}, {file}]. A name
    word that says only that the tool acts on a thing ('manage', 'lifecycle') is filled by the `operations` its
    schema offers: 'Start the VirtualMachine web-vm-1' says vm_lifecycle, whose `action` is start, stop or
    restart. Not 'read' or 'write': servers that have them also have the older one-operation tools, and a
    request for one operation is rightly contested between the two."""
    acting = {*WORDS.aspects, *WORDS.vague}
    slots: list[set[str]] = []
    joined = False
    for word in split_identifier(name):
        if word in ("or", "and"):
            joined = bool(slots)
            continue
        stems = set(folded_stems(word))
        if not stems:
            continue
        stems.update(folded_stems(" ".join(WORDS.slot_words.get(word, ()))))
        if word.lower() in acting:
            stems.update(folded_stems(" ".join(operations)))
        if joined:
            slots[-1] |= stems
        else:
            slots.append(stems)
        joined = False
    # "request_pull_request_reviewers": a word the name says twice is one slot, not two the request fills.
    return list(dict.fromkeys(frozenset(s) for s in slots))


@cache
def _filler() -> frozenset[str]:
    return frozenset(folded_stems(frame_data()["filler"]))


@cache
def _cues() -> dict[str, re.Pattern[str]]:
    """Each kind's cue phrases as one pattern: it finds a phrase where any one phrase's own pattern would."""
    phrases = frame_data()["cues"].items()
    return {kind: re.compile(rf"\b(?:{'|'.join(map(re.escape, ps))})\b") for kind, ps in phrases if ps}


def asked_kind(text: str) -> str | None:
    """The kind of action a request asks for, when its wording says so."""
    lowered = text.lower()
    for kind, cue in _cues().items():
        if cue.search(lowered):
            return kind
    for word in words(lowered)[:6]:
        if word in verb_classes() and base_verb(word) and verb_classes()[word] != "other":
            return verb_classes()[word]
    return None


def _given(text: str) -> frozenset[str]:
    """Stems of the (up to two) words right before each example value: the parameters the request fills."""
    out: set[str] = set()
    for match in _VALUE.finditer(text):
        out.update(folded_stems(" ".join(text[: match.start()].split()[-2:])))
    return frozenset(out)


def _frame_free_verbs(text: str) -> frozenset[str]:
    """Stems of the request's own verbs when no frame phrase is in it ("Show the commit", not "Show me ...")."""
    lowered = text.lower()
    if any(cue.search(lowered) for cue in _cues().values()):
        return frozenset()
    found = (m.group(1) or m.group(2) for m in _VERB_AT.finditer(text))
    return frozenset(t for w in found for t in folded_stems(w))


@dataclass(frozen=True)
class _Request:
    """One request read against a tool set: what every tool's score for it is made of (CaseValidator._read)."""

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


class _Ranking:
    """A request's scores over a tool set, each computed only when it could be read.

    The tools a score is given to are those with one of the request's own words (`own`) that are not removed.
    What is read of them is the best (best()), and a score by name (get()); a tool's score is computed when it is
    asked for by name, or when its bound could still reach the best score found. Among 1,000 near-duplicate tools
    most share only a common word with the request and are never scored.
    """

    def __init__(self, validator: CaseValidator, request: _Request) -> None:
        self.request = request
        self._validator = validator
        self._names = validator.names
        self._exact: dict[int, float] = {}
        self._bounds: list[_Bounded] | None = None
        # The tool whose score a name gets is the one `position` says, unless names repeat in the tool set: then,
        # as in a dict filled in the order the tools got their sums, the last of them with a score.
        self._index: dict[str, int] | None = None
        if validator.repeated:
            self._index = {self._names[i]: i for i in validator.touched(request.terms) if self._given(i)}

    def get(self, name: str) -> float | None:
        """The tool's score, or None when it gets none (it shares no counted word with the request, or is removed)."""
        i = self._tool(name)
        return None if i is None else self._scored(i)

    def __contains__(self, name: str) -> bool:
        return self._tool(name) is not None

    def all(self) -> dict[str, float]:
        """Every score, in the order the tools got their sums."""
        touched = self._validator.touched(self.request.terms)
        return {self._names[i]: self._scored(i) for i in touched if self._given(i)}

    def best(self, keep: Callable[[str], bool] | None = None, *, last: bool = False) -> tuple[str, float] | None:
        """(name, score) of the best-scored tool `keep` lets through: of tools tied on that score, the first by name
        (the first when sorting every score best first), or with `last` the last (what max((score, name)) gives).

        The tools come in descending order of a bound at least their score; once a bound is below the best score
        found, no tool after it can reach it. `keep` is asked about a tool before its score is computed.
        """
        if self._bounds is None:
            self._bounds = self._validator.bounds(self.request)
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
        i = self._validator.position.get(name)
        return i if i is not None and self._given(i) else None

    def _scored(self, i: int) -> float:
        if i not in self._exact:
            self._exact[i] = self._validator.score(i, self.request)
        return self._exact[i]


class CaseValidator:
    """Scores requests against one tool set by weighted coverage and the tools' kinds of action."""

    def __init__(self, toolset: ToolSet) -> None:
        self.names = toolset.names()
        self.position = {name: i for i, name in enumerate(self.names)}
        self.repeated = len(self.position) < len(self.names)
        self.kinds = [read_tool(t).verb_class for t in toolset.tools]
        self.said = {t.name: frozenset(folded_stems(f"{t.title or ''} {t.description or ''}")) for t in toolset.tools}
        self.fields: list[dict[str, float]] = []
        self.name_terms: list[list[frozenset[str]]] = []
        self.param_names: list[frozenset[str]] = []
        df: Counter[str] = Counter()
        for tool in toolset.tools:
            name = set(folded_stems(" ".join(split_identifier(tool.name))))
            text = set(folded_stems(f"{tool.title or ''} {tool.description or ''}"))
            params = set(folded_stems(_parameter_text(tool)))
            weights = dict.fromkeys(params, PARAMETER_WEIGHT)
            weights.update(dict.fromkeys(text, TEXT_WEIGHT))
            weights.update(dict.fromkeys(name, NAME_WEIGHT))
            self.fields.append(weights)
            # Members that are a bare verb ('create'); 'resolve_thread' names a thing of its own, not what 'write' does.
            verbs = tuple(m for m in operation_members(tool) if len(split_identifier(m)) == 1)
            self.name_terms.append(_name_slots(tool.name, verbs))
            param_words = " ".join(" ".join(split_identifier(p)) for p in tool.properties)
            self.param_names.append(frozenset(folded_stems(param_words)))
            df.update(weights)
        n = len(self.fields)
        self.name_stems = [frozenset(t for slot in slots for t in slot) for slots in self.name_terms]
        self.named = frozenset().union(*self.name_stems)
        # "DEPRECATED: Use read_text_file instead": where the replacement fits too, the old tool can't be defended.
        self.replaced_by = {t.name: _replacements(t, self.names) for t in toolset.tools}
        self.by_prefix: dict[str, list[str]] = defaultdict(list)
        for stem in sorted(self.named):
            if len(stem) >= PREFIX:
                self.by_prefix[stem[:PREFIX]].append(stem)
        # Word pairs of the names ("pull request"): a frame's word inside one is the name's, not the frame's.
        self.pairs = frozenset(
            pair for t in toolset.tools for pair in itertools.pairwise(folded_stems(" ".join(split_identifier(t.name))))
        )
        self.idf = {t: math.log((1 + n) / (1 + c)) + 1.0 for t, c in df.items()}
        ordered = sorted(self.idf.values())
        self.unknown_idf = ordered[len(ordered) // 2] if ordered else 1.0
        self.postings: dict[str, list[int]] = defaultdict(list)
        for i, weights in enumerate(self.fields):
            for t in weights:
                self.postings[t].append(i)
        # Which tools' names have a word (some slot of theirs has it).
        self.name_postings: dict[str, list[int]] = defaultdict(list)
        for i, stems in enumerate(self.name_stems):
            for t in stems:
                self.name_postings[t].append(i)
        # Per tool, the words whose having counts: a frame's filler word only where the tool's name says it
        # (_counts), which is the same for every request.
        filler = _filler()
        self.counting = [frozenset(t for t in ws if self._counts(i, t, filler)) for i, ws in enumerate(self.fields)]
        # Per word, the tools whose having it counts, by where they have it: one weight for each such group.
        self.counted: dict[str, list[tuple[float, list[int]]]] = {}
        for t, ids in self.postings.items():
            where: dict[float, list[int]] = defaultdict(list)
            for i in ids:
                if t in self.counting[i]:
                    where[self.fields[i][t]].append(i)
            self.counted[t] = list(where.items())
        # Per word, the tools with a parameter of that name (a request may give its value right after it).
        self.takes: dict[str, set[int]] = defaultdict(set)
        for i, taken in enumerate(self.param_names):
            for t in taken:
                self.takes[t].add(i)

    def says_more(self, other: CaseValidator, name: str) -> bool:
        """Whether this version's text says more about tool `name` than `other`'s (both have the tool)."""
        mine, theirs = self.said.get(name), other.said.get(name)
        return mine is not None and theirs is not None and len(mine - theirs) > len(theirs - mine)

    def _compounds(self, text: str) -> list[str]:
        """Name words the request writes as two ("free/busy", "TaskRun" for get-freebusy, tekton_taskrun_logs)."""
        said = words(text)
        joined = (match_stem(a + b) for a, b in itertools.pairwise(said))
        return [t for t in joined if t in self.named]

    def _terms(self, text: str) -> list[str]:
        """The request's words that can name a tool: no example values, no frame filler."""
        filler = _filler()
        # A frame word the request uses as its own verb counts, but only for the tools whose name says it.
        verbs = _frame_free_verbs(text) & filler & self.named
        said = folded_stems(_VALUE.sub(" ", text))
        paired = {t for pair in itertools.pairwise(said) if pair in self.pairs for t in pair}
        # A derivation of a name word says it too ("an aggregation" for aggregate): 7 letters in common.
        long = [t for t in said if len(t) > PREFIX and t not in self.named]
        derived = [n for t in long for n in self.by_prefix.get(t[:PREFIX], ())]
        stems = dict.fromkeys([*said, *self._compounds(text), *derived])
        return [t for t in stems if t not in filler or t in verbs or t in paired]

    def _counts(self, i: int, term: str, filler: frozenset[str]) -> bool:
        """Whether tool i's having `term` counts: a frame's filler word only where the tool's name says it."""
        return term not in filler or self.fields[i][term] == NAME_WEIGHT

    def _evidence(self, name: str, terms: frozenset[str]) -> tuple[frozenset[str], int, int]:
        """The request's words a tool has (a filler verb only in its name), and how many of its name words the
        request says and does not say."""
        i = self.position[name]
        has = self.counting[i] & terms
        slots = self.name_terms[i]
        said = len(slots) - sum(map(has.isdisjoint, slots))
        return has, said, len(slots) - said

    def _rival(self, expected: str, ranking: _Ranking, text: str) -> tuple[str, float] | None:
        """The best other tool that could be the answer instead (see the module's docstring): the first in the
        ranking that is not one of those that cannot be. Those are passed over unscored."""
        terms = frozenset(ranking.request.terms)
        mine, my_said, my_unsaid = self._evidence(expected, terms)

        def could_be(name: str) -> bool:
            if name == expected:
                return False
            theirs, their_said, their_unsaid = self._evidence(name, terms)
            # Its name claims what the request does not say, while the request says all of the expected one's; or
            # the request says all of both names, and more of the expected one's.
            claims_more = my_unsaid == 0 and (their_unsaid > 0 or their_said < my_said)
            if theirs == mine and _number_twin(expected, name, text):
                return False
            return not (theirs <= mine and their_said <= my_said and (theirs < mine or claims_more))

        return ranking.best(could_be)

    def scores(self, text: str, *, removed: tuple[str, ...] = (), known_only: bool = True) -> dict[str, float]:
        """Each tool's share (0-1) of the request's words, weighted by rarity and by where the tool has them.

        With `known_only`, words no tool has are left out (a positive case is judged among the tools); without
        it they count against every tool, at a median rarity (a NO_TOOL case may ask for something absent).
        """
        request = self._read(text, self._terms(text), removed=removed, known_only=known_only)
        return _Ranking(self, request).all()

    def _read(self, text: str, terms: list[str], *, removed: tuple[str, ...], known_only: bool) -> _Request:
        """What the tools' scores for a request are made of (see scores())."""
        filler = _filler()
        weight = {t: self.idf.get(t, 0.0 if known_only else self.unknown_idf) for t in terms}
        total = sum(weight.values())
        sums = [0.0] * len(self.names)
        own: set[int] = set()
        if total:
            given = _given(text)
            for t in terms:
                w = weight[t]
                # A parameter named right before its value: the tools taking it have the word as if named.
                takes = self.takes.get(t) if t in given else None
                for where, tools in self.counted.get(t, ()):
                    add = w * where
                    if takes:
                        for i in tools:
                            sums[i] += w * GIVEN_WEIGHT if i in takes else add
                    else:
                        for i in tools:
                            sums[i] += add
                if t not in filler:
                    own.update(self.postings.get(t, ()))
        asked = set(terms)
        naming = {t: weight[t] for t in asked if t in self.named and t not in filler}
        kind = asked_kind(text) if total else None
        return _Request(terms, asked, naming, sum(naming.values()), sums, total, own, kind, known_only, removed)

    def touched(self, terms: list[str]) -> dict[int, None]:
        """The tools with a sum for the request's words, in the order they got it (word by word)."""
        return dict.fromkeys(i for t in terms for i in self.postings.get(t, ()) if t in self.counting[i])

    def bounds(self, request: _Request) -> list[_Bounded]:
        """The tools with a score, in lists in descending order of a bound at least their score.

        A score is the tool's raw share of the request's words times factors of at most 1, and a tool whose name
        has none of the request's words keeps at most NAME_FLOOR squared of it (and RECALL_FLOOR of that when the
        request names some tool). For a NO_TOOL case, a tool whose name the request says may score NAME_PLAUSIBLE
        times the share of its name said instead. Bounds are widened by BOUND_MARGIN so that no rounding can put
        a score above its bound.
        """
        sums, own = request.sums, request.own - {self.position[n] for n in request.removed if n in self.position}
        if not own:
            return []
        named = set().union(*(own.intersection(self.name_postings.get(t, ())) for t in request.asked))
        unnamed = NAME_FLOOR**NAME_EXPONENT * (RECALL_FLOOR if request.naming_total else 1.0)
        out = [
            _Bounded(tools, sums, factor / request.total * BOUND_MARGIN)
            for tools, factor in ((named, 1.0), (own - named, unnamed))
            if tools
        ]
        if not request.known_only and named:
            plausible = {i: NAME_PLAUSIBLE * self._said(i, request.asked) for i in named}
            out.append(_Bounded(plausible, plausible, BOUND_MARGIN))
        return out

    def _said(self, i: int, asked: set[str]) -> float:
        """The share of tool i's name slots the request's words fill."""
        named = self.name_terms[i]
        return (len(named) - sum(map(asked.isdisjoint, named))) / len(named) if named else 0.0

    def score(self, i: int, request: _Request) -> float:
        """Tool i's score for the request (see scores())."""
        named = self.name_terms[i]
        said = self._said(i, request.asked)
        precision = NAME_FLOOR + (1 - NAME_FLOOR) * said
        other_kind = request.kind is not None and self.kinds[i] not in (request.kind, "other")
        share = request.sums[i] / request.total * precision**NAME_EXPONENT
        if request.naming_total:
            # A tool whose name lacks the request's rarest naming words fits it less ('the worklog entries for
            # the Jira issue' says jira_get_worklog more than jira_get_issue). Summed in the naming words' order.
            recalled = 0.0
            for t, w in request.naming.items():
                if t in self.name_stems[i]:
                    recalled += w
            share *= RECALL_FLOOR + (1 - RECALL_FLOOR) * recalled / request.naming_total
        if not request.known_only and named:
            # A tool whose own name the request mostly says is a plausible answer, whatever else it says.
            share = max(share, NAME_PLAUSIBLE * said)
        return share * (OTHER_KIND_FACTOR if other_kind else 1.0)

    def rank(self, case: Case) -> _Ranking:
        """The tools' scores for a case's request, as validate() reads them."""
        terms = self._terms(case.intent)
        known_only = case.expected != NO_TOOL
        return _Ranking(self, self._read(case.intent, terms, removed=case.removed_tools, known_only=known_only))

    def validate(self, case: Case, *, min_confidence: float) -> Case:
        return self.judge(case, self.rank(case), min_confidence=min_confidence)

    def judge(self, case: Case, ranking: _Ranking, *, min_confidence: float) -> Case:
        """The case with the confidence and status its expected answer can be defended with, from rank(case)."""
        # Only the best is read here: a tie of twins puts the expected tool before it.
        best = ranking.best()
        ranked = [best] if best else []
        tied = ranked[0][0] if ranked and ranked[0][0] != case.expected else None
        if tied and ranking.get(case.expected) == ranked[0][1] and _number_twin(case.expected, tied, case.intent):
            # A tie of twins ('calendar events' for create-events and create-event): the request's number decides.
            ranked = [(case.expected, ranked[0][1]), ranked[0]]
        if case.expected == NO_TOOL:
            best = ranked[0] if ranked else None
            confidence = max(0.0, 1.0 - NO_TOOL_WEIGHT * best[1]) if best else 1.0
            note = (
                f"validator: closest remaining tool {best[0]} ({best[1]:.2f})" if best else "validator: no tool matches"
            )
        elif not ranked or ranked[0][0] != case.expected:
            confidence = 0.3 if ranked else 0.0
            note = f"validator expected {ranked[0][0]}" if ranked else "validator: no tool matches"
        else:
            rival = self._rival(case.expected, ranking, case.intent)
            runner_up = rival[1] if rival else 0.0
            confidence = 1.0 - RUNNER_UP_WEIGHT * (runner_up / ranked[0][1])
            note = f"validator agrees (runner-up {rival[0]})" if rival else "validator agrees"
            if replacement := next((n for n in sorted(self.replaced_by[case.expected]) if n in ranking), None):
                # Both do the same job, and the description itself says to use the other: a tie at best.
                confidence = min(confidence, 1.0 - RUNNER_UP_WEIGHT)
                note = f"validator: {case.expected} is deprecated in favour of {replacement}, which also fits"
        confidence = round(confidence, 3)
        status = CaseStatus.SCORED if confidence >= min_confidence else CaseStatus.EXPLORATORY
        joined = f"{case.note}; {note}" if case.note else note
        return case.model_copy(update={"confidence": confidence, "status": status, "note": joined})


# A contested request: the other version reads it as a rival's at least as much as the expected tool's, on
# at least this share of the evidence that defended it on its own side.
CONTEST_SHARE = 0.5


class SideValidator:
    """Validates a generated case on the side whose text wrote it, then against the other versions.

    Only a version whose own text says more about the expected tool (more content words in its title and
    description that the other lacks than the other way round) can contest a case: when that fuller text
    reads the request as a rival's at least as much, the request was ambiguous and the thinner text only hid
    it ("Post a message." defends "Could you post the message for me?" as post_reply; "Sends a reply to the
    customer on a ticket" does not). Such a case is exploratory, with the confidence the fuller version gives
    it. A version that says less, or has the tool unchanged, never contests: a rewrite that makes a tool
    vaguer, or a rival that grabs its requests, must show as a regression, not vanish from the suite.
    """

    def __init__(self, own: CaseValidator, others: list[CaseValidator]) -> None:
        self.own = own
        self.others = others

    def validate(self, case: Case, *, min_confidence: float) -> Case:
        ranking = self.own.rank(case)
        checked = self.own.judge(case, ranking, min_confidence=min_confidence)
        if not checked.scored or case.expected == NO_TOOL or case.provenance != Provenance.AI_GENERATED:
            return checked
        # A positive case: its own side's scores, judged among the tools, are the ones it was just validated with.
        mine = ranking.get(case.expected)
        floor = CONTEST_SHARE * (0.0 if mine is None else mine)
        for other in self.others:
            if other.says_more(self.own, case.expected):
                scores = other.rank(case)
                # The best-scored other tool; of those tied, the last by name.
                rival = scores.best(lambda name: name != case.expected, last=True)
                expected = scores.get(case.expected)
                if rival is not None and rival[1] >= max(floor, 0.0 if expected is None else expected):
                    theirs = other.judge(case, scores, min_confidence=min_confidence)
                    note = f"{checked.note}; contested: the fuller version of its text reads it as {rival[0]}"
                    return checked.model_copy(
                        update={"confidence": theirs.confidence, "status": CaseStatus.EXPLORATORY, "note": note}
                    )
        return checked
