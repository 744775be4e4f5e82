"""The object of a reading, in parts: the thing a tool's name names, what the head belongs to (its owner, a
naming clause), the things a container holds, where a second action starts, and the loose words a cut phrase
ends on."""

from __future__ import annotations

import re

from app.audit.suite.lexicon import WORDS
from app.audit.suite.phrase_parts import is_thing, names_a_thing
from app.audit.suite.word_forms import base_verb, lemma_of, lemmas, singular, uncountable, verb_classes


def name_object(name_words: list[str], verb: str) -> list[str]:
    """The thing a name names: 'pull request review' of pull_request_review_write (a last word that is only an
    action, like 'write', names none)."""
    rest = [w for w in name_words if w != verb]
    if len(rest) > 1 and rest[-1] in verb_classes() and "NOUN" not in lemmas(rest[-1]):
        rest = rest[:-1]
    return rest


def is_participle(word: str) -> bool:
    """'describing', 'showing': a present participle (its lemma is another word)."""
    lowered = word.lower()
    return lowered.endswith("ing") and lemma_of(lowered, "VERB")[0] != lowered


def owner_phrase(obj: str, head: str) -> str:
    """The prepositional phrase right after the head, when it names what the head belongs to (≤ 5 words)."""
    at = obj.find(head)
    if not head or at < 0:
        return ""
    after = obj[at + len(head) :].split()
    # "statistics describing the execution of ...": a participle that acts on what follows says what they are of.
    acting = len(after) > 1 and is_participle(after[0]) and after[1].lower() in WORDS.determiners
    if len(after) < 2 or (after[0].lower() not in ("of", "for", "from", "on", "in", "to") and not acting):
        return ""
    phrase = [after[0]]
    limit = 7
    for w in after[1:9]:
        # "of documents in a MongoDB collection": a bare noun's own place goes with it.
        # "owned by a Tekton PipelineRun": a participle's agent stays with it (and may take two words more).
        agent = w.lower() == "by" and phrase[-1].lower().endswith("ed")
        of_what = acting and w.lower() == "of"  # "describing the execution of the winning plan"
        short = len(phrase) <= 2 and w.lower() in ("in", "on", "from")
        if w.lower() in WORDS.prepositions and not (agent or of_what or short):
            # "to appear or disappear or a time | to pass": the last alternative's clause goes on past the cut, so
            # the alternative goes, not half of it.
            joins = [i for i, said in enumerate(phrase) if said.lower() in ("or", "and")]
            at = len(phrase) + 1
            if w.lower() == "to" and at < len(after) and base_verb(after[at]) and joins and joins[-1] > 1:
                phrase = phrase[: joins[-1]]
            break
        if len(phrase) >= limit:
            break
        limit += 2 if agent else 0
        phrase.append(w)
    phrase = trimmed(phrase)
    return " ".join(phrase) if len(phrase) >= 2 else ""


def naming_clause(sentence: str, head: str, name_words: list[str]) -> str:
    """'that this server is allowed to access' after 'directories', for list_allowed_directories: a short
    relative clause right after the head is kept when it says a word of the tool's name the head does not."""
    at = sentence.find(head)
    if not head or at < 0:
        return ""
    after = re.split(r"[.;:()]", sentence[at + len(head) :], maxsplit=1)[0].split()
    if not after or after[0].lower() not in ("that", "which") or len(after) > 8:
        return ""
    said = {w.lower().strip(",.") for w in after} - {w.lower() for w in head.split()}
    # Not the name's first word: that is often the server's prefix ("kiali_list_mesh_clusters").
    return " ".join(after) if said & {w.lower() for w in name_words[1:]} else ""


def after_container(words: list[str]) -> list[str]:
    """'the list of clusters' -> 'clusters': a person asks for the things, not for their list."""
    lowered = [w.lower() for w in words]
    for i, w in enumerate(lowered[:4]):
        if w in WORDS.wrappers and i + 1 < len(lowered) and lowered[i + 1] in ("of", "about", "for", "on"):
            return words[i + 2 :]
        if w not in WORDS.determiners and w not in ("detailed", "full", "basic", "all"):
            break
    return words


def until_next_action(words: list[str]) -> list[str]:
    """'a new file or completely overwrite one' -> 'a new file': a second action is a second request."""
    for i in range(1, len(words) - 1):
        if words[i].lower() in ("or", "and", "and/or"):
            following = words[i + 1].lower()
            # "an issue or pull request comment": "pull request" names a thing, not a second action.
            thing = names_a_thing([w.lower() for w in words], i + 1)
            if not thing and (following.endswith("ly") or (base_verb(following) or "") in verb_classes()):
                return words[:i]
    return words


def trimmed(words: list[str], *, clause: bool = False) -> list[str]:
    """A cut phrase never ends on 'in the' or 'and'; with `clause` (the phrase was not cut), the preposition that
    ends a relative clause stays ('the teams the user is a member of')."""
    ends_open = len(words) > 2 and words[-1].lower() in WORDS.prepositions
    if clause and ends_open and WORDS.copulas & {w.lower() for w in words[:-2]}:
        return words
    loose = WORDS.prepositions | WORDS.determiners | {"and", "or", "its", "their", "current"}
    while words and words[-1].lower() in loose:
        words = words[:-1]
    return words


def places_determined(words: list[str]) -> list[str]:
    """A thing the object names after a preposition of place (lexicon `place_prepositions`) takes "the" when the
    description says it bare: "Hover over element on page" -> "... on the page", "Type text into editable element"
    -> "... into the editable element". Only one thing said with nothing more: a singular, countable, common noun
    (after up to two modifiers) that ends the object or comes before its next preposition, "or" or "and"."""
    out = list(words)
    closed = WORDS.prepositions | WORDS.determiners | WORDS.phrase_openers | WORDS.possessives | {"or", "and"}
    for i in reversed(range(1, len(out) - 1)):
        if out[i].lower() not in WORDS.place_prepositions:
            continue
        group: list[str] = []
        j = i + 1
        while j < len(out) and len(group) < 3 and out[j].isalpha() and out[j].lower() not in closed:
            group.append(out[j])
            j += 1
        after = out[j].lower() if j < len(out) else ""
        if not group or (after and after not in WORDS.prepositions | {"or", "and"}):
            continue
        head = group[-1]
        noun = "NOUN" in lemmas(head) and is_thing(head) and head not in WORDS.set_phrase_nouns
        if noun and head.islower() and singular(head) == head and not uncountable(head):
            out.insert(i + 1, "the")
    return out
