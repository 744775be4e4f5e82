"""Every regular expression of app/ and rules/ is safe from catastrophic backtracking.

Two checks. Statically, no pattern repeats without bound something that itself repeats without bound and can
match the same text in more than one way (`(a+)+`, `(\\s*x?)*`: the shape that backtracks exponentially);
the few nested repeats that are safe because their parts cannot overlap are listed with the reason. Then each
pattern searches adversarial strings (long runs of what it matches, followed by what breaks the match) in a
child process, which must finish: a pattern that backtracks catastrophically stops the test at the limit
with the pattern named, instead of hanging it.
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import app
from app.audit.rules.registry import CHECKS
from app.audit.rules.ruleset import load_rules

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"
RE_CALLS = {"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer"}
# Long enough that exponential backtracking never ends, short enough that quadratic scans stay well under a second.
RUN_LENGTH = 2000
# The child gets this long for all patterns; the whole sweep takes a few seconds.
HANG_LIMIT_S = 300

# Importing every module of app/ to find its compiled patterns takes tens of seconds.
pytestmark = pytest.mark.slow


def _from_source() -> dict[str, str]:
    """Literal patterns passed to re.* calls anywhere in app/ (f-strings are built per call and skipped)."""
    found: dict[str, str] = {}
    for path in sorted(APP.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
                and node.func.attr in RE_CALLS
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found[f"{path.relative_to(ROOT)}:{node.lineno}"] = node.args[0].value
    return found


def _from_modules() -> dict[str, str]:
    """Compiled patterns held by app's modules (also those built from pieces or loaded from data files)."""
    found: dict[str, str] = {}
    for info in pkgutil.walk_packages(app.__path__, "app."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            values = value if isinstance(value, list | tuple) else [value]
            for i, item in enumerate(values):
                if isinstance(item, re.Pattern) and isinstance(item.pattern, str):
                    found[f"{info.name}.{name}" + (f"[{i}]" if values is value else "")] = item.pattern
    return found


def _from_rules() -> dict[str, str]:
    """The options of rules/*.yml that the checks read as regular expressions, each rule's alternation whole."""
    found: dict[str, str] = {}
    for rule in load_rules().rules:
        props = CHECKS[rule.then.function].options_schema.get("properties", {})
        for option, schema in props.items():
            regex = schema.get("format") == "regex" or schema.get("items", {}).get("format") == "regex"
            value = rule.then.options.get(option)
            if regex and value:
                patterns = value if isinstance(value, list) else [value]
                found[f"rules/{rule.id} {option}"] = "|".join(f"(?:{p})" for p in patterns)
    return found


def _from_secret_patterns() -> dict[str, str]:
    data = yaml.safe_load((APP / "redaction" / "secret_patterns.yml").read_text(encoding="utf-8"))
    found: dict[str, str] = {}

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("pattern", "regex") and isinstance(value, str):
                    found[f"app/redaction/secret_patterns.yml {where}"] = value
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    walk(data, "")
    return found


def all_patterns() -> dict[str, str]:
    return {**_from_source(), **_from_modules(), **_from_rules(), **_from_secret_patterns()}


# -- the static check ------------------------------------------------------------------------------------------
_parser = getattr(re, "_parser", None) or importlib.import_module("sre_parse")
_const = getattr(re, "_constants", None) or importlib.import_module("sre_constants")
REPEATS = {_const.MAX_REPEAT, _const.MIN_REPEAT}


def nested_unbounded(pattern: str) -> list[str]:
    """The repeated sub-patterns of `pattern` that sit inside another unbounded repeat, as text."""
    problems: list[str] = []

    def walk(items: object, inside: bool) -> None:
        for op, av in items:  # type: ignore[attr-defined]
            if op in REPEATS:
                _, high, sub = av
                unbounded = high == _const.MAXREPEAT or high > 100
                if unbounded and inside:
                    problems.append(str(sub)[:80])
                walk(sub, inside or unbounded)
            elif op == _const.SUBPATTERN:
                walk(av[-1], inside)
            elif op == _const.BRANCH:
                for branch in av[1]:
                    walk(branch, inside)
            elif op in (_const.ASSERT, _const.ASSERT_NOT):
                walk(av[1], inside)
            elif op == _const.GROUPREF_EXISTS:
                for branch in av[1:]:
                    if branch is not None:
                        walk(branch, inside)
            # ATOMIC_GROUP and POSSESSIVE_REPEAT never backtrack into themselves: nothing to check inside.

    walk(_parser.parse(pattern), False)
    return problems


# Nested unbounded repeats that are safe: every iteration of the outer repeat starts with a character that the
# repeat before it cannot match, so each input splits into iterations one way only (linear, not exponential).
DISJOINT = {
    r"^\s*(?:\[[^\]]*\]\s*|(?:deprecated|note|warning|important|beta)\s*[:.-]\s*)+": "turns start with [ or a word",
    r"\b([\w-]+)(?:, [\w-]+)+,? (?:or|and) [\w-]+": "each turn starts with a comma",
    r"\bdefaults?(?:\s+(?:value|is|of|to|at))*\s*[:=]?\s*['\"]?(-?\d+(?:\.\d+)?)\b": "each turn ends in a keyword",
    r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b": "each turn starts with a dot",
    r"\b[A-Z][\w'.&-]*[A-Za-z0-9](?:\s+(?:(?:of|the|de|del|della|van|von|da|di|du|la|le)\s+)?[A-Z][\w'.&-]*"
    r"[A-Za-z0-9])*(?:,\s[A-Z]{2}\b)?": "each turn starts with white space, which the word class cannot match",
    r"`([^`]+)`|\b([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)\b": "each turn starts with an underscore",
    r'"[^"\\]*(?:\\.[^"\\]*)*"|([\[\]{}])|(-?Infinity|NaN)\b|(-?\d{4300,})|(-?\d+(?:\.\d+)?[eE][-+]?\d{3,})': (
        "each turn starts with a backslash, which the string body cannot match"
    ),
    "[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*": "each turn starts with _ . or -, which the word before it cannot match",  # noqa: E501
    "(?:[A-Za-z0-9._~+-]*%[0-9A-Fa-f]{2}){6,}[A-Za-z0-9._~+-]*": "each turn ends at a %, which the characters before it cannot match",  # noqa: E501
    "[^\\S\\n]{4,}|\\n(?:[^\\S\\n]*\\n){2,}": "each turn ends at a line break, which the blanks before it cannot match",
    "\\.tool\\(\\s*[A-Za-z_][\\w.]*\\s*[,)]|\\.tool\\((?:[^()]|\\([^()]*\\))*\\)\\s*\\(": "a turn is one character other than a parenthesis, or a parenthesized group: never both",  # noqa: E501
    "(?:^\\W*(?:<[^>]*>\\W*)?(?:(?:please|also|then|first|and|now|just|always|secretly|quietly|silently|you\\s+(?:must|should|need\\s+to|have\\s+to)|be\\s+sure\\s+to|make\\s+sure\\s+to|remember\\s+to|(?:the\\s+)?(?:assistant|model|agent)\\s+(?:must|should))\\s+)*$)": "each turn is a keyword, then white space that no keyword can start with",  # noqa: E501
}


def test_patterns_are_found_in_every_place() -> None:
    found = all_patterns()
    places = {key.split(" ")[0].split(":")[0].split(".")[0] for key in found}
    assert any(k.startswith("rules/") for k in found) and any(k.startswith("app/") for k in found), places
    assert len(found) > 50


def test_no_pattern_nests_unbounded_repeats_that_can_overlap() -> None:
    nested = {where: nested_unbounded(p) for where, p in all_patterns().items()}
    patterns = all_patterns()
    unexplained = {where: subs for where, subs in nested.items() if subs and patterns[where] not in DISJOINT}
    assert not unexplained, json.dumps(unexplained, indent=1, ensure_ascii=False)


_CHILD = r"""
import json, re, sys
n = int(sys.argv[1])
runs = ["a", "A", "0", " ", "\t", "-", "_", ".", "/", "x ", "a-", "a.", "ab", "@a", "\\", "'", '"', "é", "\u200b"]
tails = ["", "!", "\x00", "\n", "~~"]
for where, pattern in json.load(sys.stdin):
    print(where, flush=True)
    compiled = re.compile(pattern, re.IGNORECASE)
    for run in runs:
        for tail in tails:
            text = run * (n // len(run)) + tail
            compiled.search(text)
            compiled.findall(text[: n // 4])
print("DONE", flush=True)
"""


def test_every_pattern_finishes_on_adversarial_strings() -> None:
    patterns = sorted(all_patterns().items())
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(RUN_LENGTH)],
            input=json.dumps(patterns),
            capture_output=True,
            text=True,
            timeout=HANG_LIMIT_S,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        last = out.strip().splitlines()[-1] if out.strip() else "(none)"
        message = f"backtracking did not finish within {HANG_LIMIT_S} s; last pattern started: {last}"
        raise AssertionError(message) from None
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "DONE"
