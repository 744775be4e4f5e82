"""Parsing a JSON or YAML document we were given into data and line ranges, refusing what would be costly.

Definition and cases files come from pull requests, so a hostile file must fail fast with its file and line,
never exhaust the process: nesting deeper than MAX_DEPTH (every later walk is recursive), YAML aliases
that expand past MAX_YAML_VALUES (an alias bomb is small on disk and exponential once walked), numbers JSON
cannot carry (NaN, Infinity, overflowing floats, integers too long for Python to convert). Python tags and
other unsafe YAML are refused by the safe loader.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import yaml

from app.audit.characters import check_document
from app.audit.models import LineRange
from app.audit.positions import Path, is_json_text, json_ranges, yaml_node_ranges
from app.errors import InputError

# Real servers' schemas nest under 15 levels; 64 leaves room and keeps every recursive walk far from Python's limit.
MAX_DEPTH = 64
# Values after YAML aliases are expanded; the largest real server (117 tools) has about 6,000.
MAX_YAML_VALUES = 200_000
# The longest string read: real descriptions and schemas stay under 20,000 characters; a 10 MB one would be
# copied by every stage and renderer (hundreds of MB per file).
MAX_STRING_CHARS = 200_000
# Python refuses to convert longer integer literals (sys.int_info.default_max_str_digits).
MAX_INT_DIGITS = 4300

# Outside strings: a string's opening quote, brackets, the non-JSON constants, long digit runs, floats with a large
# exponent. A string is skipped by `_string_end`, not by a regex: the engine's stack grows with every escape a
# repeated group meets, and a 10 MB string of escapes took hundreds of MB.
_JSON_TOKENS = re.compile(
    r'(")|([\[\]{}])|(-?Infinity|NaN)\b|(-?\d{' + str(MAX_INT_DIGITS) + r",})"
    r"|(-?\d+(?:\.\d+)?[eE][-+]?\d{3,})"
)


def read_document(name: str, text: str, *, error: type[InputError]) -> tuple[Any, dict[Path, LineRange], str]:
    """(data, line ranges, "json" or "yaml") of `text`; `error` (an InputError class) names file and line,
    also for a key or string holding a character no text may hold (app/audit/characters.py)."""
    if is_json_text(text) or name.endswith(".json"):
        data, ranges, syntax = _read_json(name, text, error), json_ranges(text), "json"
    else:
        data, ranges = _read_yaml(name, text, error)
        syntax = "yaml"
    check_document(data, file=name, ranges=ranges, error=error)
    return data, ranges, syntax


def _string_end(text: str, start: int) -> int:
    """The index after the quote closing the string whose first character is text[start] (len(text) if none)."""
    at = start
    while True:
        quote = text.find('"', at)
        if quote < 0:
            return len(text)
        back = quote
        while back > start and text[back - 1] == "\\":
            back -= 1
        if (quote - back) % 2 == 0:  # an even run of backslashes escapes itself, not the quote
            return quote + 1
        at = quote + 1


def _read_json(name: str, text: str, error: type[InputError]) -> Any:
    depth = 0
    at = 0
    while (match := _JSON_TOKENS.search(text, at)) is not None:
        quote, bracket, constant, digits, exponent = match.groups()
        at = match.end()
        problem = None
        if quote:
            at = _string_end(text, match.end())
            if at - match.start() - 2 > MAX_STRING_CHARS:
                problem = f"a string of {at - match.start() - 2:,} characters (at most {MAX_STRING_CHARS:,})"
        elif bracket:
            depth += 1 if bracket in "[{" else -1
            if depth > MAX_DEPTH:
                problem = f"nested deeper than {MAX_DEPTH} levels"
        elif constant:
            problem = f"{constant} is not a JSON number"
        elif digits:
            problem = f"a number of {len(digits.lstrip('-'))} digits (at most {MAX_INT_DIGITS - 1} are read)"
        elif exponent and math.isinf(float(exponent)):
            problem = f"the number {exponent[:20]} is too large for a 64-bit float"
        if problem:
            raise error(f"invalid JSON: {problem}", file=name, line=text.count("\n", 0, match.start()) + 1)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"invalid JSON: {exc.msg} (column {exc.colno})", file=name, line=exc.lineno) from None


def _read_yaml(name: str, text: str, error: type[InputError]) -> tuple[Any, dict[Path, LineRange]]:
    try:
        loader = yaml.SafeLoader(text)
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow, found before parsing starts
        line = text.count("\n", 0, exc.position) + 1
        code = ord(exc.character) if isinstance(exc.character, str) else int(exc.character)
        raise error(f"invalid YAML: the character U+{code:04X} is not allowed", file=name, line=line) from None
    try:
        root = loader.get_single_node()
        if root is None:
            return None, {}
        _check_nodes(root, name, error)
        return loader.construct_document(root), yaml_node_ranges(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise error(f"invalid YAML: {exc.problem or exc}", file=name, line=mark.line + 1 if mark else 1) from None
    except yaml.YAMLError as exc:
        raise error(f"invalid YAML: {exc}", file=name, line=loader.line + 1) from None
    except RecursionError:
        raise error(f"invalid YAML: nested deeper than {MAX_DEPTH} levels", file=name, line=loader.line + 1) from None
    finally:
        loader.dispose()


def _check_nodes(root: yaml.Node, name: str, error: type[InputError]) -> None:
    """Depth and expanded size of the node graph (an alias is the same node object met again), iteratively."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        if depth > MAX_DEPTH:
            raise error(f"nested deeper than {MAX_DEPTH} levels", file=name, line=node.start_mark.line + 1)
        children = _children(node)
        if isinstance(node, yaml.ScalarNode) and len(node.value) > MAX_STRING_CHARS:
            problem = f"a string of {len(node.value):,} characters (at most {MAX_STRING_CHARS:,})"
            raise error(problem, file=name, line=node.start_mark.line + 1)
        if done:
            sizes[id(node)] = 1 + sum(sizes[id(c)] for c in children)
            if sizes[id(node)] > MAX_YAML_VALUES:
                raise error(
                    f"YAML aliases expand to more than {MAX_YAML_VALUES:,} values (an alias bomb?)",
                    file=name,
                    line=node.start_mark.line + 1,
                )
        elif id(node) not in sizes:
            stack.append((node, depth, True))
            stack.extend((c, depth + 1, False) for c in children if id(c) not in sizes)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []
