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

import itertools
import math
import re
from collections import Counter, defaultdict
from functools import cache

from app.audit.models import NO_TOOL, Case, CaseStatus, Provenance, Tool, ToolSet
from app.audit.suite.reading import base_verb, lexicon, operation_members, read_tool, verb_classes
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
    acting = {*lexicon().get("aspects", []), *lexicon().get("vague", [])}
    slots: list[set[str]] = []
    joined = False
    for word in split_identifier(name):
        if word in ("or", "and"):
            joined = bool(slots)
            continue
        stems = set(folded_stems(word))
        if not stems:
            continue
        stems.update(folded_stems(" ".join(lexicon().get("slot_words", {}).get(word, ()))))
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
    return frozenset(folded_stems(lexicon()["filler"]))


def asked_kind(text: str) -> str | None:
    """The kind of action a request asks for, when its wording says so."""
    lowered = text.lower()
    for kind, phrases in lexicon()["cues"].items():
        if any(re.search(rf"\b{re.escape(p)}\b", lowered) for p in phrases):
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
    for phrases in lexicon()["cues"].values():
        if any(re.search(rf"\b{re.escape(p)}\b", lowered) for p in phrases):
            return frozenset()
    found = (m.group(1) or m.group(2) for m in _VERB_AT.finditer(text))
    return frozenset(t for w in found for t in folded_stems(w))


class CaseValidator:
    """Scores requests against one tool set by weighted coverage and the tools' kinds of action."""

    def __init__(self, toolset: ToolSet) -> None:
        self.names = toolset.names()
        self.position = {name: i for i, name in enumerate(self.names)}
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
        # Which name slot of which tool a word fills, and which tools' names have it: per word, not per tool.
        self.slot_postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.name_postings: dict[str, list[int]] = defaultdict(list)
        for i, slots in enumerate(self.name_terms):
            for k, slot in enumerate(slots):
                for t in slot:
                    self.slot_postings[t].append((i, k))
            for t in self.name_stems[i]:
                self.name_postings[t].append(i)

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

    def _evidence(self, name: str, terms: list[str]) -> tuple[frozenset[str], int, int]:
        """The request's words a tool has (a filler verb only in its name), and how many of its name words the
        request says and does not say."""
        i = self.position[name]
        filler = _filler()
        has = frozenset(t for t in terms if t in self.fields[i] and self._counts(i, t, filler))
        said = sum(1 for slot in self.name_terms[i] if slot & has)
        return has, said, len(self.name_terms[i]) - said

    def _rival(
        self, expected: str, ranked: list[tuple[str, float]], text: str, terms: list[str]
    ) -> tuple[str, float] | None:
        """The best other tool that could be the answer instead (see the module's docstring)."""
        mine, my_said, my_unsaid = self._evidence(expected, terms)
        for name, score in ranked:
            if name == expected:
                continue
            theirs, their_said, their_unsaid = self._evidence(name, terms)
            # Its name claims what the request does not say, while the request says all of the expected one's; or
            # the request says all of both names, and more of the expected one's.
            claims_more = my_unsaid == 0 and (their_unsaid > 0 or their_said < my_said)
            if theirs == mine and _number_twin(expected, name, text):
                continue
            if not (theirs <= mine and their_said <= my_said and (theirs < mine or claims_more)):
                return name, score
        return None

    def scores(self, text: str, *, removed: tuple[str, ...] = (), known_only: bool = True) -> dict[str, float]:
        """Each tool's share (0-1) of the request's words, weighted by rarity and by where the tool has them.

        With `known_only`, words no tool has are left out (a positive case is judged among the tools); without
        it they count against every tool, at a median rarity (a NO_TOOL case may ask for something absent).
        """
        return self._scores(text, self._terms(text), removed=removed, known_only=known_only)

    def _scores(self, text: str, terms: list[str], *, removed: tuple[str, ...], known_only: bool) -> dict[str, float]:
        filler = _filler()
        weight = {t: self.idf.get(t, 0.0 if known_only else self.unknown_idf) for t in terms}
        total = sum(weight.values())
        if not total:
            return {}
        kind = asked_kind(text)
        given = _given(text)
        acc: dict[int, float] = defaultdict(float)
        own: set[int] = set()
        for t in terms:
            for i in self.postings.get(t, ()):
                if not self._counts(i, t, filler):
                    continue
                where = GIVEN_WEIGHT if t in given and t in self.param_names[i] else self.fields[i][t]
                acc[i] += weight[t] * where
                if t not in filler:
                    own.add(i)
        out = {}
        asked = set(terms)
        filled: dict[int, set[int]] = defaultdict(set)
        for t in asked:
            for i, k in self.slot_postings.get(t, ()):
                filled[i].add(k)
        # The request's words that name some tool, by rarity: "worklog" says more than "issue" or "get".
        naming = {t: weight[t] for t in asked if t in self.named and t not in filler}
        naming_total = sum(naming.values())
        recalled: dict[int, float] = defaultdict(float)
        for t, w in naming.items():
            for i in self.name_postings[t]:
                recalled[i] += w
        for i, s in acc.items():
            # The verb alone ("Show changes" for git_show) does not make a tool fit: the rest must say it too.
            if self.names[i] in removed or i not in own:
                continue
            named = self.name_terms[i]
            said = len(filled[i]) / len(named) if named else 0.0
            precision = NAME_FLOOR + (1 - NAME_FLOOR) * said
            other_kind = kind is not None and self.kinds[i] not in (kind, "other")
            share = s / total * precision**NAME_EXPONENT
            if naming_total:
                # A tool whose name lacks the request's rarest naming words fits it less ('the worklog entries for
                # the Jira issue' says jira_get_worklog more than jira_get_issue).
                share *= RECALL_FLOOR + (1 - RECALL_FLOOR) * recalled[i] / naming_total
            if not known_only and named:
                # A tool whose own name the request mostly says is a plausible answer, whatever else it says.
                share = max(share, NAME_PLAUSIBLE * said)
            out[self.names[i]] = share * (OTHER_KIND_FACTOR if other_kind else 1.0)
        return out

    def validate(self, case: Case, *, min_confidence: float) -> Case:
        terms = self._terms(case.intent)
        scores = self._scores(case.intent, terms, removed=case.removed_tools, known_only=case.expected != NO_TOOL)
        ordered = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        ranked = ordered[:2]
        tied = ranked[0][0] if ranked and ranked[0][0] != case.expected else None
        if tied and scores.get(case.expected) == ranked[0][1] and _number_twin(case.expected, tied, case.intent):
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
            rival = self._rival(case.expected, ordered, case.intent, terms)
            runner_up = rival[1] if rival else 0.0
            confidence = 1.0 - RUNNER_UP_WEIGHT * (runner_up / ranked[0][1])
            note = f"validator agrees (runner-up {rival[0]})" if rival else "validator agrees"
            if replacement := next((n for n in sorted(self.replaced_by[case.expected]) if n in scores), None):
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
        checked = self.own.validate(case, min_confidence=min_confidence)
        if not checked.scored or case.expected == NO_TOOL or case.provenance != Provenance.AI_GENERATED:
            return checked
        mine = self.own.scores(case.intent, removed=case.removed_tools)
        floor = CONTEST_SHARE * mine.get(case.expected, 0.0)
        for other in self.others:
            if other.says_more(self.own, case.expected):
                scores = other.scores(case.intent, removed=case.removed_tools)
                rival = max(
                    ((s, n) for n, s in scores.items() if n != case.expected), key=lambda r: (r[0], r[1]), default=None
                )
                if rival is not None and rival[0] >= max(floor, scores.get(case.expected, 0.0)):
                    theirs = other.validate(case, min_confidence=min_confidence)
                    note = f"{checked.note}; contested: the fuller version of its text reads it as {rival[1]}"
                    return checked.model_copy(
                        update={"confidence": theirs.confidence, "status": CaseStatus.EXPLORATORY, "note": note}
                    )
        return checked
