"""The indefinite article a word takes, decided by how the word is spoken: "a unified diff", "an unread message",
"a user", "an hour", "an SSH key", "a JSON file". One function, used wherever a request is worded."""

from __future__ import annotations

import re

# Spelled from a vowel, spoken from a consonant ("yoo", "wun"): "a unified diff", "a user", "a one-time code".
_CONSONANT_SOUND = re.compile(
    r"(?:uni(?![nm])|unanim|use|usa|usu|uti|ura|uri|ure|ubiq|euro?|eu|one(?![a-z])|once)", re.IGNORECASE
)
# Spelled from a consonant, spoken from a vowel: the silent h.
_VOWEL_SOUND = re.compile(r"(?:hour|honest|honou?r|heir)", re.IGNORECASE)
# Letters whose names start with a vowel sound, for a word read letter by letter ("an SSH key", "an HTTP call").
_VOWEL_LETTERS = frozenset("AEFHILMNORSX")
# Numbers spoken from a vowel: "an 8-hour window", "an 11-day trip", "an 18-month plan".
_VOWEL_NUMBER = re.compile(r"(?:8|11(?!\d)|18(?!\d)|11\d{3}(?!\d)|18\d{3}(?!\d))")


def spelled_out(word: str) -> bool:
    """True for a word read letter by letter: in capitals, and of three letters or with no vowel ("API", "HTML")."""
    letters = word.rstrip("s")
    return letters.isalpha() and letters.isupper() and (len(letters) <= 3 or not re.search(r"[AEIOU]", letters))


def indefinite_article(word: str) -> str:
    """"a" or "an" for `word` as the next word of a sentence."""
    word = word.lstrip("\"'“‘(")
    if not word:
        return "a"
    if word[0].isdigit():
        return "an" if _VOWEL_NUMBER.match(word) else "a"
    if spelled_out(word):
        return "an" if word[0] in _VOWEL_LETTERS else "a"
    if _CONSONANT_SOUND.match(word):
        return "a"
    if _VOWEL_SOUND.match(word):
        return "an"
    return "an" if word[0].lower() in "aeiou" else "a"


_ARTICLE = re.compile(r"\b([Aa]n?) (?=([\w\"'“‘(-]+))")


def with_articles(text: str) -> str:
    """`text` with each "a"/"an" matched to the word after it (its capital kept)."""

    def fixed(m: re.Match[str]) -> str:
        wanted = indefinite_article(m.group(2))
        return (wanted.capitalize() if m.group(1)[0] == "A" else wanted) + " "

    return _ARTICLE.sub(fixed, text)
