"""Task and indirect requests: a frame of the verb's class (frames.yml) with its slots filled from the
reading of the tool and its values ("Can you pull up the ticket T-1042?", "The ticket T-1042 is no longer
needed.")."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from app.audit.models import Phrasing
from app.audit.suite.lexicon import WORDS
from app.audit.suite.mentions import addressed, file_said, mention_of, spoken_form, unnamed_value, with_name
from app.audit.suite.noun_phrase import Item, Noun, Phrase, Slot
from app.audit.suite.phrase_parts import Phrased, after_noun, ends_with, is_thing
from app.audit.suite.placed_words import makes
from app.audit.suite.placing import filled_in, paired, place, quote_at_head, says
from app.audit.suite.reading import Reading
from app.audit.suite.realiser import FramePlan, fill
from app.audit.suite.values import Value
from app.audit.suite.word_forms import (
    inflections,
    lemmas,
    plural,
    singular,
    uncountable,
    verb_classes,
)
from app.audit.text import split_identifier

FRAMES_FILE = Path(__file__).with_name("frames.yml")


@cache
def frame_data() -> dict[str, Any]:
    """frames.yml (frames, filler, cues), checked: every class a dict key, every frame a string."""
    path = FRAMES_FILE
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not {"task", "indirect", "filler", "cues"} <= set(data):
        raise ValueError(f"{path}: needs the keys task, indirect, filler, cues")
    for family in ("task", "indirect"):
        for cls, frames in data[family].items():
            if not isinstance(cls, str) or not all(isinstance(f, str) for f in frames):
                raise ValueError(f"{path}: {family}.{cls} must map a class name to a list of strings (quote 'on')")
    return data


def framed(family: str, reading: Reading, values: list[Value]) -> list[Phrased]:
    frames = frame_data()[family]
    plan = frame_plan(reading, values)
    phrasing = Phrasing.TASK if family == "task" else Phrasing.INDIRECT
    out = []
    verb = reading.verb.split()[-1]
    fits = WORDS.fits.get(reading.verb_class)
    last = reading.head.split()[-1].lower() if reading.head.split() else ""
    code = reading.verb_class == "run" and last in WORDS.code
    # A thing taken away from another is not gone: "The user dana still needs to be removed from the issue ...", not
    # "The user dana from the issue ... is no longer needed".
    taken = verb in WORDS.taking and bool(plan.rest)
    own_fits = (fits is None or verb in fits) and reading.verb_class != "other" and not code and not taken
    own = frames.get(reading.verb_class, []) if own_fits else []
    # "Would you mark the pull request?": a verb that needs more than its object says nothing alone.
    other = [] if verb in WORDS.complement else frames.get("other", [])
    # "Can we get the query run?": code is asked to be run, not to have been run.
    vague = verb in WORDS.vague or code
    passive = reading.verb_class not in WORDS.no_passive and not vague
    measure = last in WORDS.measures
    containers = WORDS.containers
    for frame in [*own, *other]:
        if measure and "{objs}" in frame:
            continue
        if "what is in" in frame and (measure or not {last, singular(last)} & set(containers)):
            continue
        if "{done}" in frame and not passive:
            continue
        if (text := fill(frame, plan)) is not None:
            out.append(Phrased(text, phrasing))
    return out


def listing(verb: str) -> bool:
    """Whether a verb lists or searches: its plural object stays plural when a value narrows it."""
    return verb_classes().get(verb) in WORDS.listing


def lists(reading: Reading) -> bool:
    """A listing ("List commits", "Get list of commits"): its plural object stays plural when a value narrows it."""
    return reading.verb_class in WORDS.listing or bool(re.match(r"(?:an? |the )?list of ", reading.object.lower()))


def frame_plan(reading: Reading, values: list[Value]) -> FramePlan:
    """The typed plan a frame is filled from: the object as a phrase headed by its noun phrase (determiner,
    modifiers, head, value), what it belongs to and the values said after it as slots, and the parts around it."""
    head = reading.head if is_thing(reading.head) else ""
    first = next((v for v in values if v.role == "ref" and v.noun), None)
    if first is not None and head.lower() == plural(first.noun) and not lists(reading):
        head = first.noun  # "switch branches" to one named branch: "switch to the branch release-2.1"
    # The head with what it belongs to ("the logs of a Kubernetes Pod"), values put where their nouns are.
    phrase, placed = place(Phrase.of(f"the {head} {reading.owner}".strip()), values)
    unplaced = [v for v in values if v not in placed]
    ref = next((v for v in unplaced if v.role == "ref"), None)
    scope = next((v for v in unplaced if v.role == "scope"), None)
    query = (
        next((v for v in values if v.role == "query"), None)
        if reading.verb_class in ("search", "list", "read")
        else None
    )
    content = next((v for v in values if v.role == "content" and v.noun not in WORDS.title_words), None)
    target = next((v for v in values if v.noun in ("channel", "address", "user")), None)
    obj, placed = quote_at_head(phrase, head, values, placed) if head else (phrase, placed)
    # "the sub issue #1042": the head already has its own value; the other ref says what it belongs to.
    valued = any(f"the {head} {spoken_form(v)}" in str(phrase) for v in placed)
    if ref is not None and not ref.noun and ref.param.lower().endswith("name"):
        obj = with_name(ref, phrase, unnamed_value(head, ref, values), made=makes(reading.verb))
    elif ref is not None and not valued and ref.noun and singular(head) != head and lists(reading) and ends_with(
        head, ref.noun
    ):
        # A listing of commits given one: its history.
        obj = phrase.then(Slot(ref.role, "up to", Noun("the", (), ref.noun, spoken_form(ref))))
    elif ref is not None and head and not valued and ends_with(head, ref.noun):
        obj = _at_head(phrase, head, _headed(head, spoken_form(ref)))
    elif ref is not None and not valued and (kept := after_noun(head, ref.noun)):
        # "the pull request branch" of pull request 142: "the branch of the pull request #142" (an owner that
        # names the same thing, "gist content of a gist", goes: it is that one).
        if re.search(rf"\b{re.escape(ref.noun)}s?$", reading.owner, re.IGNORECASE):
            phrase = Phrase.of(f"the {head}")
        owner = Noun("the", (), ref.noun, spoken_form(ref))
        obj = _at_head(phrase, head, _headed(kept), "of", owner)
    elif ref is not None and "assignee" in split_identifier(ref.param):
        obj = phrase.then(Slot(ref.role, "assigned to", spoken_form(ref)))
    elif ref is not None and (said := file_said(ref, reading.verb, head)) is not None:
        obj = phrase.then(said)
    elif ref is not None and not re.fullmatch(r"[A-Z]-1042", ref.text) and not (valued and ref.noun == head.lower()):
        # What is added goes to the thing ("add the comment to issue #142"); what is read belongs to it.
        joins = reading.verb.split()[-1] in WORDS.adding and not says("to", str(phrase))
        # Work is done on a branch, not of it: "the file config/settings.yaml on the branch main".
        on_branch = mention_of(ref, reading.verb, head) if ref.noun == "branch" else None
        owner = Noun("the", (), ref.noun, spoken_form(ref))
        obj = phrase.then(on_branch or Slot(ref.role, "to" if joins else "of", owner))
    text = next((v for v in values if v.role == "content" and v not in placed and _worded(v)), None)
    carries = reading.verb.split()[-1] in WORDS.adding | WORDS.telling
    if head and text is not None and carries and f'"{text.text}"' not in str(obj):
        # What is added says what it says: 'add the comment saying "..." to the issue PROJ-123', not a bare "the
        # comment" the request never gives.
        mention = mention_of(text, reading.verb, head)
        if mention is not None:
            at = obj.complement()
            at = len(obj.items) if at is None else at
            obj = Phrase((*obj.items[:at], mention, *obj.items[at:]))
    statement = next((v for v in values if v.role == "statement"), None)
    code = head.split()[-1].lower() in WORDS.code if head else False
    if statement is not None and code:
        # A query tool's request gives the query: 'Kick off the SQL query "SELECT ..."', not a bare 'the SQL query'.
        obj = _at_head(obj, head, _headed(head, f'"{statement.text}"'))
    # "in payments"; a pair reads "from America/New_York to Asia/Tokyo".
    scopes = [m for v in unplaced if v.role == "scope" and v is not target and (m := mention_of(v))]
    said_where = scope is not None and scope is not target and scopes
    if said_where and len(scopes) == 1 and (filled := filled_in(obj, scopes[0])) is not None:
        obj, said_where = filled, False  # "the current time in a timezone" and "in Lisbon": "... in Lisbon"
    where = f" {paired(scopes, set(range(len(scopes))))[0]}" if said_where else ""
    # The phrase was built with "the" before its head; which determiner it says is the plan's to decide.
    obj = _at_head(obj, head, _headed(head)) if head else obj
    if obj.determiner == "the":
        obj = obj.with_determiner(_determiner(reading, head))
    # What is taken away is taken from something: "The user dana still needs to be removed | from the issue ...".
    split = obj.complement(_FROM if reading.verb.split()[-1] in WORDS.taking else frozenset())
    subj = Phrase(obj.items[:split]) if split is not None else obj
    rest = f" {Phrase(obj.items[split:])}" if split is not None else ""
    return FramePlan(
        obj=obj if head else None,
        subj=subj if head else None,
        rest=rest if head else None,
        thing=singular(head) if head else None,
        objs=plural(head) if head else None,
        where=where,
        query=query.text if query else None,
        content=content.text[0].lower() + content.text[1:].rstrip(".") if content else None,
        target=addressed(target) if target else None,
        verb=f"{reading.verb} {reading.particle}" if reading.particle else reading.verb,
        done=None if reading.particle else _participle(reading.verb),
        many=singular(head) != head or _joined_things(head),
        mass=bool(head) and uncountable(head),
        topic=bool(head) and bool({head.split()[-1].lower(), singular(head.split()[-1].lower())} & WORDS.containers),
        new=bool(head)
        and (reading.verb.split()[-1] in WORDS.bringing or reading.verb_class == "create")
        and reading.verb.split()[-1] not in WORDS.moving  # what is copied exists: "Clone the VirtualMachine ..."
        and not any(f"{head} {spoken_form(v)}" in str(obj) for v in values),
    )


def _joined_things(head: str) -> bool:
    """Two things joined by "and" are counted as many ("the travel distance and time ... need"), two qualities of
    one thing are not ("dynamic and reflective problem-solving")."""
    words = head.lower().split()
    kinds = [lemmas(w).keys() & {"NOUN", "ADJ"} for w in words]
    return any(w == "and" and i and kinds[i - 1] == {"NOUN"} for i, w in enumerate(words))


def _determiner(reading: Reading, head: str) -> str:
    """What opens the object's phrase in a frame: the possessive the description gives ("my GitHub profile"),
    none before a genitive of a word that says which by itself ("today's weather forecast", "GitHub's status") or
    before a name the description says without one ("assign Copilot"), else "the" ("the project's epics": the
    article is the project's)."""
    own = next((p for p in sorted(WORDS.possessives) if f" {p} {head.lower()}" in f" {reading.object.lower()}"), None)
    if own:
        return own
    first = head.split()[0]
    if len(head.split()) == 1 and first[:1].isupper() and reading.object.split()[:1] == [first]:
        return ""  # a name the description says without an article: "Copilot", "JavaScript"
    owner = re.sub(r"['’]s?$", "", first)
    genitive = owner != first and (owner.lower() in WORDS.deictic or owner[:1].isupper())
    return "" if genitive else "the"


_FROM = frozenset({"from"})


def _headed(head: str, value: str = "") -> Noun:
    """The object's own noun phrase: "the" and the head's words, the last its head ("the Jira | issue")."""
    *modifiers, last = head.split()
    return Noun("the", tuple(modifiers), last, value)


def _at_head(phrase: Phrase, head: str, *items: Item) -> Phrase:
    """`phrase` with "the" and its head, where it first says them as words, said as `items`."""
    at = phrase.index(f"the {head}")
    if at is None:
        return phrase
    return Phrase((*phrase.items[:at], *items, *phrase.items[at + 1 + len(head.split()) :]))


def _worded(value: Value) -> bool:
    """Content a person would quote: not a file's bytes ("content_base64")."""
    return not re.search(r"base ?64|binary|bytes", " ".join(split_identifier(value.param)).lower())


def _participle(verb: str) -> str | None:
    """'merge' -> 'merged', 'take' -> 'taken'; None for a verb said with a preposition ('navigate to') or of
    several words, which would leave the preposition dangling ("still needs to be navigated to")."""
    if " " in verb.strip() or verb in WORDS.particles:
        return None
    forms = inflections(verb, "VBN")
    return forms[0] if forms else None
