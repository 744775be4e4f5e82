"""Turning a tool's reading and example values into requests a person would type, in three families.

- explicit: the description's action as an imperative, with values ("Fetch the ticket T-1042."); a second
  explicit request is built from the tool's name words ("Get dependabot alert #142 in acme/webshop.").
- task: the user's goal in other words, from a frame of the verb's class ("Can you pull up the ticket T-1042?").
- indirect: the situation, not the action ("The ticket T-1042 is no longer needed.").
Frames are data (phrasings.yml); verb classes, the verbs a class's frames fit, the prepositions some verbs take
and every other word list are in the lexicon (lexicon.yml, read as `WORDS`). A frame is used only when the
object ends on a word naming a thing (`is_thing`). Every request passes `checked`: a sentence with a capital
letter, an end mark, no unfilled slot and no repeated word; anything else is dropped, never shown.

This module reads a tool and words its explicit requests; the task and indirect ones are framed in frames.py.
Both put values into the object phrase with placing.py, which says each value as mentions.py words it; what
they share (`Phrased`, `is_thing`, the noun-phrase patterns) is in phrase_parts.py.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from functools import lru_cache

from app.audit.models import Phrasing, Tool
from app.audit.suite.articles import indefinite_article
from app.audit.suite.frames import framed, listing, lists
from app.audit.suite.lexicon import WORDS
from app.audit.suite.phrase_parts import Phrased, is_thing
from app.audit.suite.placing import can_name, names_a_thing, owned_object, with_values
from app.audit.suite.reading import (
    TOOL_CACHE,
    Reading,
    operation_members,
    read_tool,
)
from app.audit.suite.realiser import finish
from app.audit.suite.values import ToolText, Value, tool_text, tool_values
from app.audit.suite.word_forms import (
    lemmas,
    plural,
    singular,
    verb_classes,
)
from app.audit.text import split_identifier

# A first name word shared by this share of a server's tools is the server's prefix.
PREFIX_SHARE = 0.3


def name_prefixes(names: list[str]) -> frozenset[str]:
    """Words that open many of a server's tool names ('slack_', 'browser_'): the server's, not the action's."""
    if len(names) < 3:
        return frozenset()
    firsts = Counter(split_identifier(n)[0] for n in names if split_identifier(n))
    return frozenset(w for w, c in firsts.items() if c / len(names) >= PREFIX_SHARE)


def phrasings(tool: Tool, *, variant: int = 0, prefixes: frozenset[str] = frozenset()) -> list[Phrased]:
    """All requests for `tool`, best first within each family, families interleaved.

    Kept per tool text: a tool short of scored cases asks for its requests again with a larger budget.
    """
    return list(_phrasings(tool_text(tool), variant, prefixes))


@lru_cache(maxsize=TOOL_CACHE)
def _phrasings(text: ToolText, variant: int, prefixes: frozenset[str]) -> tuple[Phrased, ...]:
    """`phrasings` of the tool `text` carries, kept by its text."""
    tool = text.tool
    read = read_tool(tool)
    reading = operation_reading(read, tool, variant=variant, prefixes=prefixes)
    values = tool_values(tool, variant=variant)
    if reading is not read and reading.verb_class in ("list", "delete"):
        # A listing names no one thing; what is removed is not written ('Delete the comment saying ...').
        gone = "ref" if reading.verb_class == "list" else "content"
        values = [v for v in values if v.role != gone]
    families = [
        _explicit(reading, values, tool, prefixes),
        framed("task", reading, values),
        framed("indirect", reading, values),
    ]
    out: list[Phrased] = []
    seen: set[str] = set()
    for rank in range(max(len(f) for f in families)):
        for family in families:
            if rank < len(family) and (request := finish(family[rank].text)) and request.lower() not in seen:
                seen.add(request.lower())
                out.append(Phrased(request, family[rank].phrasing))
    return tuple(out)


def operation_reading(
    reading: Reading, tool: Tool, *, variant: int = 0, prefixes: frozenset[str] = frozenset()
) -> Reading:
    """A tool that runs one of several operations on a thing ('Perform write operations on repository labels',
    `method: create | update | delete`) read as one of them, the one `variant` picks, as a person asks for it:
    'Create a label named needs-triage'. Other tools keep their reading."""
    aspects = WORDS.aspects
    vague = WORDS.vague
    name = [w for w in split_identifier(tool.name) if w.isalpha() and w.lower() not in prefixes]
    lowered = {w.lower() for w in name}
    if not (reading.verb.split()[-1] in vague or vague & lowered or aspects & set(reading.head.lower().split())):
        return reading
    operations = _operations(tool)
    if not operations:
        return reading
    verb, named = operations[variant % len(operations)]
    thing = _qualified(named, reading.head, aspects) if named else _operated_thing(reading, tool, name, aspects | vague)
    if not thing or not is_thing(thing):
        return reading
    kind = verb_classes()[verb]
    if kind == "list":
        return Reading(verb=verb, verb_class=kind, object=f"the {plural(thing)}", head=plural(thing))
    determiner = indefinite_article(thing) if kind == "create" else "the"
    return Reading(verb=verb, verb_class=kind, object=f"{determiner} {thing}", head=thing)




def _operations(tool: Tool) -> list[tuple[str, list[str]]]:
    """(verb, the words after it) of each member of the tool's operation parameter (`method`, `action`) that
    opens with a verb: 'create' -> ('create', []), 'rerun_failed_jobs' -> ('rerun', ['failed', 'jobs'])."""
    particles = WORDS.particles
    out = []
    for member in operation_members(tool):
        words = [w.lower() for w in split_identifier(member)]
        if not words or verb_classes().get(words[0]) not in WORDS.operation_classes or words[0] in particles:
            continue
        known = lemmas(words[0])
        if known and "VERB" not in known:
            continue  # 'new' (browser_tabs) is no verb a request opens with
        if len(words) == 1 or is_thing(words[-1]):
            out.append((words[0], words[1:]))
    return out


def _qualified(named: list[str], head: str, aspects: frozenset[str]) -> str:
    """An operation's own thing with the proper names the description gives it: 'workflow run' of 'GitHub Actions
    resources' -> 'GitHub Actions workflow run' (what tells it from the other tools' workflow runs)."""
    own = {singular(w) for w in named}
    names = [w for w in head.split() if w.lower() not in aspects and singular(w.lower()) not in own]
    proper = names and all(w[:1].isupper() for w in names)
    return " ".join([*(names if proper else []), *named])


def _operated_thing(reading: Reading, tool: Tool, name: list[str], generic: frozenset[str]) -> str:
    """What the operations act on: the tool name's words that are neither its verb nor an aspect ('label_write'
    -> 'label'), or the description's head without its aspect words when it says them all ('Tekton PipelineRun
    lifecycle' -> 'Tekton PipelineRun'), in the description's spelling."""
    words = [w for w in name if w.lower() not in generic]
    # The name's verbs at either end ('write' of label_write, 'read' of ..._config_read); 'label' and 'comment'
    # are things too, and stay.
    while words and _names_action(words[-1]):
        words.pop()
    while words and _names_action(words[0]):
        words.pop(0)
    head = [w for w in reading.head.split() if w.lower() not in generic]
    said = {singular(w.lower()) for w in head}
    if head and (all(singular(w.lower()) in said for w in words) or any(len(w) < 3 for w in words)):
        return singular(" ".join(head))
    spelled: dict[str, str] = {}
    for w in re.findall(r"[A-Za-z]+", tool.description or ""):
        spelled.setdefault(w.lower(), w)
    return singular(" ".join(spelled.get(w.lower(), w.lower()) for w in words))


def _verb_phrase(verb: str, obj: str) -> str:
    """The verb and its object, with the preposition the verb takes its object through when the object follows
    it directly (lexicon.yml `particles`): "switch" and "the branch main" -> "switch to the branch main"; not when
    the object says it later ("navigate the browser to a URL")."""
    particle = WORDS.particles.get(verb.split()[-1])
    first = obj.split()[0].lower() if obj.split() else ""
    if particle and first in WORDS.determiners and f" {particle} " not in f" {obj} ":
        return f"{verb} {particle} {obj}"
    return f"{verb} {obj}"


def _counted_as_described(rest: list[str], values: list[Value], description: str, *, one: bool) -> list[str]:
    """A name's object words counted as the request asks: a listing names its things as the description counts
    them, the words before them too ("confluence_search_user", "Search Confluence users ..." -> "users"; not
    "free times" of find_free_time where "meeting times" is said), or what the description lists when the name's
    word only qualifies it ("helm_list", "List all the Helm releases ..." -> "Helm releases"); an action given a
    value that names one of its things asks for that one ("pods_delete" with the pod named frontend -> "pod")."""
    said = " " + " ".join(w.lower().strip(".,;:()") for w in description.split()) + " "
    last = rest[-1]
    if not one and f" {' '.join(rest[-2:])} " not in said and f" {' '.join([*rest[-2:-1], plural(last)])} " in said:
        return [*rest[:-1], plural(last)]
    names_one = any(v.role == "ref" and singular(last) in (v.noun.lower(), v.named.lower()) for v in values)
    if one and singular(last) != last and names_one:
        return [*rest[:-1], singular(last)]
    compound = None if one else _counted_after(last, description)
    # Not when a value is one of those things: a listing given one of its own things reads as its history ("up to").
    if compound and not any(v.noun and singular(v.noun.split()[-1]) == singular(compound[-1].lower()) for v in values):
        return [*rest[:-1], *compound]
    return rest


def _counted_after(word: str, description: str) -> list[str] | None:
    """The name's `word` and the plural noun right after it in the description, in its spelling ("helm" in "List
    all the Helm releases" -> ["Helm", "releases"]); None when the description says `word` otherwise or not."""
    said = description.split()
    for first, second in itertools.pairwise(said):
        if first.lower() != word or not second.isalpha():
            continue
        known = lemmas(second.lower()).get("NOUN")
        if known and known[0] != second.lower() and second.islower():
            return [first, second]
    return None


def _names_action(word: str) -> bool:
    lowered = word.lower()
    return lowered in verb_classes() and ("NOUN" not in lemmas(lowered) or lowered in ("read", "write"))


def _explicit(reading: Reading, values: list[Value], tool: Tool, prefixes: frozenset[str]) -> list[Phrased]:
    out = []
    if reading.object:
        one = not lists(reading)
        out.append(
            Phrased(
                _verb_phrase(
                    reading.verb, with_values(reading.object, reading.head, values, one=one, verb=reading.verb)
                ),
                Phrasing.EXPLICIT,
            )
        )
    name_words = [
        w
        for w in split_identifier(tool.name)
        if w.isalpha() and (len(w) > 2 or w in WORDS.phrase_prepositions) and w not in prefixes | {"and"}
    ]
    # "pull request" names a thing, not the action "pull".
    verbs = [i for i, w in enumerate(name_words) if w in verb_classes() and not names_a_thing(name_words, i)]
    last, vague = (verbs[-1], verbs[0]) if verbs else (-1, -1)
    if name_words[last:] in (["read"], ["write"]) and name_words[vague] in WORDS.vague:
        verbs = [last]  # "manage_istio_config_read": the name's last word says what is done, not "manage"
    else:
        vague = -1
    verb = name_words[verbs[0]] if verbs else None
    # The verb and the verbs right after it ("create_or_update"); a verb-looking word after the object names a
    # thing ("add_issue_comment": the comment, not "add the issue").
    leading = {i for n, i in enumerate(verbs) if i == verbs[0] + n}
    rest = [w for i, w in enumerate(name_words) if i not in leading and i != vague]
    # "wait for" alone names nothing, nor "annotated" (of get-annotated-message, 'message' read as the verb).
    # "update_many" names no thing ("Update many in orders"): the name's last word must.
    if verb and rest and is_thing(rest[-1]) and any(w not in WORDS.phrase_prepositions and can_name(w) for w in rest):
        # The name's words in a person's order: "pods_list_in_namespace" -> "list pods in namespace".
        one = not listing(verb)
        rest = _counted_as_described(rest, values, tool.description or "", one=one)
        words = " ".join(rest)
        obj, head, rest_values = owned_object(words, values, verb)
        said = with_values(obj, head, rest_values, one=one, verb=verb)
        out.append(Phrased(_verb_phrase(verb, said), Phrasing.EXPLICIT))
    return out
