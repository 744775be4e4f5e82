"""Bad input at scale: mutations of real tool-definition files, and the pipeline they go through.

`mutate(kind, seed_text, rng)` turns a real file (a slice of a server from ../shared/corpora/servers) into a bad one
of the given kind: truncated, a field of the wrong type at any depth, a 10 MB string, 10,000-deep nesting, a YAML
alias bomb or python tag, `$ref` cycles, a 100,000-member enum, NaN and huge numbers, control and confusable
characters, invalid Unicode (lone surrogates, non-characters, NUL) in any key or string. `run_pipeline(name, text)`
sends it through loader -> rules -> suite -> synthetic selection -> every renderer and says how it ended: "ok", or
"refused" with the error (which must name the file and line). Anything else raised is a bug. The property test
(tests/audit/test_bad_input.py) and bench/bench_fuzz.py share both.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from app.audit.engine import audit
from app.audit.loader import load_definitions
from app.audit.rules.ruleset import RuleSet, load_rules
from app.audit.selection import Selector
from app.audit.suite.build import build_suite
from app.errors import InputError
from app.render.json_export import export_json
from app.render.markdown import render_report
from app.render.sarif import render_sarif
from app.render.text import render_text
from app.selector_factory import make_selector

HUGE_STRING_CHARS = 10 * 1024 * 1024  # refused at load (documents.MAX_STRING_CHARS)
DEEP_NESTING = 10_000
BIG_ENUM = 100_000
CONTROL = [chr(c) for c in (*range(0, 32), 0x7F, 0x85)]
# Right-to-left override, zero-width and byte-order marks, and Cyrillic/Greek letters that look Latin.
# Lone surrogates, non-characters and NUL: refused at load (app/audit/characters.py) in any key or string.
INVALID = ["\ud800", "\udbff", "\udc00", "\udfff", "\ufffe", "\uffff", "\ufdd0", "\U0010ffff", "\x00"]
CONFUSABLE = ["\u202e", "\u200b", "\u200d", "\ufeff", "\u0430", "\u0435", "\u043e", "\u0440", "\u0441", "\u03bf"]
ODD_VALUES: list[Any] = [None, True, 0, -1, 2**63, 10**400, 1.5, float("nan"), float("inf"), "", "x", [], {}, [[]]]


def seed_texts(servers: Path, *, max_tools: int = 4) -> list[tuple[str, str]]:
    """(name, text) per corpus server: its first `max_tools` tools as a `tools/list` result, JSON and YAML."""
    out = []
    for path in sorted(servers.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        tools = data["tools"] if isinstance(data, dict) else data
        out.append((f"{path.stem}.json", json.dumps({"tools": tools[:max_tools]}, indent=2)))
    return out


# -- mutations -------------------------------------------------------------------------------------------------


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_paths(value, (*prefix, i)))
    return out


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return doc


def _string_paths(doc: Any) -> list[tuple[Any, ...]]:
    paths = []
    for path in _paths(doc):
        node = doc
        for key in path:
            node = node[key]
        if isinstance(node, str):
            paths.append(path)
    return paths or [()]


def _dump(doc: Any, rng: random.Random) -> str:
    return json.dumps(doc, indent=rng.choice([None, 2]), ensure_ascii=rng.random() < 0.5)


def truncate(text: str, doc: Any, rng: random.Random) -> str:
    return text[: rng.randrange(0, max(1, len(text)))]


def type_confusion(text: str, doc: Any, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(doc))
        doc = _set(doc, path, rng.choice(ODD_VALUES))
    return _dump(doc, rng)


def huge_string(text: str, doc: Any, rng: random.Random) -> str:
    path = rng.choice(_string_paths(doc))
    return _dump(_set(doc, path, rng.choice("ab .\n") * HUGE_STRING_CHARS), rng)


def deep_nesting(text: str, doc: Any, rng: random.Random) -> str:
    path = rng.choice(_paths(doc))
    if rng.random() < 0.5:
        deep = "[" * DEEP_NESTING + "]" * DEEP_NESTING
    else:
        deep = '{"a":' * DEEP_NESTING + "1" + "}" * DEEP_NESTING
    marker = "__DEEP__"
    return _dump(_set(doc, path, marker), rng).replace(json.dumps(marker), deep, 1)


def yaml_bomb(text: str, doc: Any, rng: random.Random) -> str:
    levels = rng.randint(8, 12)
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    where = rng.choice(["description", "inputSchema", "enum", "name"])
    value = f"*a{levels - 1}"
    if where == "enum":
        body = f"    inputSchema: {{type: object, properties: {{x: {{type: string, enum: {value}}}}}}}"
    else:
        body = f"    {where}: {value}"
    return "\n".join([*lines, "tools:", "  - name: bomb", body, ""])


def python_tag(text: str, doc: Any, rng: random.Random) -> str:
    tag = rng.choice(
        [
            '!!python/object/apply:os.system ["touch /tmp/toolchoice-pwned"]',
            "!!python/name:os.system",
            "!!python/object/new:builtins.eval ['1']",
            "!!binary aGVsbG8=",
            "!custom {a: 1}",
        ]
    )
    return f"tools:\n  - name: tagged\n    description: {tag}\n"


def ref_cycle(text: str, doc: Any, rng: random.Random) -> str:
    cycle = rng.choice(
        [
            {"$ref": "#"},
            {"$ref": "#/inputSchema"},
            {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
            {"type": "object", "properties": {"self": {"$ref": "#/properties/self"}}},
            {"$ref": "http://169.254.169.254/latest/meta-data/"},
        ]
    )
    tools = doc.get("tools") if isinstance(doc, dict) else None
    if isinstance(tools, list) and tools and isinstance(tools[0], dict):
        tools[0]["inputSchema"] = cycle
        return _dump(doc, rng)
    return json.dumps({"tools": [{"name": "cyclic", "inputSchema": cycle}]})


def big_enum(text: str, doc: Any, rng: random.Random) -> str:
    members = [f"value_{i}" for i in range(BIG_ENUM)] if rng.random() < 0.7 else list(range(BIG_ENUM))
    schema = {"type": "object", "properties": {"choice": {"type": "string", "enum": members}}}
    tools = doc.get("tools") if isinstance(doc, dict) else None
    if isinstance(tools, list) and tools and isinstance(tools[0], dict):
        tools[0]["inputSchema"] = schema
        return _dump(doc, rng)
    return json.dumps({"tools": [{"name": "enumerated", "description": "Pick one.", "inputSchema": schema}]})


def odd_numbers(text: str, doc: Any, rng: random.Random) -> str:
    literal = rng.choice(["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "9" * 5000, "1" + "0" * 400, "-0"])
    path = rng.choice(_paths(doc))
    marker = "__NUMBER__"
    return _dump(_set(doc, path, marker), rng).replace(json.dumps(marker), literal, 1)


def _string_at(doc: Any, rng: random.Random) -> tuple[tuple[Any, ...], str, int]:
    """A random string of `doc`: its path, its value and a random place in it."""
    path = rng.choice(_string_paths(doc))
    node = doc
    for key in path:
        node = node[key]
    value = node if isinstance(node, str) else ""
    return path, value, rng.randint(0, len(value))


def odd_characters(text: str, doc: Any, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        path, value, at = _string_at(doc, rng)
        odd = "".join(rng.choice(CONTROL + CONFUSABLE) for _ in range(rng.randint(1, 6)))
        doc = _set(doc, path, value[:at] + odd + value[at:])
    return _dump(doc, rng)


def invalid_unicode(text: str, doc: Any, rng: random.Random) -> str:
    """Invalid code points in a string value or in a key, anywhere in the document."""
    keyed = [p for p in _paths(doc) if p and isinstance(p[-1], str)]
    for _ in range(rng.randint(1, 3)):
        odd = "".join(rng.choice(INVALID) for _ in range(rng.randint(1, 3)))
        if keyed and rng.random() < 0.4:
            path = rng.choice(keyed)
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            if path[-1] in parent:
                at = rng.randint(0, len(path[-1]))
                parent[path[-1][:at] + odd + path[-1][at:]] = parent.pop(path[-1])
                keyed = [p for p in _paths(doc) if p and isinstance(p[-1], str)]
            continue
        path, value, at = _string_at(doc, rng)
        doc = _set(doc, path, value[:at] + odd + value[at:])
    return _dump(doc, rng)


def byte_noise(text: str, doc: Any, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 8)):
        if chars:
            chars[rng.randrange(len(chars))] = rng.choice('{}[]":,\\\x00\n\t' + "".join(CONFUSABLE))
    return "".join(chars)


def as_yaml(text: str, doc: Any, rng: random.Random) -> str:
    """The same document as YAML, then cut or noised: YAML's own error paths."""
    import yaml

    out = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
    return truncate(out, doc, rng) if rng.random() < 0.5 else byte_noise(out, doc, rng)


MUTATIONS: dict[str, Callable[[str, Any, random.Random], str]] = {
    "truncation": truncate,
    "type confusion": type_confusion,
    "10 MB string": huge_string,
    "10k-deep nesting": deep_nesting,
    "YAML alias bomb": yaml_bomb,
    "YAML python tag": python_tag,
    "$ref cycle": ref_cycle,
    "100k-member enum": big_enum,
    "NaN and huge numbers": odd_numbers,
    "control and confusable characters": odd_characters,
    "invalid Unicode": invalid_unicode,
    "byte noise": byte_noise,
    "YAML cut or noised": as_yaml,
}
YAML_KINDS = frozenset({"YAML alias bomb", "YAML python tag", "YAML cut or noised"})


def mutate(kind: str, text: str, rng: random.Random) -> tuple[str, str]:
    """(file name suffix, mutated text) of one kind from one seed file's text."""
    out = MUTATIONS[kind](text, json.loads(text), rng)
    return (".yaml" if kind in YAML_KINDS else ".json"), out


# -- the pipeline ----------------------------------------------------------------------------------------------


@dataclass
class Ended:
    outcome: str  # "ok" or "refused"
    message: str = ""
    tools: int = 0


@cache
def _engine() -> tuple[Selector, RuleSet]:
    return make_selector("synthetic"), load_rules()


def run_pipeline(name: str, text: str) -> Ended:
    """Loader -> rules -> suite -> selection -> every renderer. InputError is a refusal; anything else raises."""
    selector, rules = _engine()
    try:
        toolset = load_definitions(name, text=text)
    except InputError as exc:
        return Ended("refused", str(exc))
    suite = build_suite([toolset], intents_per_tool=1)
    report = audit(toolset, suite=suite, selector=selector, rules=rules)
    outputs = (render_report(report), render_text(report), export_json(report), render_sarif(report, rules=rules))
    assert all(isinstance(out, str) and out for out in outputs)
    json.loads(export_json(report), parse_constant=_not_json)  # the export is strict JSON, whatever the input held
    return Ended("ok", tools=len(toolset.tools))


def _not_json(constant: str) -> None:
    raise AssertionError(f"the JSON export holds {constant}, which is not JSON")


def names_file_and_line(name: str, message: str) -> bool:
    """An error message that starts `name:LINE: `."""
    head, _, rest = message.partition(": ")
    file, _, line = head.rpartition(":")
    return file == name and line.isdigit() and bool(rest)
