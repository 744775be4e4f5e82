"""Word forms for generated requests: a verb's base form and its class, a noun phrase's plural and singular,
and lemminflect's answers behind them (kept across runs by kept_forms.py)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from types import MappingProxyType

from app.audit.suite.kept_forms import kept
from app.audit.suite.lexicon import WORDS


@cache
def verb_classes() -> dict[str, str]:
    return {verb: cls for cls, verbs in WORDS.classes.items() for verb in verbs}


def class_of(verb: str) -> str:
    """The class of a request's verb, by its last word ("permanently delete" -> "delete"); "other" when unknown."""
    words = verb.lower().split()
    return verb_classes().get(words[-1], "other") if words else "other"


# Words looked up at most: a suite asks lemminflect about the same few thousand words again and again (every tool's
# name, description and values, once per request family and variant); each of its answers is a fresh deep copy.
WORD_CACHE = 65_536


@lru_cache(maxsize=WORD_CACHE)
def lemmas(word: str) -> Mapping[str, tuple[str, ...]]:
    """lemminflect's getAllLemmas, kept: every lemma by part of speech ('VERB', 'NOUN'); read-only."""
    answer = kept("lemmas", _all_lemmas, word)
    return MappingProxyType({pos: tuple(forms) for pos, forms in answer.items()})


@lru_cache(maxsize=WORD_CACHE)
def lemma_of(word: str, upos: str) -> tuple[str, ...]:
    """lemminflect's getLemma, kept: the lemma for a part of speech, guessed for a word it has never seen."""
    return tuple(kept("lemma", _lemma, word, upos))


@lru_cache(maxsize=WORD_CACHE)
def inflections(lemma: str, tag: str) -> tuple[str, ...]:
    """lemminflect's getInflection, kept: the forms of `lemma` for a Penn tag ('NNS', 'VBZ', 'VBN'). A verb it does
    not know that is a known one with "un" or "re" before it is inflected as that one ('unstar' -> 'unstarred', as
    'star' -> 'starred'; lemminflect's guess is 'unstared')."""
    for prefix in WORDS.verb_prefixes:
        rest = lemma[len(prefix) :]
        if lemma.startswith(prefix) and len(rest) > 2 and not lemmas(lemma) and "VERB" in lemmas(rest):
            return tuple(prefix + form for form in inflections(rest, tag))
    return tuple(kept("inflection", _inflection, lemma, tag))


# lemminflect is imported only when a word is not kept (app/audit/suite/kept_forms.py): its import and tables
# cost about 0.3 s a process.
def _all_lemmas(word: str) -> dict[str, list[str]]:
    from lemminflect import getAllLemmas

    return {pos: list(forms) for pos, forms in getAllLemmas(word).items()}


def _lemma(word: str, upos: str) -> list[str]:
    from lemminflect import getLemma

    return list(getLemma(word, upos))


def _inflection(lemma: str, tag: str) -> list[str]:
    from lemminflect import getInflection

    return list(getInflection(lemma, tag=tag))


@lru_cache(maxsize=WORD_CACHE)
def base_verb(word: str) -> str | None:
    """'Fetches' -> 'fetch'; 'List' -> 'list'; 'Current' -> None."""
    lowered = word.lower()
    if not lowered.isalpha():
        return None
    if lowered in verb_classes():
        return lowered
    known = lemmas(lowered)
    verbs = known.get("VERB")
    if not verbs:
        # Words lemminflect has never seen ("Unstages"): an -s form at the head of a description is a verb.
        if not known and len(lowered) > 4 and lowered.endswith("s") and not lowered.endswith(("ss", "us", "is")):
            return lemma_of(lowered, "VERB")[0]
        # "Unresolve", "Reprioritize": a verb it knows behind un- or re-.
        prefix = lowered[:2]
        if not known and prefix in WORDS.verb_prefixes and len(lowered) > 5 and (rest := base_verb(lowered[2:])):
            return prefix + rest
        return None
    lemma = verbs[0]
    # A noun-only reading ("information") has no VERB lemmas; a verb must inflect to itself or its -s form.
    if lowered in (lemma, *inflections(lemma, "VBZ")):
        return lemma
    return None




def uncountable(phrase: str) -> bool:
    """'source code' takes 'is' and no plural ('Is there any code ...')."""
    words = phrase.split()
    return bool(words) and words[-1].lower() in WORDS.uncountable


@lru_cache(maxsize=WORD_CACHE)
def plural(phrase: str) -> str:
    """'secret scanning alert' -> 'secret scanning alerts' (the last word inflected)."""
    words = phrase.split()
    if not words:
        return phrase
    last = words[-1]
    if uncountable(last) or _is_plural(last):
        return phrase
    forms = inflections(last, "NNS")
    return " ".join([*words[:-1], forms[0] if forms else last])


def _is_plural(word: str) -> bool:
    """A plural noun as lemminflect reads it ('alerts', 'entries'; not 'status' or 'canvas'); a word it does not
    know is plural when it ends in a single s ('PipelineRuns')."""
    nouns = lemmas(word.lower()).get("NOUN")
    if nouns:
        return word.lower() != nouns[0] and word.lower() in inflections(nouns[0], "NNS")
    return word.endswith("s") and not word.endswith("ss")


@lru_cache(maxsize=WORD_CACHE)
def singular(phrase: str) -> str:
    """'new entities' -> 'new entity'."""
    words = phrase.split()
    if not words or not words[-1].isalpha() or words[-1].isupper():
        return phrase
    lemma = lemma_of(words[-1].lower(), "NOUN")
    last = lemma[0] if lemma else words[-1]
    return " ".join([*words[:-1], last if words[-1].islower() else words[-1][: len(last)] or last])
