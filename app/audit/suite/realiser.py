"""Wording a request once: a frame filled from a typed plan, then finished as a sentence.

A `FramePlan` is what a task or indirect frame (frames.yml) is filled with: the object as a `Phrase`
(noun_phrase.py) headed by its noun phrase (determiner, modifiers, head, value) with what it belongs to and the
values said after it as typed slots, the phrases around it, and what agreement needs to know of it (its number,
whether its noun is counted). `fill` words a frame from a plan once: the verb after the object agrees with it
("is"/"are", "needs"/"need", "Is"/"Are there any"), the determiner of a thing the request brings into being ("add a
comment"), a frame's "a" before a slot is "a" or "an" as the slot's first word is spoken, a search text is "about"
only what holds text ("issues about ..."; a pattern or a name is "matching"). `finish` makes any drafted request a
sentence: one space between words, a capital, an end mark; a draft that would not read as one (an unfilled slot, a
repeated word, too short or long) is dropped, never shown. Nothing here rewrites the words a builder chose.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, fields
from functools import lru_cache

from app.audit.suite.articles import indefinite_article
from app.audit.suite.lexicon import WORDS
from app.audit.suite.noun_phrase import Phrase
from app.audit.suite.phrase_parts import MAX_WORDS, SLOT

# A frame's indefinite article before a slot: decided by the slot's words, not written in the frame.
_ARTICLE_SLOT = re.compile(r"\ba \{(\w+)\}")
# Sentences whose check is kept: the same drafts come back for each example-value variant, each top-up and each
# contrastive rival.
_SENTENCES = 65_536


@dataclass(frozen=True)
class FramePlan:
    """The parts a frame is filled with, each None when the tool's reading has none (a frame that needs it is not
    used). `many` and `mass` say how the object is counted; agreement is decided from them, not written."""

    obj: Phrase | None  # the object with its values, headed by its noun phrase: "the ticket T-1042"
    subj: Phrase | None  # the object before its "to"/"into" part, for frames that put the verb after it
    rest: str | None  # that part: " to the user dana"
    thing: str | None  # the bare object: "ticket"
    objs: str | None  # the object in the plural: "tickets"
    where: str  # " in acme/webshop" or ""
    query: str | None  # a search text
    content: str | None  # text to write
    target: str | None  # where a message goes
    verb: str  # the tool's own verb, with the preposition it takes ("navigate to")
    done: str | None  # its past participle ("merged"); None for a verb said with a preposition
    many: bool = False  # the object is plural: "are", "need"
    mass: bool = False  # the object's noun is not counted: "Is there any code ..."
    topic: bool = False  # the object's things hold text a search can be about ("issues about ..."); else "matching"
    new: bool = False  # the request brings the object into being ("add a comment saying ..."): "a" (or, for things,
    # no determiner) after the verb

    def offers(self) -> frozenset[str]:
        """The slots this plan can fill."""
        counted = ("many", "mass", "topic", "new")
        parts = {f.name for f in fields(self) if f.name not in counted and getattr(self, f.name) is not None}
        # The complement split and the agreement are said of the object: with no object there is none of them.
        said = {"pwhere", "ewhere"} | ({"be", "needs", "Are"} if self.obj is not None else set())
        return frozenset(parts | said | ({"about", "about_any"} if self.query is not None else set()))


def fill(frame: str, plan: FramePlan) -> str | None:
    """`frame` worded from `plan`, or None when the plan lacks a slot the frame needs."""
    if not set(SLOT.findall(frame)) <= plan.offers():
        return None
    pattern = bool(plan.query and re.search(r"[*?]", plan.query))
    slots: dict[str, str] = {f.name: str(getattr(plan, f.name) or "") for f in fields(plan)}
    for name in ("obj", "subj"):
        said = getattr(plan, name)
        if plan.new and said is not None and said.determiner == "the" and not frame.startswith(f"{{{name}}}"):
            # A thing the request brings into being is "a" thing after the verb; "The comment ... still needs to
            # be added" keeps the "the" of a subject.
            first = str(said.with_determiner("")).split()[0]
            # Things brought into being are said without one ("Could you upload files for me?").
            slots[name] = str(said.with_determiner("" if plan.many else indefinite_article(first)))
    slots |= {
        "pwhere": "" if plan.rest else plan.where,
        "ewhere": plan.where if plan.rest else "",
        "be": "are" if plan.many else "is",
        "needs": "need" if plan.many else "needs",
        "Are": "Is" if plan.mass else "Are",
        # A pattern ("*.log") is matched, not talked about; things that hold no text are matched too ("users
        # matching "dana""): "about" is for what holds text ("issues about ...").
        "about": "matching" if pattern else "about",
        "about_any": "about" if plan.topic and not pattern else "matching",
    }
    frame = _ARTICLE_SLOT.sub(lambda m: f"{_article(slots[m[1]])} {{{m[1]}}}", frame)
    said = frame.format(**slots)
    # A quoted sentence that ends the request ends it: 'saying "It times out."', not '... out.".'.
    return said[:-1] if said.endswith(('."', '!"', '?"'), 0, len(said) - 1) and said.endswith(".") else said


def _article(said: str) -> str:
    """"a" or "an" before the words a slot says."""
    return indefinite_article(said.split()[0] if said.split() else "")


def imperative(verb: str, obj: Phrase | str, particle: str | None = None) -> str:
    """The verb and its object, with the preposition the verb takes its object through when the object follows it
    directly: "switch" and "the branch main" -> "switch to the branch main"; not when the object says it already
    ("navigate the browser to a URL", "click on a web page")."""
    said = str(obj)
    first = said.split()[0].lower() if said.split() else ""
    if particle and first in WORDS.determiners and f" {particle} " not in f" {said} ":
        return f"{verb} {particle} {said}"
    return f"{verb} {said}"


@lru_cache(maxsize=_SENTENCES)
def finish(draft: str) -> str | None:
    """The drafted request as a finished sentence, or None when it would not read as one."""
    text = " ".join(draft.split())
    if not text or SLOT.search(text):
        return None
    text = text[0].upper() + text[1:]
    if text[-1] not in '.?!"':
        text += "."
    words = [w.lower().strip(',.?!:"') for w in text.split()]
    if not 3 <= len(words) <= MAX_WORDS or any(a == b and a.isalpha() for a, b in itertools.pairwise(words)):
        return None
    return text
