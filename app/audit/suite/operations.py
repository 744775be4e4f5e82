"""Tools that run one of several operations on a thing ("Perform write operations on repository labels" with
`method: create | update | delete`), read as the one operation a request asks for: "Create a label named
needs-triage". Which operation is chosen by the example-value variant."""

from __future__ import annotations

import re

from app.audit.models import Tool
from app.audit.suite.articles import indefinite_article
from app.audit.suite.lexicon import WORDS
from app.audit.suite.phrase_parts import is_thing
from app.audit.suite.reading import Reading, operation_members
from app.audit.suite.word_forms import lemmas, plural, singular, verb_classes
from app.audit.text import split_identifier


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


def _names_action(word: str) -> bool:
    lowered = word.lower()
    return lowered in verb_classes() and ("NOUN" not in lemmas(lowered) or lowered in ("read", "write"))
