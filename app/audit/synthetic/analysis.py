"""The synthetic selector's tool analysis: each tool reduced once to weighted stems, parameters and usage boundary."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from app.audit.listed_values import prose_values
from app.audit.synthetic.profiles import Profile
from app.audit.text import STOPWORDS, match_stem, words

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
# "Do not use for ...", "Don't use when ...", "Not for ...", "Never call this to ...", "should not be used for".
_EXCLUSION = re.compile(
    r"\b(?:do not|don't|dont|never|should not|shouldn't|must not|not)\s+(?:be\s+)?"
    r"(?:use[ds]?|call(?:ed)?|invoke[ds]?|intended|meant|suitable|for)\b",
    re.IGNORECASE,
)
# "Use this when ...", "Use for ...", "Call this tool to ...", "Useful for ...", "Ideal when ...".
_BOUNDARY = re.compile(
    r"^\s*(?:(?:use|call|invoke)\s+(?:this|it|me)?\s*(?:tool|function|endpoint)?\s*(?:only\s+)?"
    r"(?:when|for|to|if|whenever)|(?:useful|ideal|best|intended|designed|meant)\s+(?:for|when|to))\b",
    re.IGNORECASE,
)
# "the user asks for it", "a user explicitly requests", "the caller wants": who asks, not what the tool is about (a
# usage sentence "Use this when the user asks for it directly." says nothing of the tool's subject).
_ASKER = re.compile(
    r"\b(?:the|a|an)\s+(?:user|caller|person|human|customer)\s+(?:\w+ly\s+)?"
    r"(?:asks?|asked|wants?|wanted|requests?|requested|needs?|says?|said|mentions?|wishes|would\s+like|is\s+asking)"
    r"(?:\s+(?:for|to|about))?(?:\s+(?:it|this|that|them))?(?:\s+\w+ly\b)?",
    re.IGNORECASE,
)


def says_something(sentence: str) -> bool:
    """True when `sentence` has a content word beyond those that only say it is a usage sentence ("Use this when")."""
    return any(s not in _BOUNDARY_WORDS for s in analysed_stems(sentence))


def without_asker(text: str) -> str:
    """`text` less the phrases that say who asks ("the user asks for it"): they tell nothing of a tool's subject."""
    return _ASKER.sub(" ", text)


# Words of a boundary sentence that only say it is one.
_BOUNDARY_WORDS = frozenset(
    "use used call invoke tool function endpoint useful ideal best intended designed meant don dont never "
    "not should must suitable only whenever instead".split()
)


def analysed_stems(text: str) -> list[str]:
    """Content stems of `text`; numbers shorter than 3 digits carry no meaning in a tool's text."""
    return [s for s, _ in analysed_words(text)]


def analysed_words(text: str) -> list[tuple[str, str]]:
    """(content stem, the word as written) of each content word of `text`."""
    out: list[tuple[str, str]] = []
    for w in words(text):
        if w in STOPWORDS or (w.isdigit() and len(w) < 3):
            continue
        out.append((match_stem(w), w))
    return out


@dataclass(slots=True)
class Param:
    """One parameter of a tool, as the argument filler needs it."""

    name: str
    type: str  # JSON type name, "" when not declared
    required: bool
    description: str = ""
    enum: tuple[Any, ...] = ()
    # Values a string parameter without an enum lists in prose (app/audit/listed_values.py): used to fill the
    # argument, never to match a request to the tool (the tool's words already hold them).
    listed: tuple[str, ...] = ()
    default: Any = None
    has_default: bool = False
    item_type: str = ""
    stems: frozenset[str] = frozenset()
    description_stems: tuple[str, ...] = ()


@dataclass(slots=True)
class ToolDoc:
    """A tool reduced to what scoring needs."""

    name: str
    terms: dict[str, float]  # stem -> weighted term frequency over all fields
    length: float
    name_terms: frozenset[str]
    name_tokens: tuple[str, ...]  # match stems of every word of the name, stopwords included, in order
    action: str | None  # kind of action of the name's first verb (profile `actions.verbs`), if any
    boundary_terms: frozenset[str]
    exclusion_terms: frozenset[str]  # words only found in "do not use for" sentences
    params: list[Param] = field(default_factory=list)
    core_terms: frozenset[str] = frozenset()  # stems of the name, title and core sentence: what it is for
    object_terms: frozenset[str] = frozenset()  # stems of the name that are not verbs: what it acts on
    takes_identifier: bool = False  # a number or string parameter is named like an id (profile words.identifier)
    value_kinds: frozenset[str] | None = None  # kinds of typed value its parameters take (filled on first use)
    pieces: tuple[str, ...] | None = None  # what the embedding reads of it (semantic.tool_pieces; on first use)


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _declared_type(spec: dict[str, Any]) -> str:
    kind = spec.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "")
    return kind if isinstance(kind, str) else ""


# Members of one enum the selector reads: real servers have at most a few dozen; a 100,000-member enum would
# cost seconds per request and tell a request-matcher nothing more.
MAX_ENUM_MEMBERS = 1000


def _params(schema: Any, tool_description: str = "") -> list[Param]:
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return []
    required = {r for r in _list(schema.get("required")) if isinstance(r, str)}
    out: list[Param] = []
    for pname, spec in schema["properties"].items():
        spec = spec if isinstance(spec, dict) else {}
        items = _dict(spec.get("items"))
        enum = _list(spec.get("enum"))
        desc = _str(spec.get("description"))
        out.append(
            Param(
                name=pname,
                type=_declared_type(spec),
                required=pname in required,
                description=desc,
                enum=tuple(enum[:MAX_ENUM_MEMBERS]),
                listed=tuple(prose_values(pname, spec, tool_description)[:MAX_ENUM_MEMBERS]),
                default=spec.get("default"),
                has_default="default" in spec,
                item_type=_declared_type(items) if items else "",
                stems=frozenset(analysed_stems(pname)),
                description_stems=tuple(analysed_stems(desc)),
            )
        )
    return out


def synonym_map(groups: tuple[tuple[str, ...], ...]) -> dict[str, tuple[str, ...]]:
    """Match stem of each word of the profile's synonym groups -> the other words' stems, in group order."""
    out: dict[str, list[str]] = {}
    for group in groups:
        stems = list(dict.fromkeys(match_stem(w) for w in group))
        for s in stems:
            bucket = out.setdefault(s, [])
            bucket.extend(o for o in stems if o != s and o not in bucket)
    return {s: tuple(others) for s, others in out.items()}


def action_kinds(profile: Profile) -> dict[str, str]:
    """Match stem of each verb of the profile's `actions.verbs` -> its kind of action."""
    return {match_stem(v): kind for kind, verbs in sorted(profile.actions.verbs.items()) for v in verbs}


def analyse_tool(tool: dict[str, Any], profile: Profile, *, kinds: dict[str, str] | None = None) -> ToolDoc:
    """Weighted stems of one MCP tool dict: name, description (boundary sentences apart), parameters."""
    weights = profile.fields
    terms: dict[str, float] = {}

    def add(stems: list[str], weight: float) -> None:
        for s in stems:
            terms[s] = terms.get(s, 0.0) + weight

    name = str(tool.get("name") or "")
    name_stems = analysed_stems(name)
    title = _str(tool.get("title"))
    add(name_stems, weights.name)
    add(analysed_stems(title), weights.name)
    description = without_asker(_str(tool.get("description")))
    boundary: set[str] = set()
    excluded: set[str] = set()
    said = [x for x in _SENTENCE.split(description) if x.strip()]
    # The sentence that says what the tool is: the first that uses a word of its name, else the first; found the
    # same wherever it stands, so reordered sentences keep the tool's core.
    first = next((x for x in said if set(analysed_stems(x)) & set(name_stems)), said[0] if said else "")
    core = {*name_stems, *analysed_stems(title), *analysed_stems(first)}
    for sentence in _SENTENCE.split(description):
        if not sentence.strip():
            continue
        stems = analysed_stems(sentence)
        if _EXCLUSION.search(sentence):
            # Words after the negation are what the tool is not for; words before it still describe it.
            cut = _EXCLUSION.search(sentence)
            assert cut is not None
            before = analysed_stems(sentence[: cut.start()])
            add([s for s in before if s not in _BOUNDARY_WORDS], weights.description)
            excluded.update(s for s in analysed_stems(sentence[cut.start() :]) if s not in _BOUNDARY_WORDS)
        elif _BOUNDARY.search(sentence):
            kept = [s for s in stems if s not in _BOUNDARY_WORDS]
            add(kept, weights.boundary)
            boundary.update(kept)
        else:
            add(stems, weights.description)
    name_tokens = tuple(match_stem(w) for w in words(name))
    kinds = kinds or action_kinds(profile)
    action = next((k for k in map(kinds.get, name_tokens) if k), None)
    params = _params(tool.get("inputSchema"), _str(tool.get("description")))
    for p in params:
        add(list(p.stems), weights.parameters)
        add(list(p.description_stems), weights.parameters)
        add([s for v in p.enum if isinstance(v, str) for s in analysed_stems(v)], weights.parameters)
    length = sum(terms.values())
    return ToolDoc(
        name=name,
        terms=terms,
        length=length,
        name_terms=frozenset(name_stems),
        name_tokens=name_tokens,
        action=action,
        boundary_terms=frozenset(boundary),
        exclusion_terms=frozenset(s for s in excluded if s not in terms),
        params=params,
        core_terms=frozenset(core),
        object_terms=frozenset(s for s in name_stems if s not in kinds and len(s) > 1),
        takes_identifier=any(
            p.type in ("integer", "number", "string") and p.stems & set(profile.words.identifier) for p in params
        ),
    )
