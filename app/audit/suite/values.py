"""Example argument values for generated requests: what a person would type for each parameter.

A value comes from the parameter's own schema when it has one a person could type (an `examples`
member, an enum member, a value quoted in its description after "e.g."), else from its `format`, else from
what its name says it is (a repository, a path, a channel, an issue number...). Each value carries a role
saying how a sentence mentions it: the thing acted on (`ref`), where (`scope`), what is written
(`content`), what is looked for (`query`), or a setting (`other`). Parameters a person would not mention
(pagination, booleans, objects) get no value.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from app.audit.models import Tool
from app.audit.suite.lexicon import WORDS
from app.audit.suite.reading import lemmas
from app.audit.text import split_identifier

# A value quoted in a parameter's description: "(e.g. 'acme/website')", "for example: main".
_QUOTED_EXAMPLE = re.compile(
    r"(?:e\.g\.?,?|for example,?|such as|example:)\s*[:(]?\s*[`'\"]([^`'\"\n]{1,40})[`'\"]", re.IGNORECASE
)
_NUMBER_EXAMPLE = re.compile(r"(?:e\.g\.?,?|for example,?|such as)\s*[:(]?\s*(-?\d+(?:\.\d+)?)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Value:
    """One example argument: the parameter, the text a person would type, and how a sentence uses it."""

    param: str
    text: str
    role: str  # ref | scope | content | query | statement (SQL) | other
    source: str  # examples | enum | description | format | name
    noun: str  # the thing the parameter names, in words ("channel", "branch"); "" for a bare id
    named: str = ""  # for a name parameter, what it is the name of ("node"), from its description or its words
    side: str = ""  # "from" or "to" when the description says so ("Source branch/commit for new branch")

    @property
    def trusted(self) -> bool:
        """Taken from the schema itself, so the tool is known to accept it."""
        return self.source in ("examples", "enum", "description")


EXAMPLES_FILE = Path(__file__).with_name("example_values.yml")


@cache
def _examples() -> dict[str, Any]:
    """example_values.yml, read once."""
    return yaml.safe_load(EXAMPLES_FILE.read_text(encoding="utf-8"))


@cache
def _by_name() -> tuple[tuple[frozenset[str], tuple[str, ...], str, str], ...]:
    """example_values.yml: (name words that must all appear, values, role, noun), in file order."""
    data = _examples()
    rows = []
    for n, entry in enumerate(data["values"], start=1):
        if entry.get("role") not in _ROLES or not entry.get("values"):
            raise ValueError(f"{EXAMPLES_FILE}: entry {n} needs values and a role among {sorted(_ROLES)}")
        rows.append(
            (
                frozenset(str(entry["when"]).split()),
                tuple(map(str, entry["values"])),
                entry["role"],
                str(entry.get("noun", "")),
            )
        )
    return tuple(rows)


@cache
def _by_words(section: str) -> tuple[tuple[frozenset[str], tuple[str, ...]], ...]:
    """An example_values.yml section of `when` words and `values` (`queries`, `names`), in file order."""
    data = _examples()
    return tuple((frozenset(map(str, e["when"])), tuple(map(str, e["values"]))) for e in data.get(section, []))


# Words of a name parameter's description that say what it names, to pick fitting names: "Name of the Pipeline
# to start", "The name of the source virtual machine", "Kubernetes Pod name".
_NAME_OF = re.compile(
    r"\b[Nn]ame of (?:the |a |an )?(?:source |target |new )?([A-Za-z]+(?: [a-z]+)?)|\b([A-Za-z]+) name\b"
)
# The thing itself, to say it in a request ("of the node worker-2"): only "name of the X", where X is a noun phrase.
_NAME_OF_THING = re.compile(
    r"\bname of (?:the |a |an )?(?:source |target |new )?([A-Za-z]+(?: [A-Za-z]+){0,2})", re.IGNORECASE
)


def _named_thing(param: str, spec: dict[str, Any]) -> str:
    """What a name parameter names, in words: 'Name of the node to get logs from' -> 'node', 'board_name' ->
    'board'; '' when neither says."""
    said = _NAME_OF_THING.search(str(spec.get("description") or ""))
    if said is not None:
        words = said.group(1).split()
        kept = list(itertools.takewhile(lambda w: w.lower() not in WORDS.not_named, words))
        if kept:
            return " ".join(kept)
    # 'board_name' -> 'board'; 'accessibleName' says no thing ('accessible' is no noun).
    rest = [w for w in split_identifier(param) if w not in ("name", "new")]
    return " ".join(rest) if rest and "NOUN" in lemmas(rest[-1]) else ""


def _names_for(param: str, spec: dict[str, Any], tool: Tool) -> tuple[str, ...]:
    """Names that fit what a name parameter names (a node, a screenshot...), or () to use the default ones."""
    said = _NAME_OF.search(str(spec.get("description") or ""))
    groups = [
        [w for w in split_identifier(param) if w != "name"],
        split_identifier(" ".join(g for g in said.groups() if g)) if said else [],
        split_identifier(tool.name),
    ]
    for group in groups:
        named = {w.lower() for w in group}
        if texts := next((texts for when, texts in _by_words("names") if when & named), ()):
            return texts
    return ()


def _command(tokens: list[str], spec: dict[str, Any]) -> str | None:
    """What a tool that runs a command or a script is asked to run (a command given as a list of words too)."""
    kind = spec.get("type")
    items = spec.get("items") if isinstance(spec.get("items"), dict) else {}
    if kind not in ("string", "array") or (kind == "array" and items.get("type") != "string"):
        return None
    commands = _examples().get("commands", {})
    return next((str(text) for word, text in commands.items() if word in tokens), None)


def _moved_path(tokens: list[str], spec: dict[str, Any], tool: Tool) -> str | None:
    """The from or to path of a tool that moves or copies files ("source", "destination"), else None."""
    if tokens not in (["source"], ["destination"]) or not {"file", "files", "directory"} & {
        w.lower() for w in split_identifier(tool.name)
    }:
        return None
    moved = _examples().get("paths", {}).get("moved", [])
    return moved[0] if tokens == ["source"] else moved[-1]




def _path_value(param: str, spec: dict[str, Any], tool: Tool, named: Value, variant: int) -> Value:
    """A file path as the tool takes it: a directory for tools that list, walk or search directories; a path
    inside the repository for tools that work in one; else an absolute file path."""
    paths = _examples().get("paths", {})
    name = {w.lower() for w in split_identifier(tool.name)}
    if name & set(paths.get("directory_tools", ())) or {"search", "files"} <= name:
        texts = paths["directory"]
        # The directory a tool makes is what it acts on; the one it lists or searches is where it looks.
        role = "ref" if {"create", "make", "mkdir"} & name else "scope"
        return Value(param, texts[variant % len(texts)], role, "name", "directory")
    if name & set(paths.get("media_tools", ())):
        texts = paths["media"]
        return Value(param, texts[variant % len(texts)], named.role, "name", named.noun)
    said = f"{spec.get('description') or ''}".lower()
    relative = "relative" in said and "absolute" not in said
    if {p.lower() for p in tool.properties} & WORDS.repository_params or relative:
        texts = paths["in_repository"]
        return Value(param, texts[variant % len(texts)], named.role, "name", named.noun)
    return named


def _queries_for(tool: Tool) -> tuple[str, ...]:
    """Search texts that fit what the tool searches (places, events, code...), or () to use the default ones."""
    named = {w.lower() for w in split_identifier(tool.name)}
    return next((texts for when, texts in _by_words("queries") if when & named), ())


_BY_FORMAT = {
    "date": "2026-03-14",
    "date-time": "2026-03-14 09:30",
    "email": "dana@example.com",
    "uri": "https://example.com/pricing",
    "url": "https://example.com/pricing",
    "uuid": "3f2b8c1e-7d4a-4e0b-9c55-1a2b3c4d5e6f",
}
_ROLES = frozenset({"ref", "scope", "content", "query", "other"})
_SQL = re.compile(r"\bSQL\b|\bSELECT\b|\bINSERT\b")
_SQL_READS = ("SELECT id, total FROM orders WHERE total > 100", "SELECT count(*) FROM customers")
# A write tool's description names INSERT first ("INSERT, UPDATE, or DELETE"), and so does its request.
_SQL_WRITES = ("INSERT INTO orders (id, total) VALUES (42, 99.50)", "INSERT INTO customers (name) VALUES ('Dana')")
_SQL_CREATES = (
    "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)",
    "CREATE TABLE refunds (id INTEGER, amount REAL)",
)


@dataclass(frozen=True)
class ToolText:
    """A tool as its requests see it: equal and hashed by the text they are written from (its name, description
    and input schema, nothing else of it), carrying the tool itself. What is computed from that text alone is
    kept by it: a tool asks again for its values and requests with each larger budget and each contrastive rival."""

    text: tuple[str, str | None, str]
    tool: Tool = field(compare=False, hash=False)


def tool_text(tool: Tool) -> ToolText:
    """The tool keyed by its name, description and input schema (the schema's repr keeps its order and types)."""
    return ToolText((tool.name, tool.description, repr(tool.input_schema)), tool)


# Tools whose values (per variant) are kept.
TOOL_VALUES_CACHE = 16_384


def param_values(tool: Tool, *, variant: int = 0) -> Mapping[str, Value | None]:
    """`param_value` of each parameter with a schema of its own (a dict), by name; read-only."""
    return _param_values(tool_text(tool), variant)


@lru_cache(maxsize=TOOL_VALUES_CACHE)
def _param_values(text: ToolText, variant: int) -> Mapping[str, Value | None]:
    """`param_values` of the tool `text` carries, kept by its text."""
    tool = text.tool
    return MappingProxyType(
        {
            param: param_value(param, spec, tool=tool, required=param in tool.required, variant=variant)
            for param, spec in tool.properties.items()
            if isinstance(spec, dict)
        }
    )


def tool_values(tool: Tool, *, limit: int = 3, variant: int = 0) -> list[Value]:
    """Example values for the parameters a request would mention: required first, then the rest.

    `variant` picks other values where there are several (the second enum member, another repository).
    """
    props = tool.properties
    order = [p for p in tool.required if p in props] + [p for p in props if p not in tool.required]
    given = param_values(tool, variant=variant)
    out: list[Value] = []
    taken: set[str] = set()
    for param in order:
        if param not in given:
            continue  # no schema of its own
        value = given[param]
        if value is None or value.text in taken:
            continue
        taken.add(value.text)
        out.append(value)
    return _join_owner_repo(out)[:limit]


def param_value(param: str, spec: dict[str, Any], *, tool: Tool, required: bool, variant: int = 0) -> Value | None:
    value = _param_value(param, spec, tool=tool, required=required, variant=variant)
    if value is not None and value.noun == "time zone" and not required:
        # An optional time zone shapes the answer: a setting, which a person names only when it is the point.
        return dataclasses.replace(value, role="other")
    first = str(spec.get("description") or "").split()[:1]
    if value is not None and first and first[0].lower() in WORDS.sides:
        return dataclasses.replace(value, side=WORDS.sides[first[0].lower()])
    return value


def _param_value(param: str, spec: dict[str, Any], *, tool: Tool, required: bool, variant: int) -> Value | None:
    tokens = split_identifier(param)
    if not tokens or (set(tokens) <= WORDS.unspoken and not required):
        return None
    kind = spec.get("type")
    role, noun = _role(tokens)
    if texts := _schema_texts(spec):
        source, text = texts[variant % len(texts)]
        if role == "content" and source == "enum":
            # A member of a list ("+1", "error") is a choice, not text a person writes: a setting, said by the
            # parameter's own words ("with message type error"), never 'saying "error"'.
            role, noun = "other", " ".join(WORDS.spoken_nouns.get(t, t) for t in tokens)
        if noun == "file" and text.endswith("/"):
            noun = "directory"  # 'src/' of a path filter is a folder
        return Value(param, text, role, source, noun)
    fmt = spec.get("format")
    if isinstance(fmt, str) and fmt in _BY_FORMAT:
        return Value(param, _BY_FORMAT[fmt], role, "format", noun)
    if (command := _command(tokens, spec)) is not None:
        return Value(param, command, "statement", "name", "command")
    if kind in ("boolean", "object", "array", "null") or (isinstance(kind, list) and "string" not in kind):
        return None
    if kind in ("integer", "number"):
        if set(tokens) & (WORDS.numbered | {"id"}):
            return Value(param, "1042" if "id" in tokens else "142", "ref", "name", noun)
        return None
    if {"date", "since", "until", "after", "before"} & set(tokens):
        end = "until" in tokens or "before" in tokens
        return Value(param, "2026-03-01" if end else "2026-02-01", "other", "format", "date")
    said = f"{tool.description or ''} {spec.get('description') or ''}"
    if set(tokens) & {"query", "sql", "statement"} and _SQL.search(said):
        # A SQL tool's query is a statement, not search words ("login timeout" would not run).
        writes = re.search(r"\b(?:INSERT|UPDATE|DELETE)\b", tool.description or "")
        options = _SQL_WRITES if writes and "SELECT" not in (tool.description or "") else _SQL_READS
        options = _SQL_CREATES if re.search(r"\bCREATE TABLE\b", said) else options
        return Value(param, options[variant % len(options)], "statement", "name", "statement")
    if "filter" in tokens and not required:
        return None  # "name_filter": narrowing a listing, not a thing a person names when asking
    if tokens == ["time"]:
        return Value(param, "14:30" if variant % 2 == 0 else "09:00", "other", "name", "time")
    if (moved := _moved_path(tokens, spec, tool)) is not None:
        return Value(param, moved, "scope", "name", "")
    if len(tokens) > 1 and tokens[-1] in WORDS.kind_words:
        return None
    if (named := named_value(param, variant=variant)) is not None:
        if named.noun == "branch" and tokens[-1] in WORDS.id_words and not _about_git(tool, said):
            return None  # a git branch has a name; a "branchId" of a tool not about git is a line of thought
        if named.role == "content" and _commit_message(tokens, spec, tool):
            return named_value("commit_message", variant=variant)
        if named.role == "query" and (texts := _queries_for(tool)):
            return Value(param, texts[variant % len(texts)], "query", "name", named.noun)
        if named.noun == "file":
            return _path_value(param, spec, tool, named, variant)
        if named.role == "ref" and not named.noun:
            texts = _names_for(param, spec, tool) or (named.text,)
            return Value(param, texts[variant % len(texts)], "ref", "name", "", _named_thing(param, spec))
        return named
    if tokens[-1] == "ref":
        # A git ref is a branch a person names; elsewhere a ref is a machine reference ("startRef: e12").
        gitty = {"branch", "commit", "git", "tag"} & set(split_identifier(tool.description or ""))
        return Value(param, "main", "ref", "name", "branch") if tokens == ["ref"] and gitty else None
    if tokens[-1] in ("id", "key", "slug"):
        # "page_id" is a page's id ("P-1042"), whatever the tool adds to it; a bare "id" is of the tool's thing.
        head = tokens[-2] if len(tokens) > 1 and tokens[-2].isalpha() else _object_word(tool) or "item"
        return Value(param, f"{head[:1].upper()}-1042", "ref", "name", noun)
    return None


def _about_git(tool: Tool, said: str) -> bool:
    """Whether a tool's text, name or parameter names say it works on git (a repository, a commit, a merge)."""
    return bool(WORDS.git_words & set(split_identifier(f"{said} {tool.name} {' '.join(tool.properties)}")))


def _commit_message(tokens: list[str], spec: dict[str, Any], tool: Tool) -> bool:
    """Whether a text parameter is a commit's message: `commit_message`, a `message` described as "Commit
    message", or the message of a tool that commits (git_commit)."""
    if "commit" in tokens:
        return True
    said = str(spec.get("description") or "")
    return bool(re.search(r"\bcommit message\b", said, re.IGNORECASE)) or (
        tokens == ["message"] and "commit" in (w.lower() for w in split_identifier(tool.name))
    )


def named_value(param: str, *, variant: int = 0) -> Value | None:
    """A value from what the parameter's name says it is, whatever its type ('latitude' -> 38.72)."""
    tokens = split_identifier(param)
    for need, options, name_role, name_noun in _by_name():
        if need <= set(tokens) and not (name_role in ("content", "query") and tokens[-1] in WORDS.id_words):
            return Value(param, options[variant % len(options)], name_role, "name", name_noun)
    return None


def _schema_texts(spec: dict[str, Any]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    examples = spec.get("examples")
    if isinstance(examples, list):
        found += [("examples", str(e)) for e in examples if isinstance(e, str | int) and not isinstance(e, bool)]
    enum = spec.get("enum")
    if isinstance(enum, list):
        found += [("enum", e) for e in enum if isinstance(e, str) and e.strip() and e.lower() not in WORDS.bland]
    description = spec.get("description")
    if isinstance(description, str):
        found += [("description", m.group(1).strip()) for m in _QUOTED_EXAMPLE.finditer(description)]
        if spec.get("type") in ("integer", "number"):
            # "numeric value, e.g., 1, 2, 3": a number needs no quotes.
            found += [("description", m.group(1)) for m in _NUMBER_EXAMPLE.finditer(description)]
    return [(s, t) for s, t in found if 0 < len(t) <= 40 and "\n" not in t]


def _role(tokens: list[str]) -> tuple[str, str]:
    for need, _values, role, noun in _by_name():
        if need <= set(tokens) and not (role in ("content", "query") and tokens[-1] in WORDS.id_words):
            return role, noun
    words = [WORDS.spoken_nouns.get(t, t) for t in tokens if t not in ("id", "key", "ref", "name", "number", "num")]
    return ("ref" if tokens[-1] in ("id", "key", "name", "number", "num") else "other"), " ".join(words)


def _object_word(tool: Tool) -> str:
    words = [w for w in split_identifier(tool.name) if w.isalpha()]
    return words[-1] if len(words) > 1 else ""


def _join_owner_repo(values: list[Value]) -> list[Value]:
    """`owner` + `repo` are one thing to a person: acme/webshop."""
    owner = next((v for v in values if v.noun == "owner"), None)
    repo = next((v for v in values if v.noun == "repository" and v.text.count("/") == 1), None)
    if owner is None or repo is None:
        return values
    return [v for v in values if v is not owner]
