"""Placing a request's values in its object phrase ("the ticket T-1042", "the branch main of acme/webshop"):
each value once, where a person would say it."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from app.audit.suite.lexicon import WORDS
from app.audit.suite.mentions import mention_of, spoken_form, unnamed_value, with_name
from app.audit.suite.noun_phrase import Found, Noun, Phrase, Slot, find, heads
from app.audit.suite.phrase_parts import ends_with, is_thing
from app.audit.suite.placed_words import described, makes, without_alternative, without_alternative_before
from app.audit.suite.values import Value
from app.audit.suite.word_forms import plural, singular


def place(phrase: Phrase, values: list[Value], *, one: bool = False, later: bool = False) -> tuple[Phrase, list[Value]]:
    """Each value put where the phrase names its thing, as the `Noun` of that thing: 'in a GitHub repository' ->
    'in the GitHub repository acme/webshop'; returns the phrase and the values placed. With `one` (an action on one
    thing, not a listing), a plural object is the one thing the value names: 'Check out the branches' -> 'Check out
    the branch main'. With `later` (a description's own phrase), a mention that modifies the next noun is passed
    over for a later one: "issue field values for an issue" -> "... for the issue #142"."""
    phrase, done = _two_named(phrase, values)
    for value in values:
        if value in done:
            continue
        named = value.noun and value.role in ("ref", "scope")
        nouns = WORDS.noun_synonyms.get(value.noun, (value.noun,)) if named else ()
        bare = re.sub(r"^the ", "", str(phrase).lower())
        if one and value.role == "ref" and value.noun and bare == plural(value.noun):
            nouns = (*nouns, plural(value.noun))
        # "Confluence content" given a page: the value says which thing the description's general word is.
        unsaid = value.role == "ref" and value.noun and value.noun.lower() not in str(phrase).lower()
        general = _general_for(value, values) if unsaid else ()
        for noun in (*nouns, *general):
            found = find(phrase, noun)
            candidates = found if later else itertools.islice(found, 1)
            at = next((f for f in candidates if heads(phrase, f) and not _names_other(phrase, f, value, values)), None)
            if at is None:
                continue
            # "an image or audio file": the alternatives are of a modifier, and the file is either.
            before = phrase.words(0, at.start)
            kept = before if at.modifiers < at.noun else without_alternative_before(f"{before} ").rstrip()
            keep = at.start - (len(before.split()) - len(kept.split()))
            starts = at.start < at.modifiers or not kept or kept.split()[-1].lower() in WORDS.phrase_prepositions
            said = at.said(phrase)
            plural_said = said.lower() == plural(value.noun).lower() != value.noun
            thing = value.noun if plural_said or noun in general else said
            # "a new branch" stays a new one with its name: "Create a new branch release-2.1".
            opener = str(phrase.items[at.start]) if at.start < at.modifiers else ""
            new = opener.lower() in WORDS.indefinite_articles and str(phrase.items[at.modifiers]).lower() == "new"
            determiner = opener if new else "the" if starts else ""
            noun_said = at.as_noun(phrase, determiner=determiner, head=thing, value=spoken_form(value))
            after = phrase.words(at.end, len(phrase.items))
            dropped = len(after.split()) - len(without_alternative(f" {after}" if after else "").split())
            # Only words go with the alternative, never a thing a value was placed at.
            cut = (*phrase.items[keep : at.start], *phrase.items[at.end : at.end + dropped])
            if not all(isinstance(w, str) for w in cut):
                keep, dropped = at.start, 0
            phrase = _alternatives_definite(phrase.replaced(keep, at.end + dropped, noun_said), keep)
            done.append(value)
            break
    return phrase, done


def _general_for(value: Value, values: list[Value]) -> tuple[str, ...]:
    """The general words (lexicon `general_things`) a ref's value may name, when no value is of that word itself."""
    own = {v.noun.lower() for v in values if v.noun}
    return tuple(sorted(WORDS.general_things - own - {value.noun.lower()}))


def _alternatives_definite(phrase: Phrase, at: int) -> Phrase:
    """A value placed after alternatives of a modifier says which thing: "to an issue or pull request comment #1042"
    -> "to the issue or pull request comment #1042" (the determiner before the first alternative is the phrase's)."""
    items = phrase.items
    noun = items[at]
    if not isinstance(noun, Noun) or noun.determiner or not noun.modifiers or at < 3 or items[at - 1] != "or":
        return phrase
    article, alternative = items[at - 3], items[at - 2]
    indefinite = isinstance(article, str) and article.lower() in WORDS.indefinite_articles
    if not indefinite or not isinstance(alternative, str):
        return phrase
    return Phrase((*items[: at - 3], "the", *items[at - 2 :]))


def _two_named(phrase: Phrase, values: list[Value]) -> tuple[Phrase, list[Value]]:
    """'a link between two Jira issues' with two issue keys given: 'between the Jira issues PROJ-123 and PROJ-456'."""
    by_noun: dict[str, list[Value]] = {}
    for value in values:
        if value.role == "ref" and value.noun:
            by_noun.setdefault(value.noun.split()[-1], []).append(value)
    for noun, pair in by_noun.items():
        if len(pair) != 2:
            continue
        for at in find(phrase, plural(noun)):
            # "two" and up to two modifiers before the things, "the", "a" or "an" before it.
            two = next((i for i in range(at.modifiers, at.noun) if phrase.items[i] == "two"), None)
            if two is None or at.noun - two > 3:
                continue
            start = two - 1 if two and str(phrase.items[two - 1]).lower() in WORDS.articles else two
            modifiers = tuple(str(w) for w in phrase.items[two + 1 : at.noun])
            said = Noun("the", modifiers, at.said(phrase), f"{spoken_form(pair[0])} and {spoken_form(pair[1])}")
            return phrase.replaced(start, at.end, said), pair
    return phrase, []


def _joined(slots: list[Slot]) -> list[Slot]:
    """Two values of one kind said together: 'for the issues PROJ-123 and PROJ-456', not 'for the issue ... for the
    issue ...'."""
    out: list[Slot] = []
    for slot in slots:
        last = out[-1] if out else None
        if last is not None and isinstance(slot.said, Noun) and isinstance(last.said, Noun) and (
            slot.names("for") and last.names("for") and slot.said.head.split()[-1] == last.said.head.split()[-1]
        ):
            things = Noun("the", (), plural(slot.said.head.split()[-1]), f"{last.said.value} and {slot.said.value}")
            out[-1] = Slot(slot.role, "for", things)
        else:
            out.append(slot)
    return out


def _names_other(phrase: Phrase, found: Found, value: Value, values: list[Value]) -> bool:
    """'the sub issue': the phrase names another value's thing (`sub_issue_id`), not this one's (`issue_number`)."""
    said = phrase.words(found.modifiers, found.noun_end).lower().replace("-", " ")
    noun = value.noun.lower()
    return any(
        other is not value and other.noun.lower() != noun and other.noun.lower().endswith(f" {noun}")
        and other.noun.lower() in said
        for other in values
    )


def _repeats(slot: Slot, tail: list[Slot], obj: str) -> bool:
    """A second 'saying ...' or 'with ...', or a setting the object already names ('the status' + 'with status')."""
    kind = slot.preposition
    if kind in ("saying", "with") and any(t.preposition == kind for t in tail):
        return True
    said = slot.said.head if isinstance(slot.said, Noun) else str(slot.said)
    setting = said.split()[0]  # 'with the comment "..."': comment
    # A second "with" reads as a list of settings: "the directory with sizes with sort by name".
    return kind == "with" and (f" {setting}" in f" {obj.lower()}" or " with " in f" {obj} ")


def with_values(obj: str, head: str, values: list[Value], *, one: bool = False, verb: str = "") -> Phrase:
    """Put each value where the object names its thing, else after it: 'in a repository' -> 'in acme/webshop'.
    `verb` is the request's verb: a thing moved or copied goes "to" its target ('Move the page P-1042 to ENG')."""
    phrase, placed = place(Phrase.of(obj), values, one=one, later=True)
    phrase, placed = quote_at_head(phrase, head, values, placed)
    tail: list[Slot] = []
    places: set[int] = set()
    adds = bool(verb) and verb.split()[-1].lower() in WORDS.adding
    takes = bool(verb) and verb.split()[-1].lower() in WORDS.taking
    for value in values:
        if value in placed:
            continue
        if value.role == "ref" and not value.noun and value.param.lower().endswith("name"):
            phrase = with_name(value, phrase, unnamed_value(head, value, values), made=makes(verb))
        elif (stated := described(phrase, head, value, verb)) is not None:
            phrase = stated
        elif value.role == "ref" and not value.noun and head and (found := phrase.locate(head)) and not found[1]:
            phrase = _valued_head(phrase, found[0], head, spoken_form(value))
        elif (slot := mention_of(value, verb, head)) is not None and not _repeats(slot, tail, str(phrase)):
            written = str(phrase)
            if adds and slot.names("for") and not says("to", written, tail):
                slot = slot.joined_by("to")  # what is added goes to a thing: "to the issue #142"
            elif takes and slot.names("for") and not says("from", written, tail):
                slot = slot.joined_by("from")  # and what is removed comes from one
            elif value.role == "query" and says("for", written, tail) and not says("matching", written, tail):
                slot = slot.joined_by("matching")  # 'Search for issues matching "..."', one "for"
            elif not one and value.role == "ref" and singular(head) != head and ends_with(head, value.noun):
                # a listing of commits given one: its history
                slot = Slot(value.role, "up to", Noun("the", (), value.noun, spoken_form(value)))
            if value.role == "scope" and slot.preposition == "in" and value.noun and places:
                # A second place says what it is: 'in payments in the cluster prod-eu', not '... in prod-eu'.
                slot = Slot(value.role, "in", Noun("the", (), value.noun, spoken_form(value)))
            if (filled := filled_in(phrase, slot)) is not None:
                phrase = filled
                continue
            tail.append(slot)
            if value.role == "scope":
                places.add(len(tail) - 1)
    obj = str(phrase)
    moved = verb.split()[-1].lower() in WORDS.moving if verb else False
    said = _joined(paired(tail, places, moved=moved and " to " not in f" {obj} "))[:2]
    # Two things the request is for are said once: "for the service desk 4 and the request type 23".
    for i, slot in enumerate(said):
        earlier = " for the " in f" {obj} " or any(s.names("for") for s in said[:i])
        if earlier and slot.names("for") and " and " not in f" {obj} {' '.join(map(str, said[:i]))} ":
            said[i] = slot.joined_by("and")
    said = _things_before_places(said)
    # A quoted command or statement ends the request: 'in a Pod named frontend in payments: "ls -la /app"'.
    said.sort(key=lambda slot: slot.preposition == ":")
    return phrase.then(*said)


def filled_in(phrase: Phrase, slot: Slot) -> Phrase | None:
    """The phrase with the slot's value said where the object already joins a thing not yet named with the slot's
    words: "the lockers assigned to a member" and "assigned to dana" -> "the lockers assigned to dana", not "... to a
    member assigned to dana". None when the object does not say it so."""
    at = phrase.index(slot.preposition)
    if at is None:
        return None
    start = at + len(slot.preposition.split())
    thing = phrase.items[start : start + 3]
    after = str(thing[2]).lower() if len(thing) > 2 else ""
    if len(thing) < 2 or str(thing[0]).lower() not in WORDS.indefinite_articles or not isinstance(thing[1], str):
        return None
    if (after and after not in WORDS.prepositions) or not is_thing(thing[1]):
        return None
    return Phrase((*phrase.items[:start], slot.said, *phrase.items[start + 2 :]))


def _things_before_places(said: list[Slot]) -> list[Slot]:
    """The thing a request is about before the place it is in: "for the pull request #142 in acme/webshop", not
    "in acme/webshop for the pull request #142" (a place is moved only past the things named after it)."""
    last = max((i for i, slot in enumerate(said) if slot.role == "ref"), default=0)
    places = [slot for slot in said[:last] if slot.role == "scope" and slot.preposition == "in"]
    if not places:
        return said
    rest = [slot for slot in said if slot not in places]
    at = rest.index(said[last]) + 1
    return [*rest[:at], *places, *rest[at:]]


def _valued_head(phrase: Phrase, at: int, head: str, value: str) -> Phrase:
    """The head at `at`, with the determiners before it, said as "the" head and its value: 'a ticket' and T-1042
    -> 'the ticket T-1042'."""
    start = at
    while start > max(0, at - 2) and str(phrase.items[start - 1]).lower() in WORDS.phrase_openers:
        start -= 1
    *modifiers, last = (str(w) for w in phrase.items[at : at + len(head.split())])
    return phrase.replaced(start, at + len(head.split()), Noun("the", tuple(modifiers), last, value))


def says(preposition: str, obj: str, tail: Sequence[Slot] = ()) -> bool:
    """Whether the request already says where a thing goes ("to ENG") or comes from ("from the issue #142")."""
    return f" {preposition} " in f" {obj} " or any(t.preposition == preposition for t in tail)


def quote_at_head(phrase: Phrase, head: str, values: list[Value], placed: list[Value]) -> tuple[Phrase, list[Value]]:
    """Text that is the object itself goes after it: 'Type the text "hello" into the element', 'Wait for the text
    "Saved" to appear', not '... saying "hello"'."""
    said = next((v for v in values if v.role == "content" and v.noun and v.noun == head.lower()), None)
    # "the title of the issue" with a new title: the value is what it becomes, not which title it is.
    if said is None or said in placed:
        return phrase, placed
    for at in find(phrase, head, max_modifiers=0, openers=WORDS.articles):
        if phrase.items[at.noun_end : at.noun_end + 1] != ("of",):
            *modifiers, last = head.split()
            quoted = Noun("the", tuple(modifiers), last, f'"{said.text}"')
            return phrase.replaced(at.start, at.noun_end, quoted), [*placed, said]
    return phrase, placed


def paired(tail: list[Slot], places: set[int], *, moved: bool = False) -> list[Slot]:
    """Of the slots at `places` (where values), 'from X' and 'to Y' said together, as one slot: 'from
    America/New_York to Asia/Tokyo'; alone, 'to DEV' could read as the action's own 'to', so it says 'in DEV',
    unless the action moves its thing (`moved`): 'Move the issue PROJ-123 to OTHERPROJ'."""
    start = next((i for i in sorted(places) if tail[i].preposition == "from"), None)
    end = next((i for i in sorted(places) if tail[i].preposition == "to"), None)
    if start is None or end is None:
        lone = start if start is not None else end
        if moved and lone is not None and lone == end:
            return tail
        return [t.joined_by("in") if i == lone else t for i, t in enumerate(tail)]
    both = Slot(tail[start].role, "from", f"{tail[start].said} {tail[end]}")
    return [both if i == start else t for i, t in enumerate(tail) if i != end]
