"""Example argument values for generated requests: what a person would type for each parameter.

A value comes from the parameter's own schema when it has one a person could type (an `examples`
member, an enum member, a value quoted in its description after "e.g."), else from its `format`, else from
what its name says it is (a repository, a path, a channel, an issue number...). Each value carries a role
saying how a sentence mentions it: the thing acted on (`ref`), where (`scope`), what is written
(`content`), what is looked for (`query`), or a setting (`other`). Parameters a person would not mention
(pagination, booleans, objects) get no value. Reading the schema and example_values.yml lives in value_sources.py.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from app.audit.models import Tool
from app.audit.suite.lexicon import WORDS
from app.audit.suite.value_sources import (
    by_name,
    command_text,
    example_data,
    moved_path,
    named_thing,
    names_for,
    queries_for,
    role_and_noun,
    schema_texts,
)
from app.audit.text import split_identifier


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


def _path_value(param: str, spec: dict[str, Any], tool: Tool, named: Value, variant: int) -> Value:
    """A file path as the tool takes it: a directory for tools that list, walk or search directories; a path
    inside the repository for tools that work in one; else an absolute file path."""
    paths = example_data().get("paths", {})
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


_BY_FORMAT = {
    "date": "2026-03-14",
    "date-time": "2026-03-14 09:30",
    "email": "dana@example.com",
    "uri": "https://example.com/pricing",
    "url": "https://example.com/pricing",
    "uuid": "3f2b8c1e-7d4a-4e0b-9c55-1a2b3c4d5e6f",
}
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
    role, noun = role_and_noun(tokens)
    if examples := schema_texts(spec):
        source, text = examples[variant % len(examples)]
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
    if (command := command_text(tokens, spec)) is not None:
        return Value(param, command, "statement", "name", "command")
    if kind in ("boolean", "object", "array", "null") or (isinstance(kind, list) and "string" not in kind):
        return None
    if kind in ("integer", "number"):
        if set(tokens) & (WORDS.numbered | {"id"}):
            return Value(param, "1042" if "id" in tokens else "142", "ref", "name", noun)
        return None
    if ({"date"} | WORDS.time_prepositions) & set(tokens):
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
    if (moved := moved_path(tokens, spec, tool)) is not None:
        return Value(param, moved, "scope", "name", "")
    if len(tokens) > 1 and tokens[-1] in WORDS.kind_words:
        return None
    if (named := named_value(param, variant=variant)) is not None:
        if named.noun == "branch" and tokens[-1] in WORDS.id_words and not _about_git(tool, said):
            return None  # a git branch has a name; a "branchId" of a tool not about git is a line of thought
        if named.role == "content" and _commit_message(tokens, spec, tool):
            return named_value("commit_message", variant=variant)
        if named.role == "query" and (texts := queries_for(tool)):
            return Value(param, texts[variant % len(texts)], "query", "name", named.noun)
        if named.noun == "file":
            return _path_value(param, spec, tool, named, variant)
        if named.role == "ref" and not named.noun:
            texts = names_for(param, spec, tool) or (named.text,)
            return Value(param, texts[variant % len(texts)], "ref", "name", "", named_thing(param, spec))
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
    for need, options, name_role, name_noun in by_name():
        if need <= set(tokens) and not (name_role in ("content", "query") and tokens[-1] in WORDS.id_words):
            return Value(param, options[variant % len(options)], name_role, "name", name_noun)
    return None


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
