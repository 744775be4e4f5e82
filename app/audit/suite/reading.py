"""Reading a tool's description the way a person would before asking for it: the action and its object.

"Fetches one ticket by its id, with comments." reads as the verb `fetch` (class `read`) and the object
"one ticket"; "List secret scanning alerts in a GitHub repository" as `list` and "secret scanning alerts
in a GitHub repository", whose head is "secret scanning alerts". Verb forms come from lemminflect (its
data ships in the wheel); when the description does not start with a verb, the tool's name gives one.
Word forms (verbs, plurals, lemminflect's answers) live in word_forms.py, the object's parts in object_phrase.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from app.audit.models import Tool
from app.audit.suite.articles import indefinite_article, with_articles
from app.audit.suite.lexicon import WORDS
from app.audit.suite.object_phrase import (
    after_container,
    is_participle,
    name_object,
    naming_clause,
    owner_phrase,
    places_determined,
    trimmed,
    until_next_action,
)
from app.audit.suite.word_forms import base_verb, lemma_of, verb_classes
from app.audit.text import split_identifier

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_LEAD_INS = re.compile(
    r"^(?:this (?:tool|function|endpoint) (?:will |can |is used to |allows you to |lets you )?|the tool |"
    r"(?:a )?tool (?:to|that|for) |use (?:this )?(?:tool )?to |allows? (?:you |users )?to |used to |lets you |"
    r"helps? (?:you )?(?:to )?|can be used to |enables? (?:you )?to )",
    re.IGNORECASE,
)
_NOISE = re.compile(r"^\s*(?:\[[^\]]*\]\s*|(?:deprecated|note|warning|important|beta)\s*[:.-]\s*)+", re.IGNORECASE)
# Where the object of the action ends: a new clause, an aside, a condition, a result.
_CLAUSE_END = re.compile(
    r"\s*(?:[.;:()\[\]`]|\s[-–—]\s|,\s|\s(?:and (?:returns?|optionally|then)|returning|which|that|if|when|"
    r"using|via|based on|so that|including|by \w+ing|with (?:optional|support))\b)",
    re.IGNORECASE,
)
_MAX_OBJECT = 14
_LIST = re.compile(r"\b([\w-]+)(?:, [\w-]+)+,? (?:or|and) [\w-]+")




def operation_members(tool: Tool) -> list[str]:
    """The members of the tool's operation parameter ('create', 'update', 'delete'), or [] when it has none."""
    for param, spec in tool.properties.items():
        if isinstance(spec, dict) and WORDS.operation_words & set(split_identifier(param)):
            return [str(m) for m in spec.get("enum") or () if isinstance(m, str)]
    return []


@dataclass(frozen=True)
class Reading:
    """What a tool does, in words a request can reuse."""

    verb: str  # base form: "fetch"; with its adverb when the description has one ("permanently delete")
    verb_class: str  # read | list | search | create | update | delete | send | run | other
    object: str  # the rest of the action clause: "secret scanning alerts in a GitHub repository"
    head: str  # the object's noun phrase without determiner: "secret scanning alerts"
    # What the head belongs to, when the object says: "of a Kubernetes Pod" in "the logs of a Kubernetes Pod".
    owner: str = ""

    @property
    def particle(self) -> str | None:
        """The preposition the verb takes its object through: the one the description puts between them ("Click on
        a web page", "Hover over element"), else the lexicon's for the verb ("navigate to")."""
        said = self.object.split()
        if len(said) > 1 and said[0].lower() in WORDS.verb_particles:
            return said[0].lower()
        return WORDS.particles.get(self.verb.split()[-1]) if self.verb.split() else None


@cache
def _description_trims(own: bool) -> tuple[tuple[re.Pattern[str], str], ...]:
    trims = [*WORDS.own_trims, *WORDS.description_trims] if own else WORDS.description_trims
    return tuple((re.compile(pattern), replacement) for pattern, replacement in trims)


def plainly(sentence: str, *, own: bool = True) -> str:
    """A description's sentence in the words of a person asking (lexicon.yml `description_trims`: "your" is
    "my", "with pagination" goes), its articles decided for the words now after them ("a detailed overview" ->
    "an overview"). With `own` (no parameter names a person), "the user's calendar" is "my calendar"."""
    for pattern, replacement in _description_trims(own):
        sentence = pattern.sub(replacement, sentence)
    return with_articles(" ".join(sentence.split()))


def lead_sentence(description: str) -> str:
    text = _NOISE.sub("", description.strip())
    for part in _SENTENCE_END.split(text):
        part = _LEAD_INS.sub("", _NOISE.sub("", part.strip()))
        if len(part.split()) >= 2:
            return part
    return _LEAD_INS.sub("", text)


def named_verb_of(name_words: list[str]) -> str | None:
    """The first word of a tool's name that is an action verb ("search" of search_code)."""
    return next((v for w in name_words if (v := base_verb(w)) and w in verb_classes()), None)


def _acts(word: str) -> bool:
    """'Reads', 'update': a word that reads as an action after "and" ('Fast and precise' has none)."""
    lowered = word.lower()
    return lowered in verb_classes() or (lowered.endswith("s") and base_verb(lowered) is not None)


# Tools whose readings are kept: a tool is read for each request family, example-value variant and contrastive
# request written for it, and near-duplicate tools (names differing by a number) read the same.
TOOL_CACHE = 16_384


def read_tool(tool: Tool) -> Reading:
    """The tool's action and object, from its description, the words of its name and whether it is told which
    person it acts for (all a reading uses)."""
    words = tuple(w for w in split_identifier(tool.name) if w.isalpha())
    return _read(words, tool.description or "", not _names_a_person(tool))


def _names_a_person(tool: Tool) -> bool:
    """Whether a parameter says which person the tool acts for or on ("username", "user_id", "assignee")."""
    said = {w.lower() for param in tool.properties for w in split_identifier(param)}
    return bool(said & WORDS.person_words)


@lru_cache(maxsize=TOOL_CACHE)
def _read(words_of_name: tuple[str, ...], description: str, own: bool = True) -> Reading:
    """`read_tool` of a tool named by these words (its name's alphabetic words) with this description; `own` when
    no parameter names a person, so the user the description speaks of is the person asking."""
    name_words = list(words_of_name)
    # "the status, priority or assignee of a ticket" -> "the status of a ticket": one thing per request.
    lead_in = plainly(lead_sentence(description), own=own)
    sentence = _LIST.sub(r"\1", lead_in)
    clause = _CLAUSE_END.split(sentence, maxsplit=1)[0].strip()
    words = clause.split()
    adverb = ""
    if len(words) > 2 and words[0].lower().endswith("ly") and base_verb(words[1]):
        adverb, words = words[0].lower() + " ", words[1:]
    verb = base_verb(words[0]) if words and words[0].lower() not in WORDS.not_actions else None
    said = lead_in.split()
    qualities = (
        said[1:2] == ["and"] and len(said) > 3 and not _acts(said[2]) and said[0].lower() not in WORDS.determiners
    )
    if qualities and verb not in verb_classes():
        # "Fast and precise code search across ...": two qualities, no action; the name's verb acts on the rest
        # ("Search code across ...").
        verb, words = None, words[3:] if words[1:2] == ["and"] else words[1:]
        if len(words) > 1 and named_verb_of(name_words) == words[1].lower():
            words = [words[0], *words[2:]]
    rest = words[1:] if verb else []
    if verb and verb not in verb_classes() and rest and rest[0].lower() in verb_classes():
        # "Batch create multiple versions": the action is the second word, the first says how.
        verb, rest = rest[0].lower(), rest[1:]
    performed = verb == "perform" and rest[1:2] != ["and"]  # "Perform drag and drop": a pair of actions stays
    if verb == "perform" and len(rest) > 2 and rest[1:2] == ["and"] and base_verb(rest[0]) and base_verb(rest[2]):
        # ... and is one thing, the one performed: "Perform a drag-and-drop between two elements".
        pair = f"{rest[0].lower()}-and-{rest[2].lower()}"
        rest = [indefinite_article(pair), pair, *rest[3:]]
    if performed and rest and base_verb(rest[0]) and named_verb_of(name_words) == rest[0].lower():
        # "Perform click on a web page" (browser_click): the action performed is the name's verb.
        verb, rest = rest[0].lower(), rest[1:]
    opening = len(words) > 2 and words[0].lower() in WORDS.not_actions
    if opening and words[1].lower() == "for" and words[2].endswith("ing"):
        # "Tools for listing workflows": the action is the gerund.
        verb, rest = lemma_of(words[2].lower(), "VERB")[0], words[3:]
    lead = [w for w in words if w.lower() not in WORDS.determiners]
    helper = next(
        (i for i, w in enumerate(lead[:3]) if w.lower() in WORDS.not_actions and lead[i + 1 : i + 2] == ["for"]), None
    )
    named_verb = named_verb_of(name_words)
    if verb is None and helper is not None and named_verb is None and len(lead) > helper + 2:
        # "A tool for dynamic problem-solving": what it is for is what a person asks help with.
        verb, rest = "help with", lead[helper + 2 :]
    if verb is None:
        # "Current weather for a city" names no action: the tool's name does ("get_weather").
        verb = named_verb or "use"
        rest = words if words and words[0].lower() not in WORDS.determiners else words[1:]
        if not rest:
            rest = name_object(name_words, verb)
    if verb == "look" and rest[:1] == ["up"]:
        verb, rest = "lookup", rest[1:]
    # "Create and manage projects", "Create and/or submit a review": the object follows the last verb.
    while len(rest) > 1 and rest[0].lower() in ("and", "or", "and/or", "&") and base_verb(rest[1].strip(",")):
        rest = rest[2:]
    if not rest:
        rest = name_object(name_words, verb)
    # "Create a new or update an existing issue": both actions share the object after the second one.
    first = next((i for i, w in enumerate(rest) if w.lower() not in WORDS.determiners | {"new"}), len(rest))
    if rest[first : first + 1] in (["or"], ["and"]) and len(rest) > first + 2 and base_verb(rest[first + 1]):
        rest = rest[first + 2 :]
        while rest and rest[0].lower() in WORDS.determiners:  # "an existing issue": the new one is not existing yet
            rest = rest[1:]
        rest = [indefinite_article(rest[0]) if rest else "a", *rest]
    rest = until_next_action(rest)
    if len(rest) > _MAX_OBJECT:
        # Cut a long object before its last preposition, never inside a noun phrase.
        cut = max((i for i, w in enumerate(rest[:_MAX_OBJECT]) if w.lower() in WORDS.prepositions), default=_MAX_OBJECT)
        rest = rest[:cut]
    obj = " ".join(places_determined(trimmed(rest, clause=len(rest) <= _MAX_OBJECT)))
    head_words: list[str] = []
    start = rest[1:] if rest and rest[0].lower() in WORDS.prepositions else rest
    start = after_container(start)
    while start and start[0].lower() in WORDS.determiners | WORDS.possessives | {"new", "multiple", "several"}:
        start = start[1:]
    for i, w in enumerate(start):
        lowered = w.lower()
        if lowered == "or" and len(head_words) == 1 and not head_words[0].endswith("s") and i + 2 < len(start):
            # "public or pre-defined channels": an alternative of the modifier, the noun comes after it.
            # "a new directory or ensure a directory": a second action, not a second modifier.
            if start[i + 2].lower() not in WORDS.prepositions | WORDS.determiners and not base_verb(start[i + 1]):
                head_words.append(start[i + 2])
            break
        if lowered in WORDS.prepositions | {"or", "and/or", "whose", "which", "who", "they", "that", "since", "i"}:
            break
        if lowered == "and" and i + 1 < len(start) and start[i + 1].lower() in WORDS.determiners | {"its", "their"}:
            break
        if head_words and (w.endswith("ed") or lowered in WORDS.determiners or lowered in ("is", "are", "that")):
            break
        following = start[i + 1].lower() if i + 1 < len(start) else ""
        if head_words and is_participle(lowered) and following in WORDS.determiners:
            break  # "statistics describing the execution": the participle acts on what follows
        head_words.append(w)
    head = " ".join(head_words[:4]) or " ".join(w for w in name_words if w != verb and w not in ("or", "and"))
    return Reading(
        verb=adverb + verb,
        verb_class=verb_classes().get(verb, "other"),
        object=obj,
        head=head,
        owner=owner_phrase(obj, head) or naming_clause(sentence, head, name_words),
    )
