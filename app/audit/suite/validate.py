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

The tool set's index is in tool_index.py, the scores and their ranking in request_scores.py, wording in
request_words.py.
"""

from __future__ import annotations

from app.audit.models import NO_TOOL, Case, CaseStatus, Provenance
from app.audit.suite.request_scores import Ranking, read_request
from app.audit.suite.tool_index import ToolIndex
from app.audit.text import split_identifier, words

# Cases whose expected answer cannot be defended with at least this confidence are exploratory.
MIN_CONFIDENCE = 0.7
RUNNER_UP_WEIGHT = 0.5
NO_TOOL_WEIGHT = 1.0


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


class CaseValidator(ToolIndex):
    """Scores requests against one tool set by weighted coverage and the tools' kinds of action."""

    def says_more(self, other: CaseValidator, name: str) -> bool:
        """Whether this version's text says more about tool `name` than `other`'s (both have the tool)."""
        mine, theirs = self.said.get(name), other.said.get(name)
        return mine is not None and theirs is not None and len(mine - theirs) > len(theirs - mine)

    def _evidence(self, name: str, terms: frozenset[str]) -> tuple[frozenset[str], int, int]:
        """The request's words a tool has (a filler verb only in its name), and how many of its name words the
        request says and does not say."""
        i = self.position[name]
        has = self.counting[i] & terms
        slots = self.name_terms[i]
        said = len(slots) - sum(map(has.isdisjoint, slots))
        return has, said, len(slots) - said

    def _rival(self, expected: str, ranking: Ranking, text: str) -> tuple[str, float] | None:
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
        request = read_request(self, text, self._terms(text), removed=removed, known_only=known_only)
        return Ranking(self, request).all()

    def rank(self, case: Case) -> Ranking:
        """The tools' scores for a case's request, as validate() reads them."""
        terms = self._terms(case.intent)
        known_only = case.expected != NO_TOOL
        return Ranking(self, read_request(self, case.intent, terms, removed=case.removed_tools, known_only=known_only))

    def validate(self, case: Case, *, min_confidence: float) -> Case:
        return self.judge(case, self.rank(case), min_confidence=min_confidence)

    def judge(self, case: Case, ranking: Ranking, *, min_confidence: float) -> Case:
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
