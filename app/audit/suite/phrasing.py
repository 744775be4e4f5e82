"""Turning a tool's reading and example values into requests a person would type, in three families.

- explicit: the description's action as an imperative, with values ("Fetch the ticket T-1042."); a second
  explicit request is built from the tool's name words ("Get dependabot alert #142 in acme/webshop.").
- task: the user's goal in other words, from a frame of the verb's class ("Can you pull up the ticket T-1042?").
- indirect: the situation, not the action ("The ticket T-1042 is no longer needed.").
Frames are data (phrasings.yml); verb classes, the verbs a class's frames fit, the prepositions some verbs take
and every other word list are in the lexicon (lexicon.yml, read as `WORDS`). A frame is used only when the
object ends on a word naming a thing (`is_thing`). Every request passes `checked`: a sentence with a capital
letter, an end mark, no unfilled slot and no repeated word; anything else is dropped, never shown.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from app.audit.models import Phrasing, Tool
from app.audit.suite.articles import with_articles
from app.audit.suite.lexicon import WORDS
from app.audit.suite.reading import (
    TOOL_CACHE,
    Reading,
    frame_data,
    inflections,
    lemmas,
    operation_members,
    plural,
    read_tool,
    singular,
    uncountable,
    verb_classes,
)
from app.audit.suite.values import ToolText, Value, tool_text, tool_values
from app.audit.text import split_identifier

_DETERMINER = (
    r"(?:(?:a|an|the|its|their|one|single|specific|specified|given|particular|existing|another|different)\s+){0,2}"
)
# A word that can stand before a noun inside its phrase: not a preposition, not a value already placed.
_MODIFIER = r"(?!(?:in|for|from|of|to|on|by|with|at|as|into|within|the|a|an|and|or|whether|if|that|which)\b)(?![#/'’])"
# Words after a noun that do not make it a modifier of the next: 'the user is a member of' names the user.
_NOT_NOUNS = WORDS.phrase_prepositions | {"and", "or", "is", "are", "was", "were", "has", "have"}
_SLOT = re.compile(r"\{(\w+)\}")
_CAMEL = re.compile(r"[a-z][A-Z]")
_MAX_WORDS = 30
# A first name word shared by this share of a server's tools is the server's prefix.
PREFIX_SHARE = 0.3


@dataclass(frozen=True)
class Phrased:
    """One request and the family it belongs to."""

    text: str
    phrasing: Phrasing


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
        _framed("task", reading, values),
        _framed("indirect", reading, values),
    ]
    out: list[Phrased] = []
    seen: set[str] = set()
    for rank in range(max(len(f) for f in families)):
        for family in families:
            if rank < len(family) and (text := checked(family[rank].text)) and text.lower() not in seen:
                seen.add(text.lower())
                out.append(Phrased(text, family[rank].phrasing))
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
    return Reading(verb=verb, verb_class=kind, object=f"{'a' if kind == 'create' else 'the'} {thing}", head=thing)




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


def _qualified(named: list[str], head: str, aspects: set[str]) -> str:
    """An operation's own thing with the proper names the description gives it: 'workflow run' of 'GitHub Actions
    resources' -> 'GitHub Actions workflow run' (what tells it from the other tools' workflow runs)."""
    own = {singular(w) for w in named}
    names = [w for w in head.split() if w.lower() not in aspects and singular(w.lower()) not in own]
    proper = names and all(w[:1].isupper() for w in names)
    return " ".join([*(names if proper else []), *named])


def _operated_thing(reading: Reading, tool: Tool, name: list[str], generic: set[str]) -> str:
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


def _names_action(word: str) -> bool:
    lowered = word.lower()
    return lowered in verb_classes() and ("NOUN" not in lemmas(lowered) or lowered in ("read", "write"))


# Sentences whose check is kept: the same drafts come back for each example-value variant, each top-up and each
# contrastive rival, and the trims are a few dozen patterns run over each.
_SENTENCES = 65_536


@lru_cache(maxsize=_SENTENCES)
def checked(text: str) -> str | None:
    """The request as a finished sentence, or None when it would not read as one."""
    for pattern, replacement in _trims():
        text = pattern.sub(replacement, text)
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([,.?!:])", r"\1", text)
    # "the specific user dana", "a given position": words of a description, not of a person asking.
    text = re.sub(r"\b(the|a|an|The|A|An) (?:specific|specified|given|particular) (?=\w)", r"\1 ", text)
    text = with_articles(text)
    text = re.sub(r"\ba (\d|#)", r"\1", text)
    if not text or _SLOT.search(text) or "  " in text:
        return None
    text = text[0].upper() + text[1:]
    if text[-1] not in '.?!"':
        text += "."
    words = [w.lower().strip(',.?!:"') for w in text.split()]
    if not 3 <= len(words) <= _MAX_WORDS or any(a == b and a.isalpha() for a, b in itertools.pairwise(words)):
        return None
    return text


@cache
def _trims() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Description wording a person would not say, with what to say instead (phrasings.yml `trims`)."""
    return tuple((re.compile(pattern), replacement) for pattern, replacement in frame_data().get("trims", []))


def _explicit(reading: Reading, values: list[Value], tool: Tool, prefixes: frozenset[str]) -> list[Phrased]:
    out = []
    if reading.object:
        one = not lists(reading)
        out.append(
            Phrased(
                f"{reading.verb} {with_values(reading.object, reading.head, values, one=one, verb=reading.verb)}",
                Phrasing.EXPLICIT,
            )
        )
    name_words = [
        w
        for w in split_identifier(tool.name)
        if w.isalpha() and (len(w) > 2 or w in WORDS.phrase_prepositions) and w not in prefixes | {"and"}
    ]
    # "pull request" names a thing, not the action "pull".
    verbs = [i for i, w in enumerate(name_words) if w in verb_classes() and not _names_a_thing(name_words, i)]
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
    if verb and rest and is_thing(rest[-1]) and any(w not in WORDS.phrase_prepositions and _can_name(w) for w in rest):
        # The name's words in a person's order: "pods_list_in_namespace" -> "list pods in namespace".
        words = " ".join(rest)
        one = not listing(verb)
        obj, head, rest_values = _owned(words, values, verb)
        out.append(Phrased(f"{verb} {with_values(obj, head, rest_values, one=one, verb=verb)}", Phrasing.EXPLICIT))
    return out


def _owned(words: str, values: list[Value], verb: str) -> tuple[str, str, list[Value]]:
    """A name's object that opens with a value's thing says whose it is: 'job logs' with the job #1042 given is
    'the logs of the job #1042', 'issue comment' is added to the issue #142 (the object, its head, the values left
    to say). Not when two values are of that thing ('issue link' of PROJ-123 and PROJ-456)."""
    for value in values:
        kept = _after_noun(words, value.noun) if value.noun and value.role in ("ref", "scope") else ""
        first, last = (kept.split()[0], kept.split()[-1]) if kept else ("", "")
        if not kept or first in WORDS.phrase_prepositions or not is_thing(last) or kept == "details":
            continue  # "the details of the notification" is the notification itself
        if any(v is not value and v.noun.split()[-1:] == value.noun.split()[-1:] for v in values):
            break
        joins = "to" if verb in WORDS.adding else "of"
        said = f"the {kept} {joins} the {value.noun} {_spoken(value)}"
        return said, kept, [v for v in values if v is not value]
    return words, words, values


def _can_name(word: str) -> bool:
    """Not a participle ("annotated"): lemminflect lacks the noun reading of some nouns ("commit", "log")."""
    known = lemmas(word)
    return not (word.endswith("ed") and known and "NOUN" not in known)


def _names_a_thing(words: list[str], i: int) -> bool:
    """'pull request', 'merge request', 'feature request': the verb-looking word is part of a noun."""
    after, before = words[i + 1 : i + 2], words[i - 1 : i] if i else []
    return (words[i] in ("pull", "merge") and after[:1] and after[0].startswith("request")) or (
        words[i] == "request" and before[:1] in (["pull"], ["merge"], ["feature"])
    )


def _placed(obj: str, values: list[Value], *, one: bool = False, later: bool = False) -> tuple[str, list[Value]]:
    """Each value put where the phrase names its thing: 'in a GitHub repository' -> 'in the GitHub repository
    acme/webshop'; returns the phrase and the values placed. With `one` (an action on one thing, not a listing),
    a plural object is the one thing the value names: 'Check out the branches' -> 'Check out the branch main'.
    With `later` (a description's own phrase), a mention that modifies the next noun is passed over for a later
    one: "issue field values for an issue" -> "... for the issue #142"."""
    obj, done = _two_named(obj, values)
    for value in values:
        if value in done:
            continue
        named = value.noun and value.role in ("ref", "scope")
        nouns = WORDS.noun_synonyms.get(value.noun, (value.noun,)) if named else ()
        if one and value.role == "ref" and value.noun and re.sub(r"^the ", "", obj.lower()) == plural(value.noun):
            nouns = (*nouns, plural(value.noun))
        for noun in nouns:
            pattern = _noun_phrase(noun)
            found = pattern.finditer(obj) if later else itertools.islice(pattern.finditer(obj), 1)
            match = next(
                (m for m in found if not _modifies_next(obj[m.end() :]) and not _names_other(m, value, values)), None
            )
            if match is None:
                continue
            before = obj[: match.start()].split()
            starts_phrase = (
                match.start(1) > match.start() or not before or before[-1].lower() in WORDS.phrase_prepositions
            )
            thing = value.noun if match.group(2).lower() == plural(value.noun).lower() != value.noun else match.group(2)
            said = f"{'the ' if starts_phrase else ''}{match.group(1)}{thing} {_spoken(value)}"
            obj = obj[: match.start()] + said + obj[match.end() :]
            done.append(value)
            break
    return obj, done


# Patterns kept, one per noun or head: a suite places values in tens of thousands of phrases, more distinct
# patterns than the re module keeps, and compiling one costs more than the search it is for.
_PATTERNS = 16_384


@lru_cache(maxsize=_PATTERNS)
def _noun_phrase(noun: str) -> re.Pattern[str]:
    """Where a phrase names `noun`, with its determiner and up to three modifiers before it."""
    return re.compile(
        rf"(?<![\w'’-]){_DETERMINER}((?:{_MODIFIER}[\w-]+\s+){{0,3}}?)({_spaced(noun)})(?:\s+(?:key|id|name|number))?\b(?!\s+(?:#|\d|[A-Z]+-\d))",
        re.IGNORECASE,
    )


@lru_cache(maxsize=_PATTERNS)
def _two_of(noun: str) -> re.Pattern[str]:
    """'the two Jira issues': two of a noun's things, with up to two modifiers."""
    return re.compile(
        rf"\b(?:the |a |an )?two ((?:{_MODIFIER}[\w-]+\s+){{0,2}}?)({_spaced(plural(noun))})\b", re.IGNORECASE
    )


@lru_cache(maxsize=_PATTERNS)
def _bare_head(head: str) -> re.Pattern[str]:
    """The head said as the object itself, not as what something is of ('the title', not 'the title of')."""
    return re.compile(rf"(?<![\w-])(?:(?:the|a|an) )?{re.escape(head)}\b(?![\w-])(?! of\b)", re.IGNORECASE)


def _two_named(obj: str, values: list[Value]) -> tuple[str, list[Value]]:
    """'a link between two Jira issues' with two issue keys given: 'between the Jira issues PROJ-123 and PROJ-456'."""
    by_noun: dict[str, list[Value]] = {}
    for value in values:
        if value.role == "ref" and value.noun:
            by_noun.setdefault(value.noun.split()[-1], []).append(value)
    for noun, pair in by_noun.items():
        match = _two_of(noun).search(obj)
        if len(pair) == 2 and match:
            said = f"the {match.group(1)}{match.group(2)} {_spoken(pair[0])} and {_spoken(pair[1])}"
            return obj[: match.start()] + said + obj[match.end() :], pair
    return obj, []


def _joined(mentions: list[str]) -> list[str]:
    """Two values of one kind said together: 'for the issues PROJ-123 and PROJ-456', not 'for the issue ... for the
    issue ...'."""
    out: list[str] = []
    for mention in mentions:
        this, last = _for_ref(mention), _for_ref(out[-1]) if out else None
        if this and last and this[0] == last[0]:
            out[-1] = f"for the {plural(this[0])} {last[1]} and {this[1]}"
        else:
            out.append(mention)
    return out


def _for_ref(mention: str) -> tuple[str, str] | None:
    """'for the issue PROJ-123', 'for the first ticket WEB-142': a ref said after the object, as (the last word of
    its noun, its value)."""
    words = mention.split()
    return (words[-2], words[-1]) if len(words) >= 4 and words[:2] == ["for", "the"] else None


def _spaced(noun: str) -> str:
    """A pattern for a noun of several words, written with spaces or hyphens ("sub issue", "sub-issue")."""
    return r"[\s-]".join(re.escape(word) for word in noun.split())


def _names_other(match: re.Match[str], value: Value, values: list[Value]) -> bool:
    """'the sub issue': the phrase names another value's thing (`sub_issue_id`), not this one's (`issue_number`)."""
    phrase = f"{match.group(1)}{match.group(2)}".lower().replace("-", " ")
    noun = value.noun.lower()
    return any(
        other is not value and other.noun.lower() != noun and other.noun.lower().endswith(f" {noun}")
        and other.noun.lower() in phrase
        for other in values
    )


def _repeats(mention: str, tail: list[str], obj: str) -> bool:
    """A second 'saying ...' or 'with ...', or a setting the object already names ('the status' + 'with status')."""
    kind, *said = mention.split()
    if kind in ("saying", "with") and any(t.split()[0] == kind for t in tail):
        return True
    setting = said[1] if said[0] == "the" and len(said) > 1 else said[0]  # 'with the comment "..."': comment
    # A second "with" reads as a list of settings: "the directory with sizes with sort by name".
    return kind == "with" and (f" {setting}" in f" {obj.lower()}" or " with " in f" {obj} ")


def _modifies_next(after: str) -> bool:
    """'repository pull requests': a noun followed by another noun modifies it; a value can't go between."""
    following = after.split()[:1]
    participle = bool(following) and following[0].lower().endswith("ed")  # 'a board filtered by JQL'
    return bool(following) and following[0].isalpha() and following[0].lower() not in _NOT_NOUNS and not participle


def with_values(obj: str, head: str, values: list[Value], *, one: bool = False, verb: str = "") -> str:
    """Put each value where the object names its thing, else after it: 'in a repository' -> 'in acme/webshop'.
    `verb` is the request's verb: a thing moved or copied goes "to" its target ('Move the page P-1042 to ENG')."""
    obj, placed = _placed(obj, values, one=one, later=True)
    obj, placed = _quoted_at_head(obj, head, values, placed)
    tail: list[str] = []
    places: set[int] = set()
    adds = bool(verb) and verb.split()[-1].lower() in WORDS.adding
    takes = bool(verb) and verb.split()[-1].lower() in WORDS.taking
    for value in values:
        if value in placed:
            continue
        if value.role == "ref" and not value.noun and value.param.lower().endswith("name"):
            obj = _with_name(value, obj, _unnamed(head, value, values))
        elif value.role == "ref" and not value.noun and head and head.lower() in obj.lower():
            at = obj.lower().index(head.lower())
            before = re.sub(rf"{_DETERMINER}$", "", obj[:at], flags=re.IGNORECASE)
            obj = f"{before}the {obj[at : at + len(head)]} {_spoken(value)}{obj[at + len(head) :]}"
        elif (mention := _mention(value, verb, head)) is not None and not _repeats(mention, tail, obj):
            if adds and value.role == "ref" and mention.startswith("for the ") and not _says("to", obj, tail):
                mention = f"to {mention.removeprefix('for ')}"  # what is added goes to a thing: "to the issue #142"
            elif takes and value.role == "ref" and mention.startswith("for the ") and not _says("from", obj, tail):
                mention = f"from {mention.removeprefix('for ')}"  # and what is removed comes from one
            elif not one and value.role == "ref" and singular(head) != head and _ends_with(head, value.noun):
                mention = f"up to the {value.noun} {_spoken(value)}"  # a listing of commits given one: its history
            if value.role == "scope" and mention.startswith("in ") and value.noun and places:
                # A second place says what it is: 'in payments in the cluster prod-eu', not '... in prod-eu'.
                mention = f"in the {value.noun} {_spoken(value)}"
            tail.append(mention)
            if value.role == "scope":
                places.add(len(tail) - 1)
    moved = verb.split()[-1].lower() in WORDS.moving if verb else False
    said = _joined(_paired(tail, places, moved=moved and " to " not in f" {obj} "))[:2]
    # Two things the request is for are said once: "for the service desk 4 and the request type 23".
    for i, mention in enumerate(said):
        earlier = " for the " in f" {obj} " or any(m.startswith("for the ") for m in said[:i])
        if earlier and mention.startswith("for the ") and " and " not in f" {obj} {' '.join(said[:i])} ":
            said[i] = f"and {mention.removeprefix('for ')}"
    # A quoted command or statement ends the request: 'in a Pod named frontend in payments: "ls -la /app"'.
    said.sort(key=lambda mention: mention.startswith(":"))
    return " ".join([obj, *said])


def _says(preposition: str, obj: str, tail: Sequence[str] = ()) -> bool:
    """Whether the request already says where a thing goes ("to ENG") or comes from ("from the issue #142")."""
    return f" {preposition} " in f" {obj} " or any(t.startswith(f"{preposition} ") for t in tail)


def _quoted_at_head(obj: str, head: str, values: list[Value], placed: list[Value]) -> tuple[str, list[Value]]:
    """Text that is the object itself goes after it: 'Type the text "hello" into the element', 'Wait for the text
    "Saved" to appear', not '... saying "hello"'."""
    said = next((v for v in values if v.role == "content" and v.noun and v.noun == head.lower()), None)
    # "the title of the issue" with a new title: the value is what it becomes, not which title it is.
    pattern = _bare_head(head)
    if said is None or said in placed or not pattern.search(obj):
        return obj, placed
    return pattern.sub(f'the {head} "{said.text}"', obj, count=1), [*placed, said]


def _paired(tail: list[str], places: set[int], *, moved: bool = False) -> list[str]:
    """Of the mentions at `places` (where values), 'from X' and 'to Y' said together, as one mention: 'from
    America/New_York to Asia/Tokyo'; alone, 'to DEV' could read as the action's own 'to', so it says 'in DEV',
    unless the action moves its thing (`moved`): 'Move the issue PROJ-123 to OTHERPROJ'."""
    start = next((i for i in sorted(places) if tail[i].startswith("from ")), None)
    end = next((i for i in sorted(places) if tail[i].startswith("to ")), None)
    if start is None or end is None:
        lone = start if start is not None else end
        if moved and lone is not None and lone == end:
            return tail
        return [re.sub(r"^(?:from|to) ", "in ", t) if i == lone else t for i, t in enumerate(tail)]
    return [f"{t} {tail[end]}" if i == start else t for i, t in enumerate(tail) if i != end]


def _unnamed(head: str, value: Value, values: list[Value]) -> str:
    """The head a bare name can name: not one another value already identifies ("the sprint 10001")."""
    last = singular(head.split()[-1].lower()) if head.split() else ""
    taken = any(v is not value and v.noun and singular(v.noun.split()[-1].lower()) == last for v in values)
    return "" if taken else head


def _with_name(value: Value, obj: str, head: str = "") -> str:
    """The object with its name said: 'to invoices_archive' for a new name; 'named worker-2' after the word of
    the object that says what the name is of ('the KubeVirt VirtualMachine web-vm-1 lifecycle' when a noun
    follows that word); 'of the node worker-2' when the object does not say it ('the resource consumption of the
    node ...')."""
    if _names_new(value):
        return f"{obj} to {value.text}"
    obj = re.sub(r" by (?:its )?name\b", "", obj)
    # A bare "name" ("Label name.") names the object the request acts on: "the label named needs-triage from ...".
    thing = value.named.split()[-1] if value.named else head.split()[-1] if head and value.param == "name" else ""
    joined = obj.lower().replace(" ", "")
    if not value.named or not is_thing(thing) or any(singular(w.lower()) in joined for w in value.named.split()):
        return _after_named_word(obj, thing, _said_name(value.text))
    said = value.named if any(c.isupper() for c in value.named[1:]) else value.named.lower()
    return f"{obj} of the {said} {_said_name(value.text)}"


def _said_name(text: str) -> str:
    """A name of several words reads as one only quoted when it is not a title ('named "Sign in"'); 'Web Team',
    'Sprint 12' and 'frontend' read as they are."""
    words = text.split()
    return f'"{text}"' if len(words) > 1 and any(w[:1].islower() for w in words[1:]) else text


def _after_named_word(obj: str, thing: str, name: str) -> str:
    words = obj.split()
    bare = [re.sub(r"'s$", "", w.strip(",.")) for w in words]
    at = next(
        (i for i in range(len(words) - 1, -1, -1) if thing and singular(bare[i].lower()) == singular(thing.lower())),
        None,
    )
    if at is None or at == len(words) - 1:
        return f"{obj} named {name}"
    following = words[at + 1].lower()
    joins = following in WORDS.phrase_prepositions | {"and", "or"}
    if words[at].endswith("'s"):
        words[at] = f"{bare[at]} {name}'s"
    elif singular(bare[at]) != bare[at] and not joins:
        # 'the nodes stats summary': one name does not go inside a plural modifier.
        return f"{obj} of the {singular(bare[at])} {name}"
    elif joins:
        words[at] = f"{words[at]} named {name}"
    else:
        # A noun follows ('VirtualMachine lifecycle'): the name goes between, as in 'the web-vm-1 lifecycle'.
        words[at] = f"{words[at]} {name}"
    return " ".join(words)


def _names_new(value: Value) -> bool:
    """`newName`, `new_title`: what a rename makes of the thing ("Rename the collection invoices to archive")."""
    return "new" in (w.lower() for w in split_identifier(value.param))


def _addressed(target: Value) -> str:
    """Where a message goes, as a person says it: '#release', 'the support-escalations channel', 'dana'."""
    if target.noun == "channel" and not target.text.startswith("#"):
        return f"the {target.text} channel"
    return _spoken(target)


def _spoken(value: Value) -> str:
    return f"#{value.text}" if value.text.isdigit() and value.source == "name" else value.text


def _mention(value: Value, verb: str = "", head: str = "") -> str | None:
    """How a request says a value after its object; `verb` is the request's verb ("Assign ... to dana"), `head` the
    thing it acts on ("Add a comment ... on the file ...")."""
    if value.role == "scope":
        first = value.side or split_identifier(value.param)[0].lower()
        preposition = "from" if first in WORDS.from_words else "to" if first in WORDS.to_words else "in"
        return f"{preposition} {_spoken(value)}"
    if value.noun == "time":
        return f"at {value.text}"
    if value.role == "statement":
        return f': "{value.text}"'
    if value.role == "query":
        return f'for "{value.text}"'
    if value.role == "content":
        if value.noun in ("title", "subject"):
            return f'titled "{value.text}"'
        # What goes with an action rather than being its text: 'with the commit message "..."'.
        if value.noun in ("commit message", "comment"):
            return f'with the {value.noun} "{value.text}"'
        return f'saying "{value.text}"'
    if value.role == "ref":
        # A made-up id ("T-1042") only reads well next to the thing it names, not as an afterthought.
        made_up = re.fullmatch(r"[A-Z]-1042", value.text)
        if not value.noun or made_up:
            return None
        if verb.split()[-1:] == ["assign"] and value.noun == "user":
            return f"to {_spoken(value)}"  # 'Assign the issue PROJ-123 to dana', not '... for user dana'
        if "assignee" in split_identifier(value.param):
            return f"assigned to {_spoken(value)}"
        if (said := _file_said(value, verb, head)) is not None:
            return said
        # Work happens on a branch ("Run the workflow on the branch main"), comes from a source one and goes into a
        # target one; other refs say what the request is for.
        first = value.side or split_identifier(value.param)[0].lower()
        if value.noun == "branch":
            preposition = "from" if first in WORDS.from_words else "into" if first in WORDS.to_words else "on"
        else:
            preposition = "for"
        return f"{preposition} the {value.noun} {_spoken(value)}"
    if value.noun == "date":
        first = split_identifier(value.param)[0]
        return f"{first if first in ('since', 'until', 'after', 'before', 'from') else 'on'} {value.text}"
    # A camel-case member ("externalOnly") is a program's word, not a person's.
    spoken = re.fullmatch(r"[A-Za-z][A-Za-z -]{0,20}", value.text) and not _CAMEL.search(value.text)
    # "with action create", "with method get": which operation to run is the request's verb, not a setting.
    operation = WORDS.operation_words & set(split_identifier(value.param))
    if value.source == "enum" and spoken and not operation:
        # "sortBy: name" is said "sorted by name", not "with sort by name".
        if value.noun.split()[:1] in (["sort"], ["order"]) and value.noun.split()[-1] == "by":
            return f"sorted by {value.text}"
        return f"with {value.noun} {value.text}"
    return None


def _framed(family: str, reading: Reading, values: list[Value]) -> list[Phrased]:
    frames = frame_data()[family]
    slots = _slots(reading, values)
    phrasing = Phrasing.TASK if family == "task" else Phrasing.INDIRECT
    out = []
    verb = reading.verb.split()[-1]
    fits = WORDS.fits.get(reading.verb_class)
    last = reading.head.split()[-1].lower() if reading.head.split() else ""
    code = reading.verb_class == "run" and last in WORDS.code
    own_fits = (fits is None or verb in fits) and reading.verb_class != "other" and not code
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
        needed = set(_SLOT.findall(frame))
        if "done" in needed and not passive:
            continue
        if needed <= {k for k, v in slots.items() if v is not None}:
            text = frame.format(**{k: v or "" for k, v in slots.items()})
            if slots["query"] and re.search(r"[*?]", slots["query"]):
                text = text.replace(' about "', ' matching "')  # a pattern ("*.log") is matched, not talked about
            out.append(Phrased(text, phrasing))
    return out


def listing(verb: str) -> bool:
    """Whether a verb lists or searches: its plural object stays plural when a value narrows it."""
    return verb_classes().get(verb) in WORDS.listing


def lists(reading: Reading) -> bool:
    """A listing ("List commits", "Get list of commits"): its plural object stays plural when a value narrows it."""
    return reading.verb_class in WORDS.listing or bool(re.match(r"(?:an? |the )?list of ", reading.object.lower()))


def _slots(reading: Reading, values: list[Value]) -> dict[str, str | None]:
    head = reading.head if is_thing(reading.head) else ""
    first = next((v for v in values if v.role == "ref" and v.noun), None)
    if first is not None and head.lower() == plural(first.noun) and not lists(reading):
        head = first.noun  # "switch branches" to one named branch: "switch to the branch release-2.1"
    # The head with what it belongs to ("the logs of a Kubernetes Pod"), values put where their nouns are.
    phrase, placed = _placed(f"the {head} {reading.owner}".strip(), values)
    rest = [v for v in values if v not in placed]
    ref = next((v for v in rest if v.role == "ref"), None)
    scope = next((v for v in rest if v.role == "scope"), None)
    query = (
        next((v for v in values if v.role == "query"), None)
        if reading.verb_class in ("search", "list", "read")
        else None
    )
    content = next((v for v in values if v.role == "content" and v.noun not in ("title", "subject")), None)
    target = next((v for v in values if v.noun in ("channel", "address", "user")), None)
    obj, placed = _quoted_at_head(phrase, head, values, placed) if head else (phrase, placed)
    # "the sub issue #1042": the head already has its own value; the other ref says what it belongs to.
    valued = any(f"the {head} {_spoken(v)}" in phrase for v in placed)
    if ref is not None and not ref.noun and ref.param.lower().endswith("name"):
        obj = _with_name(ref, phrase, _unnamed(head, ref, values))
    elif ref is not None and not valued and ref.noun and singular(head) != head and lists(reading) and _ends_with(
        head, ref.noun
    ):
        obj = f"{phrase} up to the {ref.noun} {_spoken(ref)}"  # a listing of commits given one: its history
    elif ref is not None and not valued and _ends_with(head, ref.noun):
        obj = phrase.replace(f"the {head}", f"the {head} {_spoken(ref)}", 1)
    elif ref is not None and not valued and (kept := _after_noun(head, ref.noun)):
        # "the pull request branch" of pull request 142: "the branch of the pull request #142" (an owner that
        # names the same thing, "gist content of a gist", goes: it is that one).
        if re.search(rf"\b{re.escape(ref.noun)}s?$", reading.owner, re.IGNORECASE):
            phrase = f"the {head}"
        obj = phrase.replace(f"the {head}", f"the {kept} of the {ref.noun} {_spoken(ref)}", 1)
    elif ref is not None and "assignee" in split_identifier(ref.param):
        obj = f"{phrase} assigned to {_spoken(ref)}"
    elif ref is not None and (said := _file_said(ref, reading.verb, head)) is not None:
        obj = f"{phrase} {said}"
    elif ref is not None and not re.fullmatch(r"[A-Z]-1042", ref.text) and not (valued and ref.noun == head.lower()):
        # What is added goes to the thing ("add the comment to issue #142"); what is read belongs to it.
        joins = reading.verb.split()[-1] in WORDS.adding and not _says("to", phrase)
        # Work is done on a branch, not of it: "the file config/settings.yaml on the branch main".
        on_branch = _mention(ref, reading.verb, head) if ref.noun == "branch" else None
        obj = f"{phrase} {on_branch or ('to' if joins else 'of') + f' the {ref.noun} {_spoken(ref)}'}"
    statement = next((v for v in values if v.role == "statement"), None)
    code = head.split()[-1].lower() in WORDS.code if head else False
    if statement is not None and code and f"the {head}" in obj:
        # A query tool's request gives the query: 'Kick off the SQL query "SELECT ..."', not a bare 'the SQL query'.
        obj = obj.replace(f"the {head}", f'the {head} "{statement.text}"', 1)
    # "in payments"; a pair reads "from America/New_York to Asia/Tokyo".
    scopes = [m for v in rest if v.role == "scope" and v is not target and (m := _mention(v))]
    said_where = scope is not None and scope is not target and scopes
    where = f" {_paired(scopes, set(range(len(scopes))))[0]}" if said_where else ""
    many = singular(head) != head
    subj, rest = _split_complement(obj) if head else (None, None)
    return {
        "subj": subj,
        "rest": rest,
        "pwhere": "" if rest else where,
        "ewhere": where if rest else "",
        "be": "are" if many else "is",
        "Are": "Is" if head and uncountable(head) else "Are",
        "needs": "need" if many else "needs",
        "done": _participle(reading.verb),
        "obj": obj if head else None,
        "thing": singular(head) if head else None,
        "objs": plural(head) if head else None,
        "where": where,
        "query": query.text if query else None,
        "content": content.text[0].lower() + content.text[1:].rstrip(".") if content else None,
        "target": _addressed(target) if target else None,
        "verb": _with_particle(reading.verb),
    }




def _file_said(value: Value, verb: str, head: str) -> str | None:
    """Where a file goes in a request: what is uploaded comes from it ('Upload an attachment to the page P-1042
    from the file ...'), a comment is made on it; None for other values and actions."""
    if value.noun != "file":
        return None
    if verb.split()[-1:] and verb.split()[-1] in WORDS.from_file:
        return f"from the file {_spoken(value)}"
    if head.lower().split()[-1:] == ["comment"]:
        return f"on the file {_spoken(value)}"
    return None


def _ends_with(head: str, noun: str) -> bool:
    """Whether the head names the ref's thing: 'sub issue' and 'Jira issue' end in 'issue' (a ref without a noun
    is the head's own)."""
    if not noun:
        return True
    return bool(head.split()) and singular(head.split()[-1].lower()) == singular(noun.split()[-1].lower())


def _after_noun(head: str, noun: str) -> str:
    """The rest of a head that opens with the ref's noun ('pull request branch' -> 'branch'), or ''."""
    words, lead = head.split(), noun.lower().split()
    opens = len(words) > len(lead) and [w.lower() for w in words[: len(lead)]] == lead
    return " ".join(words[len(lead) :]) if opens else ""


_COMPLEMENT = re.compile(r"(?<!\bassigned)\s(?:to|into|onto)\s(?!\w+\s(?:the|a|an|your|my)\b)")


def _split_complement(obj: str) -> tuple[str, str]:
    """'the issue PROJ-123 to the user dana' -> ('the issue PROJ-123', ' to the user dana'): the part that goes
    after the verb when the object comes first. An infinitive ('ranges to access the clusters') stays."""
    match = _COMPLEMENT.search(obj)
    if match is None:
        return obj, ""
    return obj[: match.start()], obj[match.start() :]


def _participle(verb: str) -> str | None:
    """'merge' -> 'merged', 'take' -> 'taken'; None for a verb said with a preposition ('navigate to') or of
    several words, which would leave the preposition dangling ("still needs to be navigated to")."""
    if " " in verb.strip() or verb in WORDS.particles:
        return None
    forms = inflections(verb, "VBN")
    return forms[0] if forms else None


def _with_particle(verb: str) -> str:
    """'navigate' -> 'navigate to': a verb that takes its object through a preposition (lexicon.yml `particles`)."""
    particle = WORDS.particles.get(verb.split()[-1])
    return f"{verb} {particle}" if particle else verb




@cache
def is_thing(head: str) -> bool:
    """Whether a head ends on a word a frame can say 'the ...' of: 'Helm release' or 'commit' yes,
    'simulated', 'so' or 'Reprioritize' no. Words lemminflect does not know ('PipelineRun', 'kcp') count as
    names of things, unless they end like a verb ('-ize')."""
    words = head.split()
    if not words:
        return False
    last = words[-1].lower()
    known = lemmas(last)
    if last in WORDS.not_things:
        return False
    if "NOUN" in known or last.endswith("ing"):
        return True
    # Verbs stay ('commit', 'deploy' name things here); adjectives, adverbs and participles do not.
    if known:
        return "VERB" in known and not last.endswith("ed")
    # 'Unresolve', 'Reprioritize': a verb with a prefix or a verb's ending, not a thing.
    prefixed = last[:2] in ("un", "re") and "VERB" in lemmas(last[2:])
    return not prefixed and not last.endswith(("ize", "ise", "ify"))
