"""The object of a request as words and typed noun phrases: where a phrase names a thing, and the thing said.

A `Phrase` is the object's words ("the file or directory in a GitHub repository"), each a plain word until a value
is placed at the thing it names; then that thing is a `Noun` (determiner, modifiers, head, value): "the GitHub
repository acme/webshop". `find` reads where a phrase names a noun, word by word: the noun's words (written with
spaces or hyphens, "sub issue" or "sub-issue"), up to three modifiers and two determiners before them, and only
where the noun is the head of its phrase (not "repository" in "repository pull requests"), with no value after it
already. Nothing here decides which value goes where (placing.py) or how a value is said (mentions.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from app.audit.suite.lexicon import WORDS
from app.audit.suite.phrase_parts import NOT_NOUNS

# A value already said after a noun: "#142", "1042", "PROJ-123".
_VALUE = re.compile(r"(?:#|\d|[A-Z]+-\d)", re.IGNORECASE)
_WORD = re.compile(r"[\w-]+")
_GENITIVE = re.compile(r"['’]s?$")
_NOT_MODIFIER = re.compile(rf"(?:{'|'.join(sorted(WORDS.not_before_head))})\b|[#/'’]", re.IGNORECASE)


@dataclass(frozen=True)
class Noun:
    """A noun phrase a value was placed in: "the" (or no determiner inside a genitive), its modifiers ("GitHub"),
    its head as the phrase wrote it ("repository", "sub-issue") and the value said after it ("acme/webshop")."""

    determiner: str
    modifiers: tuple[str, ...]
    head: str
    value: str = ""

    def __str__(self) -> str:
        return " ".join(part for part in (self.determiner, *self.modifiers, self.head, self.value) if part)


@dataclass(frozen=True)
class Slot:
    """A value said after the object: the value's role, the word that joins it to the request ("for", "in",
    "saying", "sorted by", ":") and what it says, a `Noun` when it names a thing ("the issue PROJ-123")."""

    role: str
    preposition: str
    said: Noun | str

    def __str__(self) -> str:
        return f"{self.preposition} {self.said}"

    def names(self, preposition: str) -> bool:
        """Whether the slot names a thing after `preposition`: "for the issue PROJ-123"."""
        return self.preposition == preposition and isinstance(self.said, Noun)

    def joined_by(self, preposition: str) -> Slot:
        return replace(self, preposition=preposition)


Item = str | Noun | Slot


@dataclass(frozen=True)
class Phrase:
    """An object's words, the things a value was placed at typed as `Noun`s, the values said after it as `Slot`s.
    A phrase whose first item is a `Noun` is headed by it: its determiner is the phrase's ("the ticket T-1042")."""

    items: tuple[Item, ...]

    @classmethod
    def of(cls, text: str) -> Phrase:
        return cls(tuple(text.split()))

    def __str__(self) -> str:
        # A quoted command or statement follows its object with a colon: 'in payments: "ls -la /app"'.
        said = [f"{'' if isinstance(item, Slot) and item.preposition == ':' else ' '}{item}" for item in self.items]
        return "".join(said).strip()

    def words(self, start: int, end: int) -> str:
        return " ".join(str(item) for item in self.items[start:end])

    def replaced(self, start: int, end: int, noun: Noun) -> Phrase:
        """The phrase with its words from `start` to `end` said as `noun`."""
        return Phrase((*self.items[:start], noun, *self.items[end:]))

    def nouns(self) -> list[Noun]:
        return [item for item in self.items if isinstance(item, Noun)]

    def then(self, *items: Item) -> Phrase:
        """The phrase with `items` after it."""
        return Phrase((*self.items, *items))

    def index(self, words: str) -> int | None:
        """Where the phrase says `words` as plain words, first."""
        wanted = tuple(words.split())
        span = len(wanted)
        return next((i for i in range(len(self.items) - span + 1) if self.items[i : i + span] == wanted), None)

    def locate(self, words: str) -> tuple[int, bool] | None:
        """Where the phrase first says `words` (any case): as plain words from an index (False), or inside the
        modifiers and head of the `Noun` at an index (True)."""
        wanted = words.lower().split()
        span = len(wanted)
        for i, item in enumerate(self.items):
            if isinstance(item, Noun):
                said = [w.lower() for w in (*item.modifiers, *item.head.split())]
                if any(said[j : j + span] == wanted for j in range(len(said) - span + 1)):
                    return i, True
            elif [str(w).lower() for w in self.items[i : i + span]] == wanted and all(
                isinstance(w, str) for w in self.items[i : i + span]
            ):
                return i, False
        return None

    @property
    def determiner(self) -> str:
        first = self.items[0] if self.items else None
        return first.determiner if isinstance(first, Noun) else ""

    def with_determiner(self, determiner: str) -> Phrase:
        first = self.items[0] if self.items else None
        if not isinstance(first, Noun):
            return self
        return Phrase((replace(first, determiner=determiner), *self.items[1:]))

    def complement(self, also: frozenset[str] = frozenset()) -> int | None:
        """Where the part that goes after the verb starts when the object comes first: "the issue PROJ-123 | to the
        user dana"; `also` names more words that start it ("from" for what is taken away). Not an infinitive ("ranges
        to access the clusters"), not "assigned to"."""
        starts = WORDS.complement_prepositions | also
        for i in range(1, len(self.items)):
            item, before = self.items[i], self.items[i - 1]
            if isinstance(item, Slot) and item.preposition in starts:
                return i
            if not isinstance(item, str) or item not in starts or before == "assigned":
                continue
            following = self.items[i + 1 : i + 3]
            verb_after = len(following) == 2 and isinstance(following[0], str) and _WORD.fullmatch(following[0])
            # "from watching the issue" moves with what is taken away; "to access the clusters" is an infinitive.
            if item in also or not (verb_after and _opens(following[1])):
                return i
        return None


def _opens(item: Item) -> bool:
    """Whether the item opens with a determiner ("the", "my", ...)."""
    first = str(item).split()[:1]
    return bool(first) and first[0] in WORDS.determiners | WORDS.possessives


@dataclass(frozen=True)
class Found:
    """Where a phrase names a noun: its determiners at [start, modifiers), its modifiers at [modifiers, noun), the
    noun's words at [noun, noun_end) and a naming word after it ("key") up to `end`."""

    start: int
    modifiers: int
    noun: int
    noun_end: int
    end: int
    genitive: str = ""  # the "'s" the noun's last word carries: "the project's epics"

    def as_noun(self, phrase: Phrase, *, determiner: str, head: str, value: str) -> Noun:
        modifiers = tuple(str(i) for i in phrase.items[self.modifiers : self.noun])
        return Noun(determiner, modifiers, head, value + self.genitive)

    def said(self, phrase: Phrase) -> str:
        """The noun as the phrase writes it, without a genitive's "'s"."""
        said = phrase.words(self.noun, self.noun_end)
        return said[: len(said) - len(self.genitive)]


def find(
    phrase: Phrase, noun: str, *, max_modifiers: int = 3, openers: frozenset[str] | None = None
) -> Iterator[Found]:
    """Every place `phrase` names `noun`, left to right, with the modifiers and determiners before it (determiners
    from `openers`, the lexicon's `phrase_openers` by default)."""
    wanted = noun.lower().replace("-", " ").split()
    items = phrase.items
    openers = WORDS.phrase_openers if openers is None else openers
    last = 0
    for at in range(len(items)):
        spanned = _spans(items, at, wanted) if at >= last else None
        if spanned is None:
            continue
        end, genitive = spanned
        following = items[end] if end < len(items) else None
        named = not genitive and isinstance(following, str) and following.lower() in WORDS.naming_words
        tail = end + 1 if named and not _valued(items, end + 1) else end
        if not genitive and _valued(items, tail):
            continue
        start, first_modifier = _opening(items, at, max_modifiers, openers, floor=last)
        last = tail
        yield Found(start, first_modifier, at, end, tail, genitive)


def heads(phrase: Phrase, found: Found) -> bool:
    """Whether the noun found heads its phrase: no noun follows that it would modify ("repository pull requests");
    a participle after it describes it ("a board filtered by JQL")."""
    following = phrase.items[found.end] if found.end < len(phrase.items) else None
    if found.genitive or not isinstance(following, str):
        return True
    word = following.lower()
    return not following.isalpha() or word in NOT_NOUNS or word.endswith("ed")


def _spans(items: tuple[Item, ...], at: int, wanted: list[str]) -> tuple[int, str] | None:
    """The index after the words from `at` that spell `wanted` (each word whole; a hyphen joins two of them), and
    the genitive ending its last word carries ("'s" of "project's"), or None."""
    got: list[str] = []
    i, ending = at, ""
    while len(got) < len(wanted) and i < len(items) and isinstance(items[i], str):
        word = str(items[i]).lower()
        if len(got) + 1 + word.count("-") == len(wanted) and (match := _GENITIVE.search(word)):
            word, ending = word[: match.start()], str(items[i])[match.start() :]
        got.extend(word.split("-"))
        i += 1
        if got != wanted[: len(got)]:
            return None
    return (i, ending) if got == wanted else None


def _valued(items: tuple[Item, ...], at: int) -> bool:
    """Whether a value is said at `at` already ("#142", "PROJ-123")."""
    return at < len(items) and (isinstance(items[at], Noun) or bool(_VALUE.match(str(items[at]))))


def _opening(
    items: tuple[Item, ...], at: int, max_modifiers: int, openers: frozenset[str], *, floor: int
) -> tuple[int, int]:
    """Where the noun phrase ending at `at` starts and where its modifiers start: the earliest start from which up
    to two determiners, then up to `max_modifiers` modifiers reach the noun (the determiners as many as can be)."""
    for start in range(max(floor, at - 2 - max_modifiers), at + 1):
        for count in (2, 1, 0):
            mods = start + count
            if mods > at or at - mods > max_modifiers:
                continue
            if all(isinstance(w, str) and w.lower() in openers for w in items[start:mods]) and all(
                _modifier(w) for w in items[mods:at]
            ):
                return start, mods
    return at, at


def _modifier(item: Item) -> bool:
    """A word that can stand before a noun inside its phrase: not a preposition or article, not a value."""
    return isinstance(item, str) and bool(_WORD.fullmatch(item)) and not _NOT_MODIFIER.match(item)
