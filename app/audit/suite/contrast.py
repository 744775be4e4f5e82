"""Contrastive requests: a tool asked for by what it alone has among its nearest rivals.

Near-twins (geocode / reverse geocode, a list and a get of the same thing, a tool for an issue and one for an
issue's comment) share most of their words, so requests from their descriptions read as either one. A
contrastive request says what tells the tool apart, in the form a person would use:

- a name word the rivals' names lack, put before the thing acted on ("Show the staged changes in
  /home/dev/webshop." for git_diff_staged against git_diff_unstaged);
- parameters the rivals do not take, with values ("Convert coordinates into an address for latitude 38.72
  and longitude -9.14." for the reverse geocoder);
- an enum member only the tool accepts ("... with state draft.").

Nothing here decides that a case is scored: the validator (app/audit/suite/validate.py) judges a contrastive
request like any other, and one it cannot defend stays exploratory.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from app.audit.models import Phrasing, Tool
from app.audit.suite.articles import indefinite_article
from app.audit.suite.frames import listing, lists
from app.audit.suite.lexicon import WORDS
from app.audit.suite.operations import operation_reading
from app.audit.suite.phrase_parts import Phrased, as_written, is_thing, names_a_thing
from app.audit.suite.placing import with_values
from app.audit.suite.reading import (
    TOOL_CACHE,
    Reading,
    read_tool,
)
from app.audit.suite.realiser import finish, imperative
from app.audit.suite.values import Value, named_value, param_values, tool_values
from app.audit.suite.word_forms import (
    base_verb,
    lemmas,
    verb_classes,
)
from app.audit.text import content_stems, split_identifier

# Distinct parameters mentioned in one request at most: beyond two the request reads as a form.
MAX_PARAMS = 2
_PLAIN = re.compile(r"[A-Za-z][A-Za-z -]{0,20}")


def contrastive(
    tool: Tool, rivals: Sequence[Tool], *, variant: int = 0, prefixes: frozenset[str] = frozenset()
) -> list[Phrased]:
    """Requests for `tool` built from what its `rivals` lack; none when nothing tells them apart."""
    if not rivals:
        return []
    reading = operation_reading(read_tool(tool), tool, variant=variant, prefixes=prefixes)
    values = tool_values(tool, variant=variant)
    texts = [
        *_by_parameters(tool, reading, rivals, variant),
        *_by_name_word(tool, reading, rivals, values, prefixes),
        *_by_name(tool, reading, rivals, values, prefixes),
        *_by_name_verb(tool, reading, values),
    ]
    out: list[Phrased] = []
    seen: set[str] = set()
    for text in texts:
        if (done := finish(text)) and done.lower() not in seen:
            seen.add(done.lower())
            out.append(Phrased(done, Phrasing.CONTRASTIVE))
    return out


@lru_cache(maxsize=TOOL_CACHE)
def _stems(text: str) -> frozenset[str]:
    """The content stems of a text, kept: the same rivals' names and parameters are read for each variant."""
    return frozenset(content_stems(text))


def _by_name_word(
    tool: Tool, reading: Reading, rivals: Sequence[Tool], values: list[Value], prefixes: frozenset[str]
) -> list[str]:
    """'Show the staged changes': the tool's own name words that no rival's name has, before its object.

    Only participles ('staged', 'starred', 'allowed'): they read as a modifier before any noun, where a
    noun or a verb from the name would not ('the orgs organizations', 'the reverse coordinates').
    """
    if not reading.head or len(reading.head.split()) > 3:
        return []
    rival_names = set().union(*(_stems(" ".join(split_identifier(r.name))) for r in rivals))
    said = _stems(f"{reading.verb} {reading.object}")
    distinct = [
        w
        for w in split_identifier(tool.name)
        if w.isalpha()
        and len(w) > 2
        and w not in prefixes | WORDS.not_modifiers
        and w.endswith("ed")
        and not (w in verb_classes() and base_verb(w))
        and not _stems(w) & (rival_names | said)
    ]
    if not distinct:
        return []
    obj = f"the {' '.join(distinct)} {reading.head}"
    return [imperative(reading.verb, with_values(obj, reading.head, values, one=not lists(reading)), reading.particle)]


def _by_name(
    tool: Tool, reading: Reading, rivals: Sequence[Tool], values: list[Value], prefixes: frozenset[str]
) -> list[str]:
    """'Return the db stats in orders.': the things the tool's name says, when a word of them is its own."""
    rival_names = set().union(*(_stems(" ".join(split_identifier(r.name))) for r in rivals))
    verb = reading.verb.split()[-1]
    rest = [
        w
        for w in split_identifier(tool.name)
        if w.isalpha() and w not in prefixes and _stems(w) and not (w in verb_classes() and base_verb(w)) and w != verb
    ]
    if not rest or not _stems(" ".join(rest)) - rival_names or len(rest) > 4 or not _names_things(rest):
        return []
    # As the description writes them: 'the Tekton PipelineRun logs', not 'the tekton pipelinerun logs'.
    obj = " ".join(as_written(tool.description or "").get(w, w) for w in rest)
    said = with_values(f"the {obj}", obj, values, one=not lists(reading))
    return [imperative(reading.verb, said, reading.particle)]


def _by_name_verb(tool: Tool, reading: Reading, values: list[Value]) -> list[str]:
    """'Count the documents in the MongoDB collection invoices.': the name's own verb when the description
    says another ('Gets the number of documents ...'), on the object without its container."""
    words = split_identifier(tool.name)
    verbs = [w for i, w in enumerate(words) if w in verb_classes() and base_verb(w) and not names_a_thing(words, i)]
    if not verbs or verbs[0] == reading.verb.split()[-1] or not reading.head:
        return []
    at = reading.object.lower().find(reading.head.lower())
    if at < 0:
        return []
    obj = f"the {reading.object[at:]}"
    spoken = WORDS.spoken_verbs.get(verbs[0], verbs[0])
    if spoken == "count":
        obj = re.sub(r"^the (?:number|count|total) of ", "the ", obj)  # "Count the documents", not "the number of"
    return [f"{spoken} {with_values(obj, reading.head, values, one=not listing(verbs[0]))}"]


def _names_things(words: list[str]) -> bool:
    """'db stats', 'orgs', 'kiali resource details' name things; 'reset', 'aggregate', 'reverse geocode' may not."""
    known = lemmas(words[-1])
    if not known:
        return words[-1].endswith("s")  # 'stats', 'orgs'; not 'geocode' or 'freebusy'
    noun = "NOUN" in known or words[-1] in WORDS.nouns
    return noun and (len(words) > 1 or "VERB" not in known)


def _by_parameters(tool: Tool, reading: Reading, rivals: Sequence[Tool], variant: int) -> list[str]:
    """'Convert coordinates into an address for latitude 38.72 and longitude -9.14.'"""
    distinct, members = _distinct_values(tool, rivals, variant)
    if not distinct and len(rivals) > 1:
        # Nothing sets it apart from all of them: what sets it apart from the one its requests read as most.
        distinct = _distinct_values(tool, rivals[:1], variant)[0]
    out = []
    if any(v.text.count("/") == 1 and v.noun == "repository" for v in distinct):
        distinct = [v for v in distinct if v.noun != "owner"]  # acme/webshop already says the owner
    if reading.verb_class == "create":
        distinct = [v for v in distinct if "new" not in split_identifier(v.param)]  # a new_name renames, later
    if distinct:
        shown = distinct[:MAX_PARAMS]
        # 'with the content "..." with the content format "..."': one value is said once.
        shown = [v for i, v in enumerate(shown) if all(v.text != u.text for u in shown[:i])]
        given = _joined([_said(v) for v in shown])
        if _starts_with_head(reading):
            # The object alone first: the fewer of the rivals' words a request repeats, the clearer it points.
            article = indefinite_article(reading.head) if reading.object.split()[:1] in (["a"], ["an"]) else "the"
            out.append(imperative(reading.verb, f"{article} {reading.head} {given}", reading.particle))
        out.append(f"{reading.verb} {reading.object} {given}")
    for member in members[:1]:
        obj = f"the {reading.head}" if _starts_with_head(reading) else reading.object
        setting = f"{obj} with {member.noun or member.param} {member.text}"
        out.append(imperative(reading.verb, setting, reading.particle))
    return [text for text in out if " the  " not in text]


def _distinct_values(tool: Tool, rivals: Sequence[Tool], variant: int) -> tuple[list[Value], list[Value]]:
    """Values of the parameters no rival takes, and of enum members no rival's definition says."""
    theirs = set().union(*(_stems(" ".join(p for p in r.properties)) for r in rivals))
    their_text = " ".join(str(r.definition()).lower() for r in rivals)
    distinct: list[Value] = []
    members: list[Value] = []
    order = [p for p in tool.required if p in tool.properties] + [p for p in tool.properties if p not in tool.required]
    given = param_values(tool, variant=variant)
    for param in order:
        spec = tool.properties[param]
        if not isinstance(spec, dict) or WORDS.operation_words & set(split_identifier(param)):
            continue  # which operation to run is the request's verb ('Create a label'), not 'with method create'
        value = given[param]
        if value is None and spec.get("type") in ("number", "integer"):
            value = named_value(param, variant=variant)
        if value is None or value.text.startswith(("{", "[")):
            continue  # an object's or a list's value: no person writes it inside a sentence
        if not _stems(" ".join(split_identifier(param))) <= theirs:
            distinct.append(value)
        elif value.source == "enum" and value.text.lower() not in their_text and _PLAIN.fullmatch(value.text):
            members.append(value)
    return distinct, members


def _starts_with_head(reading: Reading) -> bool:
    """'the issues from a queue' starts with its head 'issues'; 'the number of documents' does not (the
    head alone, 'documents', would ask for another action)."""
    words = reading.object.split()
    while words and words[0].lower() in WORDS.determiners:
        words = words[1:]
    # 'how annotations can be' is no thing to say 'the ...' of.
    return is_thing(reading.head) and " ".join(words).lower().startswith(reading.head.lower())


def _joined(said: list[str]) -> str:
    """'for latitude 38.72 and longitude -9.14', 'for path /a/b since 2026-02-01'."""
    out = ""
    named = False  # 'for' said once: 'with the body "..." for commit 9f3c2e1', not '... and commit 9f3c2e1'
    for part in said:
        free = part.startswith(("with ", "since ", "until ", "after ", "before "))
        if free:
            out += (" " if out else "") + part
            continue
        out += (" and " if out else "for ") if named else (" for " if out else "for ")
        out += part
        named = True
    return out


def _said(value: Value) -> str:
    """A parameter named in its own words with its value: 'latitude 38.72', 'team slug M-1042', 'since
    2026-02-01'; the words are what tells the tool apart, the value shows they are being filled in."""
    words = split_identifier(value.param)
    kept = [w for w in words if w not in WORDS.id_words and w.isalpha()] or words
    if value.noun and set(kept) < set(value.noun.split()):
        kept = value.noun.split()  # 'pull_number' -> 'pull request'; 'inward_issue_key' stays 'inward issue'
    text = f"#{value.text}" if value.text.isdigit() and value.source == "name" else value.text
    if text.startswith("#") and "number" in words:
        text = f"number {value.text}"  # 'issue number 142': the parameter's own word, as a person says it
    if kept[0] in WORDS.time_prepositions:
        return f"{kept[0]} {text}"
    if value.role in ("content", "query"):
        return f'with the {" ".join(kept)} "{text}"'
    return f"{' '.join(kept)} {text}"
