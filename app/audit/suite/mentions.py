"""How a value is said in a request: a name, a made-up id next to the thing it names, a file, a target."""

from __future__ import annotations

import re

from app.audit.suite.lexicon import WORDS
from app.audit.suite.noun_phrase import Item, Noun, Phrase, Slot
from app.audit.suite.phrase_parts import CAMEL, is_thing
from app.audit.suite.values import Value
from app.audit.suite.word_forms import (
    class_of,
    lemmas,
    singular,
)
from app.audit.text import split_identifier


def unnamed_value(head: str, value: Value, values: list[Value]) -> str:
    """The head a bare name can name: not one another value already identifies ("the sprint 10001")."""
    last = singular(head.split()[-1].lower()) if head.split() else ""
    taken = any(v is not value and v.noun and singular(v.noun.split()[-1].lower()) == last for v in values)
    return "" if taken else head


def with_name(value: Value, obj: Phrase, head: str = "", *, made: bool = False) -> Phrase:
    """The object with its name said: 'to invoices_archive' for a new name; 'named worker-2' after the word of
    the object that says what the name is of ('the KubeVirt VirtualMachine web-vm-1 lifecycle' when a noun
    follows that word); 'of the node worker-2' when the object does not say it ('the resource consumption of the
    node ...'). A named thing is "the" one ("Get the Kubernetes Pod named frontend"), unless the request `made` it
    ("Create a label named needs-triage")."""
    if _names_new(value):
        return obj.then(Slot(value.role, "to", value.text))
    obj = _without_by_name(obj)
    # A bare "name" ("Label name.") names the object the request acts on: "the label named needs-triage from ...".
    thing = value.named.split()[-1] if value.named else head.split()[-1] if head and value.param == "name" else ""
    joined = str(obj).lower().replace(" ", "")
    if not value.named or not is_thing(thing) or any(singular(w.lower()) in joined for w in value.named.split()):
        return _after_named_word(obj, thing, _said_name(value.text), made=made)
    said = value.named if any(c.isupper() for c in value.named[1:]) else value.named.lower()
    return obj.then("of", Noun("the", (), said, _said_name(value.text)))


def _without_by_name(obj: Phrase) -> Phrase:
    """The object without "by name" or "by its name": the name is given."""
    for said in ("by its name", "by name"):
        at = obj.index(said)
        if at is not None:
            return Phrase((*obj.items[:at], *obj.items[at + len(said.split()) :]))
    return obj


def _said_name(text: str) -> str:
    """A name of several words reads as one only quoted when it is not a title ('named "Sign in"'); 'Web Team',
    'Sprint 12' and 'frontend' read as they are."""
    words = text.split()
    return f'"{text}"' if len(words) > 1 and any(w[:1].islower() for w in words[1:]) else text


def _after_named_word(obj: Phrase, thing: str, name: str, *, made: bool = False) -> Phrase:
    items = list(obj.items)
    bare = [re.sub(r"'s$", "", item.strip(",.")) if isinstance(item, str) else "" for item in items]
    at = next(
        (i for i in range(len(items) - 1, -1, -1) if thing and singular(bare[i].lower()) == singular(thing.lower())),
        None,
    )
    if at is None:
        return obj.then("named", name)
    word = str(items[at])
    # The verb's own object, when the verb makes it or sets it going, is "a" new one ("Run a Pod named frontend",
    # "Take a screenshot named pricing-page"); a named thing after a preposition is "the" one.
    direct = not any(str(w).lower() in WORDS.prepositions for w in items[:at])
    start, determiner = _determiner_before(items, at)
    if determiner.lower() in WORDS.indefinite_articles and not (made and direct):
        determiner = "the"  # a sentence is given its capital when finished
    modifiers = tuple(str(w) for w in items[start + bool(determiner) : at])
    following = str(items[at + 1]).lower() if at + 1 < len(items) else ""
    joins = following in WORDS.phrase_prepositions | {"and", "or"}
    if at == len(items) - 1 or joins:
        said = Noun(determiner, modifiers, word, f"named {name}")
    elif word.endswith("'s"):
        said = Noun(determiner, modifiers, bare[at], f"{name}'s")
    elif singular(bare[at]) != bare[at]:
        # 'the nodes stats summary': one name does not go inside a plural modifier.
        return Phrase((*items[:start], Noun(determiner, modifiers, word), *items[at + 1 :])).then(
            "of", Noun("the", (), singular(bare[at]), name)
        )
    else:
        # A noun follows ('VirtualMachine lifecycle'): the name goes between, as in 'the web-vm-1 lifecycle'.
        said = Noun(determiner, modifiers, word, name)
    return Phrase((*items[:start], said, *items[at + 1 :]))


def _determiner_before(items: list[Item], at: int) -> tuple[int, str]:
    """Where the phrase of the word at `at` starts, and its determiner ("a", "the", or "" when it has none): found
    before its modifiers and not past a preposition or a thing a value was placed at."""
    for i in range(at - 1, -1, -1):
        word = items[i]
        if not isinstance(word, str):
            return i + 1, ""
        lowered = word.lower()
        if lowered in WORDS.articles:
            return i, word
        if lowered in WORDS.prepositions or lowered in WORDS.determiners or not word[:1].isalnum():
            return i + 1, ""
    return 0, ""


def _names_new(value: Value) -> bool:
    """`newName`, `new_title`: what a rename makes of the thing ("Rename the collection invoices to archive")."""
    return "new" in (w.lower() for w in split_identifier(value.param))


def addressed(target: Value) -> str:
    """Where a message goes, as a person says it: '#release', 'the support-escalations channel', 'dana'."""
    if target.noun == "channel" and not target.text.startswith("#"):
        return f"the {target.text} channel"
    return spoken_form(target)


def spoken_form(value: Value) -> str:
    return f"#{value.text}" if value.text.isdigit() and value.source == "name" else value.text


def mention_of(value: Value, verb: str = "", head: str = "") -> Slot | None:
    """How a request says a value after its object; `verb` is the request's verb ("Assign ... to dana"), `head` the
    thing it acts on ("Add a comment ... on the file ...")."""
    role = value.role
    if role == "scope":
        first = value.side or split_identifier(value.param)[0].lower()
        preposition = "from" if first in WORDS.from_words else "to" if first in WORDS.to_words else "in"
        return Slot(role, preposition, spoken_form(value))
    if value.noun == "time":
        return Slot(role, "at", value.text)
    if role in ("statement", "query"):
        return Slot(role, ":" if role == "statement" else "for", f'"{value.text}"')
    if role == "content":
        if value.noun in WORDS.title_words:
            return Slot(role, "titled", f'"{value.text}"')
        # What goes with an action rather than being its text: 'with the commit message "..."'.
        if value.noun in ("commit message", "comment"):
            return Slot(role, "with", Noun("the", (), value.noun, f'"{value.text}"'))
        return Slot(role, "saying", f'"{value.text}"')
    if role == "ref":
        # A made-up id ("T-1042") only reads well next to the thing it names, not as an afterthought.
        made_up = re.fullmatch(r"[A-Z]-1042", value.text)
        if not value.noun or made_up:
            return None
        if verb.split()[-1:] == ["assign"] and value.noun == "user":
            return Slot(role, "to", spoken_form(value))  # 'Assign the issue PROJ-123 to dana', not '... for user dana'
        if "assignee" in split_identifier(value.param):
            return Slot(role, "assigned to", spoken_form(value))
        if (said := file_said(value, verb, head)) is not None:
            return said
        # Work happens on a branch ("Run the workflow on the branch main"), comes from a source one and goes into a
        # target one; other refs say what the request is for.
        first = value.side or split_identifier(value.param)[0].lower()
        if value.noun == "branch":
            preposition = "from" if first in WORDS.from_words else "into" if first in WORDS.to_words else "on"
        else:
            preposition = "for"
        return Slot(role, preposition, Noun("the", (), value.noun, spoken_form(value)))
    if value.noun == "date":
        first = split_identifier(value.param)[0]
        return Slot(role, first if first in WORDS.time_prepositions | {"from"} else "on", value.text)
    # A camel-case member ("externalOnly") is a program's word, not a person's.
    spoken = re.fullmatch(r"[A-Za-z][A-Za-z -]{0,20}", value.text) and not CAMEL.search(value.text)
    # "with action create", "with method get": which operation to run is the request's verb, not a setting.
    operation = WORDS.operation_words & set(split_identifier(value.param))
    if value.source == "enum" and spoken and not operation:
        # "sortBy: name" is said "sorted by name", not "with sort by name".
        if value.noun.split()[:1] in (["sort"], ["order"]) and value.noun.split()[-1] == "by":
            return Slot(role, "sorted by", value.text)
        # "with low priority", "with critical severity": a setting whose value is an adjective is said as one; an
        # update keeps "with status open", the value it sets.
        sets = class_of(verb) == "update"
        if value.text.isalpha() and "ADJ" in lemmas(value.text.lower()) and not sets:
            return Slot(role, "with", f"{value.text} {value.noun}")
        return Slot(role, "with", f"{value.noun} {value.text}")
    return None


def file_said(value: Value, verb: str, head: str) -> Slot | None:
    """Where a file goes in a request: what is uploaded comes from it ('Upload an attachment to the page P-1042
    from the file ...'), a comment is made on it; None for other values and actions."""
    if value.noun != "file":
        return None
    if verb.split()[-1:] and verb.split()[-1] in WORDS.from_file:
        return Slot(value.role, "from", Noun("the", (), "file", spoken_form(value)))
    if head.lower().split()[-1:] == ["comment"]:
        return Slot(value.role, "on", Noun("the", (), "file", spoken_form(value)))
    return None
