"""Loading rules/*.yml: schema validation with file and line, the Rule model, and the rule-set hash."""

from __future__ import annotations

import json
import string
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError as SchemaValidationError
from pydantic import BaseModel, ConfigDict, Field

from app import resources
from app.audit.models import Dimension, Severity, sha256_of
from app.audit.rules.registry import CHECKS, Target
from app.errors import RuleFileError

# Placeholders every message may use (filled with "" when the target has no such part).
CONTEXT_FIELDS = frozenset({"tool", "parameter", "other_tool"})
RULE_SCHEMA_FILE = "schema.json"


class RuleThen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    function: str
    options: dict[str, Any] = Field(default_factory=dict)


class Rule(BaseModel):
    """One rule as written in its YAML file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    dimension: Dimension
    severity: Severity
    target: Target
    message: str
    then: RuleThen
    rationale: str
    recommendation: str | None = None


class RuleSet(BaseModel):
    """Rules sorted by id and the sha256 of their canonical data (not of the files' bytes)."""

    model_config = ConfigDict(frozen=True)

    rules: tuple[Rule, ...]
    hash: str

    @classmethod
    def of(cls, rules: Sequence[Rule]) -> RuleSet:
        ordered = tuple(sorted(rules, key=lambda r: r.id))
        return cls(rules=ordered, hash=sha256_of([r.model_dump(mode="json") for r in ordered]))

    def by_id(self) -> dict[str, Rule]:
        return {r.id: r for r in self.rules}


@cache
def _schema_validator(path: Path) -> Draft202012Validator:
    return Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


def options_problem(
    function: str, options: Mapping[str, Any], target: Target | None = None
) -> tuple[str, list[str | int]] | None:
    """What is wrong with naming check `function` with `options`, and the path in the rule where; else None."""
    check = CHECKS.get(function)
    if check is None:
        return f"unknown check function {function!r} (known: {', '.join(sorted(CHECKS))})", ["then", "function"]
    if target is not None and check.target != target:
        problem = f"check function {function!r} works on target {check.target.value!r}, not {target.value!r}"
        return problem, ["target"]
    validator = Draft202012Validator(check.options_schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(dict(options)), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        path = list(errors[0].absolute_path)
        where = "/".join(str(p) for p in path) or "options"
        return f"bad options for {function!r} at {where}: {errors[0].message}", ["then", "options", *path]
    return None


def message_problem(rule: Rule) -> str | None:
    """A placeholder in the message that neither the context, the options nor the check provide."""
    check = CHECKS[rule.then.function]
    known = CONTEXT_FIELDS | set(check.options_schema.get("properties", {})) | check.details
    try:
        names = [f for _, f, _, _ in string.Formatter().parse(rule.message) if f is not None]
    except ValueError as exc:
        return f"message is not a valid template: {exc}"
    for name in names:
        if name not in known:
            return f"message placeholder {{{name}}} is not provided (known: {', '.join(sorted(known))})"
    return None


def _line_of(node: yaml.Node | None, path: Sequence[str | int]) -> int | None:
    """1-based line of the YAML node at `path` (or of its deepest existing ancestor)."""
    line = node.start_mark.line + 1 if node is not None else None
    for part in path:
        child: yaml.Node | None = None
        if isinstance(node, yaml.MappingNode):
            child = next((v for k, v in node.value if k.value == part), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            child = node.value[part]
        if child is None:
            break
        node = child
        line = node.start_mark.line + 1
    return line


def load_rule_file(path: Path, *, schema_path: Path, name: str | None = None) -> Rule:
    """One rule file, validated; errors name the file (as `name`), the line and the problem."""
    shown = name or path.name
    text = path.read_text(encoding="utf-8")
    try:
        root = yaml.compose(text)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise RuleFileError(f"not valid YAML: {getattr(exc, 'problem', None) or exc}", file=shown, line=line) from None
    errors: list[SchemaValidationError] = sorted(
        _schema_validator(schema_path).iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.message)
    )
    if errors:
        err = errors[0]
        where = "/".join(str(p) for p in err.absolute_path) or "(root)"
        raise RuleFileError(f"breaks rules/schema.json at {where}: {err.message}", file=shown,
                            line=_line_of(root, list(err.absolute_path)))
    rule = Rule.model_validate(data)
    if not path.stem.startswith(rule.id):
        raise RuleFileError(f"file name must start with the rule id {rule.id}", file=shown, line=_line_of(root, ["id"]))
    located = options_problem(rule.then.function, rule.then.options, rule.target)
    if located:
        raise RuleFileError(located[0], file=shown, line=_line_of(root, located[1]))
    problem = message_problem(rule)
    if problem:
        raise RuleFileError(problem, file=shown, line=_line_of(root, ["message"]))
    return rule


def load_rules(directory: Path | None = None) -> RuleSet:
    """Every `*.yml` rule in `directory` (default: the shipped rules/), validated against its schema.json."""
    if directory is None:
        directory = resources.rules_dir()
    schema_path = directory / RULE_SCHEMA_FILE
    if not schema_path.is_file():
        raise RuleFileError(f"{RULE_SCHEMA_FILE} is missing", file=str(directory.name))
    rules: dict[str, Rule] = {}
    for path in sorted(directory.glob("*.yml")):
        rule = load_rule_file(path, schema_path=schema_path, name=f"{directory.name}/{path.name}")
        if rule.id in rules:
            raise RuleFileError(f"rule id {rule.id} is used by two files", file=f"{directory.name}/{path.name}")
        rules[rule.id] = rule
    return RuleSet.of(list(rules.values()))
