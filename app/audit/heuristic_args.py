"""Argument filling for the synthetic selector: values found in the request, matched to parameters."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from app.audit.heuristic_index import Param, analysed_stems
from app.audit.text import match_stem, words

_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|`([^`]+)`|(?<![A-Za-z0-9])'([^']+)'(?![A-Za-z0-9])")
_URL = re.compile(r"\bhttps?://[^\s\"'<>]+", re.IGNORECASE)
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_PATH = re.compile(
    r"(?:(?<=\s)|^)(?:~|\.{1,2})?/[\w.\-/]+|\b[A-Za-z]:\\[\w\\.\-]+"
    r"|\b[\w\-]+\.(?:py|js|ts|json|ya?ml|txt|csv|md|log|html?|pdf|png|jpe?g|xml|sh|cfg|ini|toml)\b"
)
_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"
_DATE = re.compile(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
    rf"|\b(?:{_MONTHS})[a-z]*\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})[a-z]*(?:,?\s+\d{{4}})?\b",
    re.IGNORECASE,
)
_TIME = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?\b|\b\d{1,2}\s?[ap]\.?m\b", re.IGNORECASE)
_OWNER_NAME = re.compile(r"(?<![\w/.:])[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*(?![\w/])")
# A number, also when a unit follows it ("6mm", "5mins"); not inside words or versions.
_NUMBER = re.compile(r"(?<![\w.])[-+]?\$?\d+(?:,\d{3})*(?:\.\d+)?%?(?![\d.]\d)(?![\d])")
# A capitalised phrase ("San Francisco", "Philadelphia, PA"): names of places, people, titles.
_CAPITAL = r"[A-Z][\w'.&-]*[A-Za-z0-9]"
_PROPER = re.compile(rf"\b{_CAPITAL}(?:\s+(?:of\s+|de\s+|the\s+)?{_CAPITAL})*(?:,\s[A-Z]{{2}}\b)?")
_LIST = re.compile(r"\[([^\[\]]{1,500})\]")
_WORD_NUMBERS = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
}
_WORD_NUMBER = re.compile(rf"\b(?:{'|'.join(_WORD_NUMBERS)}|a dozen|dozen)\b", re.IGNORECASE)
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)$")
_PLACE_WORDS = frozenset("in at near from to around".split())
_PLACE_PARAMS = frozenset(
    match_stem(w) for w in "city location loc area place country state region address destination town".split()
)
_ISO_HINT = re.compile(r"yyyy-mm-dd|iso ?8601|\d{4}-\d{2}-\d{2}", re.IGNORECASE)
_MONTH_NUMBER = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)}
_NEGATION = frozenset("no not without exclude excluding don dont never disable false off".split())

# Parameter name stems that say which kind of value a string parameter takes.
_KINDS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (kind, frozenset(match_stem(w) for w in names.split()))
    for kind, names in (
        ("url", "url link uri endpoint href website"),
        ("email", "email mail"),
        ("path", "path file filename dir directory folder filepath"),
        ("date", "date day birthday deadline"),
        ("time", "time hour"),
        ("owner_name", "repo repository slug"),
    )
)
# String parameters that take the request's own words when nothing more specific is found.
_FREE_TEXT = frozenset(
    match_stem(w) for w in "query q prompt text message content command input question keyword search term".split()
)
_NOT_FLAG_WORDS = frozenset(match_stem(w) for w in ("is", "include", "enable", "use", "flag", "show"))


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
    propers: list[tuple[str, frozenset[str], str]]  # phrase, stems just before it, the word before it

    def kinds(self) -> set[str]:
        """Which kinds of value the request carries (for parameter evidence)."""
        present = {
            "quoted": self.quoted, "url": self.urls, "email": self.emails, "path": self.paths,
            "date": self.dates, "time": self.times, "owner_name": self.owner_names, "number": self.numbers,
        }  # fmt: skip
        return {k for k, v in present.items() if v} | ({"number"} if self.lists else set())


def find_values(intent: str) -> Found:
    """Quoted strings, URLs, emails, paths, dates, times, owner/name strings and numbers of a request."""
    taken: list[tuple[int, int]] = []

    def grab(pattern: re.Pattern[str], text: str) -> list[str]:
        out = []
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            taken.append((m.start(), m.end()))
            out.append(m.group(0).rstrip(".,;:!?)"))
        return out

    lists: list[list[Any]] = []
    for m in _LIST.finditer(intent):
        taken.append((m.start(), m.end()))
        lists.append([_list_item(item) for item in m.group(1).split(",") if item.strip()])
    quoted: list[str] = []
    quoted_context: list[frozenset[str]] = []
    for m in _QUOTED.finditer(intent):
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue
        quoted.append(next(g for g in m.groups() if g is not None))
        quoted_context.append(frozenset(analysed_stems(intent[max(0, m.start() - 30) : m.start()])[-3:]))
    urls = grab(_URL, intent)
    emails = grab(_EMAIL, intent)
    dates = grab(_DATE, intent)
    times = grab(_TIME, intent)
    paths = grab(_PATH, intent)
    owner_names = grab(_OWNER_NAME, intent)
    placed: list[tuple[int, float, bool, frozenset[str]]] = []
    for m in [*_NUMBER.finditer(intent), *_WORD_NUMBER.finditer(intent)]:
        if any(s < m.end() and m.start() < e for s, e in taken):
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
        if any(s < m.end() and start < e for s, e in taken):
            continue
        if _SENTENCE_START.search(intent[:start]):
            # The first word of a sentence is capitalised anyway: keep the rest of the phrase, if any.
            first, _, rest = text.partition(" ")
            if not rest or first.endswith(","):
                continue
            start, text = start + len(first) + 1, rest.lstrip()
        before = words(intent[max(0, start - 30) : start])
        context = frozenset(analysed_stems(" ".join(before))[-3:])
        propers.append((text, context, before[-1].lower() if before else ""))
    return Found(quoted, quoted_context, urls, emails, paths, dates, times, owner_names, numbers, lists, propers)


def _list_item(text: str) -> Any:
    item = text.strip().strip("'\"‘’“”").strip()
    try:
        number = float(item)
    except ValueError:
        return item
    return int(number) if number.is_integer() and "." not in item else number


def param_kind(param: Param) -> str:
    """The kind of value a string parameter takes, from its name, else its description's first words."""
    for stems in (param.stems, frozenset(param.description_stems[:4])):
        for kind, names in _KINDS:
            if stems & names:
                return kind
    return ""


def _enum_member(param: Param, intent_lower: str, intent_stems: set[str]) -> Any | None:
    for member in sorted(param.enum, key=lambda v: -len(str(v))):
        text = str(member).lower()
        if not text:
            continue
        if re.search(rf"(?<![a-z0-9]){re.escape(text)}(?![a-z0-9])", intent_lower):
            return member
        member_stems = set(analysed_stems(str(member)))
        if member_stems and member_stems <= intent_stems:
            return member
    return None


def _number_for(param: Param, numbers: list[tuple[float, bool, frozenset[str]]], used: set[int]) -> int | None:
    context = param.stems | frozenset(param.description_stems[:6])
    best, best_score = None, -1
    for i, (value, as_int, around) in enumerate(numbers):
        if i in used or (param.type == "integer" and not (as_int or value.is_integer())):
            continue
        score = len(context & around)
        if score > best_score:
            best, best_score = i, score
    if best is None or (best_score == 0 and not param.required):
        return None
    return best


def _boolean(param: Param, intent_words: list[str]) -> bool | None:
    names = param.stems - _NOT_FLAG_WORDS
    stems = [match_stem(w) for w in intent_words]
    if not names or not names <= set(stems):
        return None
    first = min(i for i, s in enumerate(stems) if s in names)
    return not any(x in _NEGATION for x in intent_words[max(0, first - 3) : first])


@dataclass(slots=True)
class Filled:
    """Arguments for a tool, and how much of them the request itself supplied."""

    arguments: dict[str, Any]
    required: int  # required parameters of the tool
    required_found: float  # of them, filled from request values (free text counts one half)


def fill_arguments(params: list[Param], intent: str, found: Found) -> Filled:
    """Arguments for `params` from the request: required parameters first, only keys of the schema."""
    intent_lower = intent.lower()
    intent_words = [w.lower() for w in words(intent)]
    intent_stems = {match_stem(w) for w in intent_words}
    used_numbers: set[int] = set()
    pools: dict[str, list[str]] = {
        "url": list(found.urls), "email": list(found.emails), "path": list(found.paths),
        "date": list(found.dates), "time": list(found.times), "owner_name": list(found.owner_names),
    }  # fmt: skip
    quoted = list(zip(found.quoted, found.quoted_context, strict=True))
    propers = [(text, ctx, prev) for text, ctx, prev in found.propers]
    lists = [list(items) for items in found.lists]
    args: dict[str, Any] = {}
    required = 0
    required_found = 0.0
    for param in sorted(params, key=lambda p: not p.required):
        value, evidence = _value_for(
            param, intent, intent_lower, intent_words, intent_stems, found, pools, quoted, propers, lists, used_numbers
        )
        if value is not None:
            args[param.name] = value
        if param.required:
            required += 1
            required_found += evidence
    ordered = {p.name: args[p.name] for p in params if p.name in args}
    return Filled(arguments=ordered, required=required, required_found=required_found)


def _value_for(
    param: Param,
    intent: str,
    intent_lower: str,
    intent_words: list[str],
    intent_stems: set[str],
    found: Found,
    pools: dict[str, list[str]],
    quoted: list[tuple[str, frozenset[str]]],
    propers: list[tuple[str, frozenset[str], str]],
    lists: list[list[Any]],
    used_numbers: set[int],
) -> tuple[Any | None, float]:
    """A value for one parameter and its evidence: 1 from the request, 0.5 free text, 0 a fallback."""
    if param.enum:
        member = _enum_member(param, intent_lower, intent_stems)
        if member is not None or not param.required:
            return member, 1.0 if member is not None else 0.0
        return (param.default if param.has_default else param.enum[0]), 0.0
    if param.type in ("integer", "number"):
        i = _number_for(param, found.numbers, used_numbers)
        if i is None:
            return (param.default if param.required and param.has_default else None), 0.0
        used_numbers.add(i)
        value = found.numbers[i][0]
        return (int(value) if param.type == "integer" or found.numbers[i][1] else value), 1.0
    if param.type == "boolean":
        flag = _boolean(param, intent_words)
        if flag is None:
            return (param.default if isinstance(param.default, bool) else False) if param.required else None, 0.0
        return flag, 1.0
    mentioned = bool(param.stems & intent_stems)
    if param.type == "array":
        if not (param.required or mentioned):
            return None, 0.0
        if lists:
            return lists.pop(0), 1.0
        if param.item_type in ("integer", "number"):
            values = [v for k, (v, _, _) in enumerate(found.numbers) if k not in used_numbers]
            filled = [int(v) if param.item_type == "integer" else v for v in values]
            return filled or None, 1.0 if filled else 0.0
        return [q for q, _ in quoted] or None, 1.0 if quoted else 0.0
    if param.type in ("string", ""):
        return _string_for(param, intent, mentioned, pools, quoted, propers)
    if param.type == "object" and param.required:
        return {}, 0.0
    return None, 0.0


def _string_for(
    param: Param,
    intent: str,
    mentioned: bool,
    pools: dict[str, list[str]],
    quoted: list[tuple[str, frozenset[str]]],
    propers: list[tuple[str, frozenset[str], str]],
) -> tuple[Any | None, float]:
    """A string value: a value of the parameter's kind, else quoted text or a name the request gives."""
    kind = param_kind(param)
    if kind and pools[kind]:
        value = pools[kind].pop(0)
        if kind == "date":
            value = _format_date(value, param.description)
        elif kind == "time":
            value = _format_time(value, param.description)
        return value, 1.0
    # Text introduced by the parameter's own words ("titled 'X'", "directed by X") goes to it first.
    for texts in (quoted, propers):
        pick = next((i for i, item in enumerate(texts) if item[1] & param.stems), None)
        if pick is not None:
            return texts.pop(pick)[0], 1.0
    if param.stems & _PLACE_PARAMS:
        pick = next((i for i, item in enumerate(propers) if item[2] in _PLACE_WORDS), None)
        if pick is not None:
            return propers.pop(pick)[0], 1.0
    if quoted and (param.required or mentioned):
        return quoted.pop(0)[0], 1.0
    if param.stems & _FREE_TEXT:
        return intent.strip(), 0.5
    if param.required:
        if propers:
            return propers.pop(0)[0], 1.0
        return (param.default if isinstance(param.default, str) else intent.strip()), 0.0
    return None, 0.0


def _date_parts(text: str) -> tuple[int, int, int] | None:
    """(year, month, day) of "2023-10-1", "04/23/2023" (month first), "March 1st, 2023", "8th of March 2023"."""
    iso = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", text)
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


def _format_date(text: str, description: str) -> str:
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


def _format_time(text: str, description: str) -> str:
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
