"""What placing a value changes in the words around it: the alternative the value rules out ("the file X or
directory" -> "the file X", "a new parent or space ENG" -> "the space ENG"), a state said before the thing it
describes ("open pull requests"), and whether a thing the request names is a new one ("Create a label named ...")."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from app.audit.suite.articles import indefinite_article
from app.audit.suite.lexicon import WORDS
from app.audit.suite.noun_phrase import Noun, Phrase
from app.audit.suite.phrase_parts import NOT_NOUNS, is_thing
from app.audit.suite.values import Value
from app.audit.suite.word_forms import class_of, lemmas, singular


def without_alternative(rest: str) -> str:
    """What follows a placed value without the alternative the description offered next to its thing: the file
    config/settings.yaml "or directory", the repository acme/webshop "or its owner organization" (the value says
    which one the request is about)."""
    words = rest.split()
    if not words or words[0] != "or":
        return rest
    said = 1 + (len(words) > 1 and words[1].lower() in WORDS.phrase_openers)
    nouns = list(itertools.takewhile(lambda w: w.isalpha() and w.lower() not in NOT_NOUNS, words[said : said + 2]))
    if not nouns or not is_thing(nouns[-1]) or lemmas(nouns[0].lower()).keys() == {"VERB"}:
        return rest
    kept = words[said + len(nouns) :]
    return f" {' '.join(kept)}" if kept else ""


# "a new parent or " before the thing a value is placed at: the alternative offered first.
_ALTERNATIVE_BEFORE = re.compile(r"(?:\b(?:an?|the)\s+)?((?:[A-Za-z-]+\s+){1,2})or\s+$", re.IGNORECASE)


def without_alternative_before(before: str) -> str:
    """What comes before a placed value's thing without the alternative the description offered first: "to a new
    parent or space" with the space ENG -> "to the space ENG" (the value says which one the request is about)."""
    match = _ALTERNATIVE_BEFORE.search(before)
    if match is None:
        return before
    words = match.group(1).split()
    if not is_thing(words[-1]) or any(w.lower() in NOT_NOUNS | WORDS.determiners for w in words):
        return before
    return before[: match.start()]


def described(obj: Phrase, head: str, value: Value, verb: str) -> Phrase | None:
    """A state said as a person says it, before the thing it describes: "open pull requests", "a private project",
    not "... with state open" (lexicon.yml `said_before_head`: the settings whose values describe the thing; only a
    value that is an adjective or a participle). Not for an update, where the value is what the thing becomes, nor
    when the thing is the setting itself ("the state of the issue"). None when it is not said so."""
    word = value.text
    if value.source != "enum" or value.noun not in WORDS.said_before_head or not word.isalpha() or not head:
        return None
    if class_of(verb) == "update":
        return None
    if singular(head.split()[-1].lower()) in WORDS.said_before_head:
        return None
    known = lemmas(word.lower())
    if "ADJ" not in known and not (word.endswith("ed") and "VERB" in known):
        return None
    found = obj.locate(head)
    if found is None:
        return None
    at, inside = found
    items = list(obj.items)
    noun = items[at]
    if inside and isinstance(noun, Noun):
        # The state goes right before the thing's words inside its phrase: "a new private GitLab project named ...".
        said = [w.lower() for w in (*noun.modifiers, *noun.head.split())]
        wanted = head.lower().split()
        j = next(j for j in range(len(said)) if said[j : j + len(wanted)] == wanted)
        modifiers = (*noun.modifiers[:j], word.lower(), *noun.modifiers[j:])
        return Phrase((*items[:at], replace(noun, modifiers=modifiers), *items[at + 1 :]))
    before = items[at - 1] if at else None
    if isinstance(before, str) and before.lower() in WORDS.indefinite_articles:
        # The article goes with the word now after it: "a config" -> "an open config".
        article = indefinite_article(word.lower())
        items[at - 1] = article  # a sentence is given its capital when finished
    return Phrase((*items[:at], word.lower(), *items[at:]))


def makes(verb: str) -> bool:
    """Whether the verb may bring its object into being or set it going ("create", "run", "take"): its object, named,
    is "a" new one; what is read, listed, changed or deleted is "the" one."""
    kind = class_of(verb)
    return kind not in ("read", "list", "search", "update", "delete", "send")
