"""Where example values come from before they become `Value`s: the parameter's own schema (an `examples`
member, an enum member, a value quoted in its description after "e.g."), and example_values.yml by the words of
its name (role and noun, names, search texts, commands, moved paths)."""

from __future__ import annotations

import itertools
import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from app.audit.models import Tool
from app.audit.suite.lexicon import WORDS
from app.audit.suite.word_forms import lemmas
from app.audit.text import split_identifier

# A value quoted in a parameter's description: "(e.g. 'acme/website')", "for example: main".
_QUOTED_EXAMPLE = re.compile(
    r"(?:e\.g\.?,?|for example,?|such as|example:)\s*[:(]?\s*[`'\"]([^`'\"\n]{1,40})[`'\"]", re.IGNORECASE
)
_NUMBER_EXAMPLE = re.compile(r"(?:e\.g\.?,?|for example,?|such as)\s*[:(]?\s*(-?\d+(?:\.\d+)?)\b", re.IGNORECASE)

EXAMPLES_FILE = Path(__file__).with_name("example_values.yml")
_ROLES = frozenset({"ref", "scope", "content", "query", "other"})


@cache
def example_data() -> dict[str, Any]:
    """example_values.yml, read once."""
    return yaml.safe_load(EXAMPLES_FILE.read_text(encoding="utf-8"))


@cache
def by_name() -> tuple[tuple[frozenset[str], tuple[str, ...], str, str], ...]:
    """example_values.yml: (name words that must all appear, values, role, noun), in file order."""
    data = example_data()
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
    data = example_data()
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


def named_thing(param: str, spec: dict[str, Any]) -> str:
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


def names_for(param: str, spec: dict[str, Any], tool: Tool) -> tuple[str, ...]:
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


def command_text(tokens: list[str], spec: dict[str, Any]) -> str | None:
    """What a tool that runs a command or a script is asked to run (a command given as a list of words too)."""
    kind = spec.get("type")
    items = spec.get("items")
    items = items if isinstance(items, dict) else {}
    if kind not in ("string", "array") or (kind == "array" and items.get("type") != "string"):
        return None
    commands = example_data().get("commands", {})
    return next((str(text) for word, text in commands.items() if word in tokens), None)


def moved_path(tokens: list[str], spec: dict[str, Any], tool: Tool) -> str | None:
    """The from or to path of a tool that moves or copies files ("source", "destination"), else None."""
    if tokens not in (["source"], ["destination"]) or not {"file", "files", "directory"} & {
        w.lower() for w in split_identifier(tool.name)
    }:
        return None
    moved = example_data().get("paths", {}).get("moved", [])
    return moved[0] if tokens == ["source"] else moved[-1]


def queries_for(tool: Tool) -> tuple[str, ...]:
    """Search texts that fit what the tool searches (places, events, code...), or () to use the default ones."""
    named = {w.lower() for w in split_identifier(tool.name)}
    return next((texts for when, texts in _by_words("queries") if when & named), ())


def schema_texts(spec: dict[str, Any]) -> list[tuple[str, str]]:
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


def role_and_noun(tokens: list[str]) -> tuple[str, str]:
    for need, _values, role, noun in by_name():
        if need <= set(tokens) and not (role in ("content", "query") and tokens[-1] in WORDS.id_words):
            return role, noun
    unsaid = WORDS.reference_endings | {"ref"}
    words = [WORDS.spoken_nouns.get(t, t) for t in tokens if t not in unsaid]
    return ("ref" if tokens[-1] in WORDS.reference_endings else "other"), " ".join(words)
