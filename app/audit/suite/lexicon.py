"""The request generator's words (lexicon.yml), read once into one model: one list per meaning, each defined once.

Modules read them as `WORDS.determiners`, `WORDS.prepositions`, ...; a word list that two modules need is one
entry here, not two constants that drift apart.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict

LEXICON_FILE = Path(__file__).with_name("lexicon.yml")


class Lexicon(BaseModel):
    """lexicon.yml, checked: every entry named here and no other."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    copulas: frozenset[str]
    prepositions: frozenset[str]
    phrase_prepositions: frozenset[str]
    determiners: frozenset[str]
    possessives: frozenset[str]
    deictic: frozenset[str]
    not_actions: frozenset[str]
    wrappers: frozenset[str]
    uncountable: frozenset[str]
    not_things: frozenset[str]
    not_modifiers: frozenset[str]
    phrase_openers: frozenset[str]
    not_before_head: frozenset[str]
    time_prepositions: frozenset[str]
    place_prepositions: frozenset[str]
    set_phrase_nouns: frozenset[str]
    operation_words: frozenset[str]
    operation_classes: frozenset[str]
    unspoken: frozenset[str]
    not_named: frozenset[str]
    repository_params: frozenset[str]
    id_words: frozenset[str]
    reference_endings: frozenset[str]
    numbered: frozenset[str]
    kind_words: frozenset[str]
    bland: frozenset[str]
    git_words: frozenset[str]
    from_words: frozenset[str]
    to_words: frozenset[str]
    sides: dict[str, str]
    listing: frozenset[str]
    moving: frozenset[str]
    adding: frozenset[str]
    taking: frozenset[str]
    from_file: frozenset[str]
    spoken_verbs: dict[str, str]
    spoken_nouns: dict[str, str]
    noun_synonyms: dict[str, tuple[str, ...]]
    classes: dict[str, tuple[str, ...]]
    fits: dict[str, tuple[str, ...]]
    particles: dict[str, str]
    verb_particles: frozenset[str]
    said_before_head: frozenset[str]
    naming_words: frozenset[str]
    verb_prefixes: tuple[str, ...]
    title_words: frozenset[str]
    general_things: frozenset[str]
    articles: frozenset[str]
    indefinite_articles: frozenset[str]
    complement_prepositions: frozenset[str]
    bringing: frozenset[str]
    telling: frozenset[str]
    no_passive: frozenset[str]
    vague: frozenset[str]
    aspects: frozenset[str]
    code: frozenset[str]
    complement: frozenset[str]
    slot_words: dict[str, tuple[str, ...]]
    measures: frozenset[str]
    containers: frozenset[str]
    nouns: frozenset[str]
    description_trims: tuple[tuple[str, str], ...]
    own_trims: tuple[tuple[str, str], ...]
    person_words: frozenset[str]


def read_lexicon(path: Path = LEXICON_FILE) -> Lexicon:
    return Lexicon.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


WORDS = read_lexicon()
