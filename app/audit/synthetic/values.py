"""Values in a request for the synthetic selector: quoted text, numbers, URLs, paths, dates, names."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from app.audit.synthetic.analysis import analysed_stems
from app.audit.text import match_stem, words

_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|`([^`]+)`|(?<![A-Za-z0-9])'([^']+)'(?![A-Za-z0-9])")
_URL = re.compile(r"\bhttps?://[^\s\"'<>]+", re.IGNORECASE)
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_PATH = re.compile(
    r"(?:(?<=\s)|^)(?:~|\.{1,2})?/[\w.\-/]+|\b[A-Za-z]:\\[\w\\.\-]+"
    r"|\b(?:[\w\-.]+/){0,8}[\w\-]+\.(?:py|js|ts|json|ya?ml|txt|csv|md|log|html?|pdf|png|jpe?g|xml|sh|cfg|ini|toml)\b"
)
_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"
_DATE = re.compile(
    r"\b\d{4}[-.]\d{1,2}[-.]\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
    rf"|\b(?:{_MONTHS})[a-z]*\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})[a-z]*(?:,?\s+\d{{4}})?\b",
    re.IGNORECASE,
)
_TIME = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?\b|\b\d{1,2}\s?[ap]\.?m\b", re.IGNORECASE)
# Not a time zone: "America/New_York" names a zone of the IANA database, not an owner's repository.
_OWNER_NAME = re.compile(
    r"(?<![\w/.:])(?!(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)/)"
    r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*(?![\w/])"
)
# A number, also when a unit follows it ("6mm", "5mins"); not inside words or versions.
_NUMBER = re.compile(r"(?<![\w.])[-+]?\$?\d+(?:,\d{3})*(?:\.\d+)?%?(?![\d.]\d)(?![\d])")
# A capitalised phrase ("San Francisco", "Philadelphia, PA"): names of places, people, titles.
_CAPITAL = r"[A-Z][\w'.&-]*[A-Za-z0-9]"
_PARTICLE = r"(?:of|the|de|del|della|van|von|da|di|du|la|le)\s+"
_PROPER = re.compile(rf"\b{_CAPITAL}(?:\s+(?:{_PARTICLE})?{_CAPITAL})*(?:,\s[A-Z]{{2}}\b)?")
_LIST = re.compile(r"\[([^\[\]]{1,500})\]")
_WORD_NUMBERS = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
} | {w: 10 * n for n, w in enumerate("thirty forty fifty sixty seventy eighty ninety".split(), start=3)}
_WORD_NUMBER = re.compile(rf"\b(?:{'|'.join(_WORD_NUMBERS)}|a dozen|dozen)\b", re.IGNORECASE)
# An identifier: a token with a digit in it ("12345", "ABC123", a UUID), not a plain word.
_IDENTIFIER = re.compile(r"(?<![\w.-])(?=[\w-]*\d)[A-Za-z0-9][\w-]{2,}(?![\w-])(?!\.\w)")
_ISO_HINT = re.compile(r"yyyy-mm-dd|iso ?8601|\d{4}-\d{2}-\d{2}", re.IGNORECASE)
_MONTH_NUMBER = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)}


@dataclass(slots=True)
class Found:
    """Values found in one request, by kind, in order of appearance."""

    quoted: list[str]
    quoted_context: list[frozenset[str]]  # stems just before each quoted string
    urls: list[str]
    emails: list[str]
    paths: list[str]
    dates: list[str]
    times: list[str]
    owner_names: list[str]
    numbers: list[tuple[float, bool, frozenset[str]]]  # value, written as an integer, stems around it
    lists: list[list[Any]]  # bracketed lists: [3, 4, 5]
    identifiers: list[str]  # tokens with digits in them, in order
    propers: list[tuple[str, frozenset[str], str]]  # phrase, stems just before it, the word before it
    # Words written inside values (URLs, paths, owner/name strings, ids, quoted text): a tool need not have them.
    value_words: frozenset[str] = frozenset()

    def kinds(self) -> set[str]:
        """Which kinds of value the request carries (for parameter evidence)."""
        present = {
            "quoted": self.quoted, "url": self.urls, "email": self.emails, "path": self.paths,
            "date": self.dates, "time": self.times, "owner_name": self.owner_names, "number": self.numbers,
        }  # fmt: skip
        return {k for k, v in present.items() if v} | ({"number"} if self.lists else set())


def find_values(intent: str) -> Found:
    """Quoted strings, URLs, emails, paths, dates, times, owner/name strings and numbers of a request."""
    # Characters already read as a value of some kind (one flag per character keeps this linear).
    taken = bytearray(len(intent))

    def free(m: re.Match[str]) -> bool:
        return 1 not in taken[m.start() : m.end()]

    def take(m: re.Match[str]) -> None:
        taken[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
        spans.append(m.group(0))

    spans: list[str] = []

    def grab(pattern: re.Pattern[str], text: str) -> list[str]:
        out = []
        for m in pattern.finditer(text):
            if free(m):
                take(m)
                out.append(m.group(0).rstrip(".,;:!?)"))
        return out

    lists: list[list[Any]] = []
    for m in _LIST.finditer(intent):
        take(m)
        lists.append([_list_item(item) for item in m.group(1).split(",") if item.strip()])
    quoted: list[str] = []
    quoted_context: list[frozenset[str]] = []
    for m in _QUOTED.finditer(intent):
        if not free(m):
            continue
        quoted.append(next(g for g in m.groups() if g is not None))
        spans.append(quoted[-1])
        quoted_context.append(frozenset(analysed_stems(intent[max(0, m.start() - 30) : m.start()])[-3:]))
    urls = grab(_URL, intent)
    emails = grab(_EMAIL, intent)
    dates = grab(_DATE, intent)
    times = grab(_TIME, intent)
    paths = grab(_PATH, intent)
    owner_names = grab(_OWNER_NAME, intent)
    placed: list[tuple[int, float, bool, frozenset[str]]] = []
    for m in [*_NUMBER.finditer(intent), *_WORD_NUMBER.finditer(intent)]:
        if not free(m):
            continue
        raw = m.group(0).replace("$", "").replace(",", "").rstrip("%").lower()
        as_word = 12 if "dozen" in raw else _WORD_NUMBERS.get(raw)
        try:
            value = float(as_word if as_word is not None else raw)
        except ValueError:
            continue
        around = words(intent[max(0, m.start() - 40) : m.start()])[-3:] + words(intent[m.end() : m.end() + 30])[:2]
        placed.append((m.start(), value, "." not in raw, frozenset(match_stem(w) for w in around)))
    numbers = [(value, whole, around) for _, value, whole, around in sorted(placed, key=lambda p: p[0])]
    propers: list[tuple[str, frozenset[str], str]] = []
    for m in _PROPER.finditer(intent):
        start, text = m.start(), m.group(0)
        if not free(m):
            continue
        if _starts_sentence(intent, start):
            # The first word of a sentence is capitalised anyway: keep the rest of the phrase, if any.
            first, _, rest = text.partition(" ")
            if not rest or first.endswith(","):
                continue
            start, text = start + len(first) + 1, rest.lstrip()
        before = words(intent[max(0, start - 30) : start])
        after = analysed_stems(intent[m.end() : m.end() + 30])[:2]
        context = frozenset(analysed_stems(" ".join(before))[-3:] + after)
        propers.append((text, context, before[-1].lower() if before else ""))
    identifiers = [m.group(0) for m in _IDENTIFIER.finditer(intent) if free(m)]
    value_words = frozenset(w for text in [*spans, *identifiers] for w in words(text))
    return Found(
        quoted, quoted_context, urls, emails, paths, dates, times, owner_names, numbers, lists, identifiers, propers,
        value_words,
    )  # fmt: skip


def _starts_sentence(text: str, start: int) -> bool:
    """True when `start` opens the text or follows a sentence's end (".", "!", "?") and spaces."""
    i = start - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    return i < 0 or (i < start - 1 and text[i] in ".!?")


def _list_item(text: str) -> Any:
    item = text.strip().strip("'\"‘’“”").strip()
    try:
        number = float(item)
    except ValueError:
        return item
    return int(number) if number.is_integer() and "." not in item else number


def _date_parts(text: str) -> tuple[int, int, int] | None:
    """(year, month, day) of "2023-10-1", "04/23/2023" (month first), "March 1st, 2023", "8th of March 2023"."""
    iso = re.fullmatch(r"(\d{4})[-.](\d{1,2})[-.](\d{1,2})", text)
    if iso:
        return int(iso.group(1)), int(iso.group(2)), int(iso.group(3))
    slashed = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
    if slashed:
        return int(slashed.group(3)), int(slashed.group(1)), int(slashed.group(2))
    month = next((n for m, n in _MONTH_NUMBER.items() if re.search(rf"\b{m}", text, re.IGNORECASE)), None)
    year = re.search(r"\b(\d{4})\b", text)
    day = re.search(r"\b(\d{1,2})(?:st|nd|rd|th)?\b", re.sub(r"\b\d{4}\b", "", text))
    if month is None or year is None or day is None:
        return None
    return int(year.group(1)), month, int(day.group(1))


def format_date(text: str, description: str) -> str:
    """A date in the format the parameter's description asks for (ISO or MM/DD/YYYY), else as written."""
    parts = _date_parts(text)
    if parts is None or not 1 <= parts[1] <= 12 or not 1 <= parts[2] <= 31:
        return text
    year, month, day = parts
    if _ISO_HINT.search(description):
        return f"{year}-{month:02d}-{day:02d}"
    if re.search(r"mm/dd/yyyy", description, re.IGNORECASE):
        return f"{month:02d}/{day:02d}/{year}"
    if re.search(r"dd/mm/yyyy", description, re.IGNORECASE):
        return f"{day:02d}/{month:02d}/{year}"
    return text


def format_time(text: str, description: str) -> str:
    """A time as 24-hour HH:MM when the parameter's description asks for it, else as written."""
    if not re.search(r"hh:mm|24-hour|24 hour", description, re.IGNORECASE):
        return text
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s?([ap])?\.?m?\.?", text.strip(), re.IGNORECASE)
    if m is None:
        return text
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    meridiem = (m.group(3) or "").lower()
    if meridiem == "p" and hour < 12:
        hour += 12
    elif meridiem == "a" and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}" if hour < 24 and minute < 60 else text
