"""Argument filling for the synthetic selector: request values matched to the chosen tool's parameters."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.audit.synthetic.analysis import Param, analysed_stems
from app.audit.synthetic.values import Found, format_date, format_time
from app.audit.text import has_token, match_stem, words

_PLACE_WORDS = frozenset("in at near from to around".split())
_PLACE_PARAMS = frozenset(
    match_stem(w) for w in "city location loc area place country state region address destination town".split()
)
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
        ("identifier", "id identifier uuid"),
    )
)
# String parameters that take the request's own words when nothing more specific is found.
_FREE_TEXT = frozenset(
    match_stem(w) for w in "query q prompt text message content command input question keyword search term".split()
)
_NOT_FLAG_WORDS = frozenset(match_stem(w) for w in ("is", "include", "enable", "use", "flag", "show"))


def param_kind(param: Param) -> str:
    """The kind of value a string parameter takes, from its name, else its description's first words."""
    for stems in (param.stems, frozenset(param.description_stems[:4])):
        for kind, names in _KINDS:
            if stems & names:
                return kind
    return ""


def _enum_member(
    param: Param,
    intent_lower: str,
    intent_stems: set[str],
    synonyms: Mapping[str, tuple[str, ...]],
    members: tuple[Any, ...] | None = None,
) -> Any | None:
    """The member (of the enum, or of `members`) the request names: as written, by its words; else, given
    `synonyms`, the one member whose words are all stopwords (`get`: the plain operation), else the one member
    named through the profile's synonym groups ("get rid of the event" -> `delete`)."""
    members = param.enum if members is None else members
    for member in sorted(members, key=lambda v: -len(str(v))):
        text = str(member).lower()
        if not text:
            continue
        if has_token(intent_lower, text):
            return member
        member_stems = set(analysed_stems(str(member)))
        if member_stems and member_stems <= intent_stems:
            return member
    if not synonyms:
        return None
    plain = [m for m in members if str(m) and not analysed_stems(str(m))]
    if len(plain) == 1:
        return plain[0]
    said = intent_stems | {o for s in intent_stems for o in synonyms.get(s, ())}
    named = [m for m in members if (stems := set(analysed_stems(str(m)))) and stems <= said]
    return named[0] if len(named) == 1 else None


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


_DESCRIBED_DEFAULT = re.compile(r"\bdefaults?(?:\s+(?:value|is|of|to|at))*\s*[:=]?\s*['\"]?(-?\d+(?:\.\d+)?)\b", re.I)


def _described_default(param: Param) -> int | float | None:
    """The default a numeric parameter's description states ("Defaults to 100."), if any."""
    m = _DESCRIBED_DEFAULT.search(param.description)
    if m is None:
        return None
    value = float(m.group(1))
    return int(value) if param.type == "integer" and value.is_integer() else value


def _flag_member(param: Param, intent_words: list[str]) -> Any | None:
    """For a "True"/"False" string enum, the member the request's mention (or negation) of the flag picks."""
    by_text = {str(m).lower(): m for m in param.enum}
    if "true" not in by_text or "false" not in by_text:
        return None
    flag = _boolean(param, intent_words)
    return None if flag is None else by_text[str(flag).lower()]


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


def fill_arguments(
    params: list[Param], intent: str, found: Found, synonyms: Mapping[str, tuple[str, ...]] | None = None
) -> Filled:
    """Arguments for `params` from the request: required parameters first, only keys of the schema; an enum
    member may be named through the profile's `synonyms` (stem -> other stems of its groups)."""
    intent_lower = intent.lower()
    intent_words = [w.lower() for w in words(intent)]
    intent_stems = {match_stem(w) for w in intent_words}
    used_numbers: set[int] = set()
    pools: dict[str, list[str]] = {
        "url": list(found.urls), "email": list(found.emails), "path": list(found.paths),
        "date": list(found.dates), "time": list(found.times), "owner_name": list(found.owner_names),
        "identifier": list(found.identifiers),
    }  # fmt: skip
    quoted = list(zip(found.quoted, found.quoted_context, strict=True))
    propers = [(text, ctx, prev) for text, ctx, prev in found.propers]
    lists = [list(items) for items in found.lists]
    args: dict[str, Any] = {}
    required = 0
    required_found = 0.0
    for param in sorted(params, key=lambda p: not p.required):
        value, evidence = _value_for(
            param,
            intent,
            intent_lower,
            intent_words,
            intent_stems,
            found,
            pools,
            quoted,
            propers,
            lists,
            used_numbers,
            synonyms or {},
        )
        if param.listed and not param.enum:
            # Choices written in prose: the one the request names replaces the value; the evidence stays what it
            # was (the tool's own words already counted), so the choice of tool does not move.
            value = _enum_member(param, intent_lower, intent_stems, synonyms or {}, param.listed) or value
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
    synonyms: Mapping[str, tuple[str, ...]],
) -> tuple[Any | None, float]:
    """A value for one parameter and its evidence: 1 from the request, 0.5 free text, 0 a fallback."""
    if param.enum:
        member = _enum_member(param, intent_lower, intent_stems, {})
        if member is None:
            member = _flag_member(param, intent_words)
        if member is not None or not param.required:
            return member, 1.0 if member is not None else 0.0
        # A member named only through a synonym fills the value but is no evidence that the tool fits: it
        # leaves the choice of tool as it was.
        paraphrased = _enum_member(param, intent_lower, intent_stems, synonyms)
        if paraphrased is not None:
            return paraphrased, 0.0
        return (param.default if param.has_default else param.enum[0]), 0.0
    if param.type in ("integer", "number"):
        i = _number_for(param, found.numbers, used_numbers)
        if i is None:
            if not param.required:
                return None, 0.0
            return (param.default if param.has_default else _described_default(param)), 0.0
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
        if quoted:
            return [q for q, _ in quoted], 1.0
        if propers and param.item_type in ("string", ""):
            # Names the request gives ("Apple and Microsoft") fill a list of strings.
            names = [text for text, _, _ in propers]
            propers.clear()
            return names, 1.0
        return None, 0.0
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
            value = format_date(value, param.description)
        elif kind == "time":
            value = format_time(value, param.description)
        return value, 1.0
    # Text introduced by the parameter's own words ("titled 'X'", "directed by X") goes to it first.
    pick = next((i for i, (_, context) in enumerate(quoted) if context & param.stems), None)
    if pick is not None:
        return quoted.pop(pick)[0], 1.0
    pick = next((i for i, (_, context, _) in enumerate(propers) if context & param.stems), None)
    if pick is not None:
        return propers.pop(pick)[0], 1.0
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
