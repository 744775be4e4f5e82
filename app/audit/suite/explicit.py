"""Explicit requests: the description's action as an imperative, with values ("Fetch the ticket T-1042."), and
a second one from the tool's name words ("Get the dependabot alert #142 in acme/webshop."). A name's object that
opens with a value's thing says whose it is (`owned_object`); one thing a request names takes a determiner
(`determined`)."""

from __future__ import annotations

import itertools

from app.audit.models import Phrasing, Tool
from app.audit.suite.articles import indefinite_article
from app.audit.suite.frames import listing, lists
from app.audit.suite.lexicon import WORDS
from app.audit.suite.mentions import spoken_form
from app.audit.suite.noun_phrase import Noun, Phrase
from app.audit.suite.phrase_parts import Phrased, after_noun, as_written, is_thing, names_a_thing
from app.audit.suite.placing import with_values
from app.audit.suite.reading import Reading
from app.audit.suite.realiser import imperative
from app.audit.suite.values import Value
from app.audit.suite.word_forms import class_of, lemmas, plural, singular, uncountable, verb_classes
from app.audit.text import split_identifier


def explicit(reading: Reading, values: list[Value], tool: Tool, prefixes: frozenset[str]) -> list[Phrased]:
    """The tool's explicit requests: from its reading, then from its name's words."""
    out = []
    if reading.object:
        one = not lists(reading)
        out.append(
            Phrased(
                imperative(
                    reading.verb,
                    determined(with_values(reading.object, reading.head, values, one=one, verb=reading.verb),
                               reading.head, reading.verb),
                    reading.particle,
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
        # As the description writes them: "Assign Copilot to ...", "Start the Tekton Pipeline ...".
        written = as_written(tool.description or "")
        words = " ".join(written.get(w, w) for w in rest)
        obj, head, rest_values = owned_object(words, values, verb)
        said = determined(with_values(obj, head, rest_values, one=one, verb=verb), head, verb)
        out.append(Phrased(imperative(verb, said, WORDS.particles.get(verb)), Phrasing.EXPLICIT))
    return out


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


def determined(phrase: Phrase, head: str, verb: str, *, direct: bool = True) -> Phrase:
    """A request names one thing with a determiner, as a person does: "a" for a thing it brings into being ("Create
    a page in ENG titled ...", "Add a watcher to the issue PROJ-123"), "the" for one it says more of ("Get the
    service desk for the project SUP", "Get the agile board named Web Team"), and one it reads ("Get the current
    time"). A plural or uncounted thing keeps none, nor one said with nothing more ("Simulate research query").
    After the verb's preposition a thing is not `direct`: it is there already ("Add to the pending review", "Hover
    over the element")."""
    words = head.lower().split()
    first = phrase.items[0] if phrase.items else None
    if isinstance(first, str) and first in WORDS.verb_particles and len(phrase.items) > 1:
        # "Reply to thread in #release", "Hover over element": the verb's preposition, then the thing ("to the
        # thread"), which is there already.
        inner = " ".join(head.split()[1:]) if words[:1] == [first] else head
        rest = determined(Phrase(phrase.items[1:]), inner, verb, direct=False)
        return Phrase((first, *rest.items))
    said = str(phrase).split()
    holder = said[0].lower() if len(said) > 2 and said[1] == "of" else ""
    if holder in WORDS.wrappers and holder not in words and singular(holder) == holder and not uncountable(holder):
        # One thing that holds the things asked for: "Get the list of commits of a branch" (not "details of" or
        # "content of": a plural or uncounted one takes none, as a head does).
        return Phrase(("the", *phrase.items))
    # The thing is the words before what is said of it: "service desk" of "service desk for project".
    cut = next((i for i, w in enumerate(words) if i and w in WORDS.not_before_head), len(words))
    head, words = " ".join(head.split()[:cut]), words[:cut]
    if not words or singular(head) != head or uncountable(head) or not is_thing(head):
        return phrase
    # Only a noun and the words before it: not "to thread", "all notifications read", "today's forecast", "dynamic
    # and reflective problem-solving", nor a name ("Assign Copilot").
    if set(words) & (WORDS.not_before_head | WORDS.determiners) or words[0].endswith(("'s", "’s")):
        return phrase
    if len(words) == 1 and head[:1].isupper():
        return phrase
    if isinstance(first, Noun):
        bare = not first.determiner and [w.lower() for w in (*first.modifiers, first.head)] == words
        span = 1
    else:
        bare = phrase.locate(head) == (0, False)
        span = len(words)
    if not bare:
        return phrase
    action = verb.split()[-1]
    reads = class_of(verb) == "read"
    # A thing moved or copied exists already: "Copy the page to DEV".
    made = class_of(verb) == "create" or action in WORDS.bringing | WORDS.from_file
    if made and direct and action not in WORDS.moving:
        article = indefinite_article(str(phrase).split()[0])
    elif len(phrase.items) > span or isinstance(first, Noun) or not direct or (reads and len(words) > 1):
        # What a request reads is there already: "Get the current time", "Get the Kiali mesh status". A single word
        # said with nothing more ("Get view") stays bare: too short a request to keep (finish drops it).
        article = "the"
    else:
        return phrase
    if isinstance(first, Noun):
        return phrase.with_determiner(article)
    return Phrase((article, *phrase.items))


def owned_object(words: str, values: list[Value], verb: str) -> tuple[str, str, list[Value]]:
    """A name's object that opens with a value's thing says whose it is: 'job logs' with the job #1042 given is
    'the logs of the job #1042', 'issue comment' is added to the issue #142 (the object, its head, the values left
    to say). Not when two values are of that thing ('issue link' of PROJ-123 and PROJ-456)."""
    for value in values:
        kept = after_noun(words, value.noun) if value.noun and value.role in ("ref", "scope") else ""
        first, last = (kept.split()[0], kept.split()[-1]) if kept else ("", "")
        if not kept or first in WORDS.phrase_prepositions or not is_thing(last) or kept == "details":
            continue  # "the details of the notification" is the notification itself
        if any(v is not value and v.noun.split()[-1:] == value.noun.split()[-1:] for v in values):
            break
        joins = "to" if verb in WORDS.adding else "of"
        # What the request adds or makes is a new one: "Add a comment to the issue #142", "Create a review of ...".
        made = verb in WORDS.adding | WORDS.bringing or class_of(verb) == "create"
        said = f"{indefinite_article(kept) if made else 'the'} {kept} {joins} the {value.noun} {spoken_form(value)}"
        return said, kept, [v for v in values if v is not value]
    return words, words, values


def can_name(word: str) -> bool:
    """Not a participle ("annotated"): lemminflect lacks the noun reading of some nouns ("commit", "log")."""
    known = lemmas(word)
    return not (word.endswith("ed") and known and "NOUN" not in known)
