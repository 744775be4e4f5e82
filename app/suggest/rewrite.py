"""The synthetic rewriter: a deterministic description rewrite built only from the tool's own text,
its findings and its siblings.

The original sentences are kept verbatim and in order; the rewrite adds, where a rule asks for them:
an action sentence from the name (TC102, TC107), "Use this to <name phrase>." (TC103), "Do not use it to
<sibling's name phrase> (use <sibling> instead)." (TC104 and observed confusion), "Returns the <object>."
for read tools (TC105), and the formats the schema declares. It claims nothing the name, the schema or
the description do not already say. Parameter descriptions get their enum members listed (TC204).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.audit.models import Tool
from app.audit.rules.ruleset import RuleSet
from app.audit.rules.wording import verb_forms
from app.audit.text import split_identifier
from app.suggest.models import Rewrite, RewriteContext
from app.suggest.optimizer import DESCRIPTION_RULES, MAX_DESCRIPTION_CHARS, MAX_PARAMETER_CHARS

# Read verbs and the shape of what such a tool returns.
_RETURNS = {
    "get": "the {obj}",
    "read": "the {obj}",
    "fetch": "the {obj}",
    "retrieve": "the {obj}",
    "view": "the {obj}",
    "show": "the {obj}",
    "describe": "the {obj}",
    "lookup": "the {obj}",
    "list": "a list of {obj}",
    "search": "the matching {obj}",
    "find": "the matching {obj}",
    "query": "the matching {obj}",
}
# Schema formats worth restating in the description, and how.
_FORMATS = {
    "date-time": "ISO 8601 date-time",
    "date": "ISO 8601 date",
    "time": "ISO 8601 time",
    "email": "email address",
    "uri": "URI",
    "url": "URL",
    "uuid": "UUID",
}
# Verbs that end names written object-first (`note_add`, `sandbox_run`) and are never nouns there; words such as
# `report` or `index` are left in place (`sla_report` is a report, not an action).
_TRAILING_VERBS = frozenset(
    "add create delete remove update get list read write run send set edit fetch start stop find search".split()
)
_FALLBACK_VERBS = (*_RETURNS, "create", "add", "update", "delete", "remove", "send", "set", "run")


class SyntheticRewriter:
    """Deterministic rewrites; see the module docstring."""

    name = "synthetic"

    def __init__(self, rules: RuleSet | None = None) -> None:
        verbs: Sequence[str] = _FALLBACK_VERBS
        if rules is not None and "TC102" in rules.by_id():
            verbs = rules.by_id()["TC102"].then.options.get("verbs", verbs)
        self._verbs = verb_forms(tuple(verbs))

    def rewrite(self, context: RewriteContext) -> Rewrite | None:
        tool = context.tool
        failing = {f.rule_id for f in context.findings if f.tool == tool.name and f.parameter is None}
        parameters, param_rules = self._parameters(context)
        description, rules = self._description(context, failing)
        if description is None and not parameters:
            return None
        return Rewrite(
            tool=tool.name,
            description=description,
            parameters=parameters,
            rules=sorted({*rules, *param_rules}),
            siblings=[s.name for s in context.siblings] if description is not None else [],
        )

    def _description(self, context: RewriteContext, failing: set[str]) -> tuple[str | None, list[str]]:
        tool = context.tool
        original = (tool.description or "").strip()
        if not original:
            return None, []
        confused = any(s.why == "confused" for s in context.siblings)
        wants = (failing & set(DESCRIPTION_RULES)) - {"TC106"}
        if not wants and not confused and not context.missed_to_no_tool:
            return None, []
        if "TC106" in failing:
            return None, []
        phrase = name_phrase(tool.name, verbs=self._verbs)
        head: list[str] = []
        tail: list[tuple[str, str]] = []  # (rule, sentence), most important first
        targeted: list[str] = []
        if "TC102" in failing and phrase and self._is_verb(phrase):
            head.append(_sentence(phrase))
            targeted.append("TC102")
        if "TC107" in failing:
            # The added sentences say more than the name; check_rewrite confirms it.
            targeted.append("TC107")
        if ("TC103" in failing or context.missed_to_no_tool) and phrase:
            joiner = "to" if self._is_verb(phrase) else "for"
            tail.append(("TC103", f"Use this {joiner} {phrase}{_given(tool)}."))
        boundary = self._boundary(context)
        if boundary and ("TC104" in failing or confused):
            tail.append(("TC104", boundary))
        returns = self._returns(tool)
        if "TC105" in failing and returns:
            tail.append(("TC105", returns))
        formats = _formats(tool)
        if formats:
            tail.append(("", formats))
        # The original stays verbatim; a multi-line one gets the additions on a line of their own.
        sep = "\n\n" if "\n" in original else " "
        text = " ".join([*head, original])
        for rule, sentence in tail:
            candidate = f"{text}{sep}{sentence}"
            sep = " "
            if len(candidate) <= MAX_DESCRIPTION_CHARS:
                text = candidate
                if rule:
                    targeted.append(rule)
        if text == original or len(text) > MAX_DESCRIPTION_CHARS:
            return None, []
        return text, targeted

    def _boundary(self, context: RewriteContext) -> str | None:
        parts = []
        for sibling in context.siblings:
            phrase = name_phrase(sibling.name, unlike=context.tool.name, verbs=self._verbs)
            if not phrase:
                continue
            joiner = "to" if self._is_verb(phrase) else "for"
            parts.append(f"{joiner} {phrase} (use {sibling.name} instead)")
        if not parts:
            return None
        return f"Do not use it {' or '.join(parts)}."

    def _returns(self, tool: Tool) -> str | None:
        tokens = split_identifier(tool.name)
        for i, token in enumerate(tokens):
            if token in _RETURNS:
                obj = " ".join(tokens[i + 1 :])
                return f"Returns {_RETURNS[token].format(obj=obj)}." if obj else None
        return None

    def _is_verb(self, phrase: str) -> bool:
        first = phrase.split(" ", 1)[0]
        return first in self._verbs

    def _parameters(self, context: RewriteContext) -> tuple[dict[str, str], list[str]]:
        tool = context.tool
        out: dict[str, str] = {}
        for finding in context.findings:
            if finding.rule_id != "TC204" or finding.parameter is None or finding.tool != tool.name:
                continue
            spec = tool.properties.get(finding.parameter)
            if not isinstance(spec, dict) or not isinstance(spec.get("description"), str):
                continue
            members = spec.get("enum") or (spec.get("items") or {}).get("enum") or []
            listed = ", ".join(str(m) for m in members)
            old = " ".join(spec["description"].split())
            new = f"{old.rstrip('.')}. One of: {listed}."
            if len(new) <= MAX_PARAMETER_CHARS and spec["description"].strip():
                out[finding.parameter] = new
        return out, ["TC204"] if out else []


def name_phrase(name: str, *, unlike: str | None = None, verbs: frozenset[str] = frozenset()) -> str:
    """`list_directory_with_sizes` -> 'list directory with sizes'; a clear action verb at the end comes
    first (`note_add` -> 'add note'). With `unlike`, leading words both names share (a namespace such as
    `jira_`) are dropped so the phrase says what differs; a shared verb stays."""
    tokens = split_identifier(name)
    if unlike is not None:
        other = split_identifier(unlike)
        k = 0
        while k < min(len(tokens), len(other)) - 1 and tokens[k] == other[k] and tokens[k] not in verbs:
            k += 1
        tokens = tokens[k:]
    if len(tokens) > 1 and tokens[0] not in verbs and tokens[-1] in _TRAILING_VERBS:
        tokens = [tokens[-1], *tokens[:-1]]
    return " ".join(tokens)


def _given(tool: Tool) -> str:
    """', given owner, repo and issue_number' from the schema's required parameters (at most three)."""
    required = [r for r in tool.required if r in tool.properties]
    if not required or len(required) > 3:
        return ""
    listed = required[0] if len(required) == 1 else ", ".join(required[:-1]) + f" and {required[-1]}"
    return f", given {listed}"


def _sentence(phrase: str) -> str:
    return phrase[:1].upper() + phrase[1:] + "."


def _formats(tool: Tool) -> str | None:
    """'Formats: start (ISO 8601 date-time), email (email address).' from the schema's `format` keys."""
    found = []
    for name, spec in tool.properties.items():
        if isinstance(spec, dict) and isinstance(spec.get("format"), str) and spec["format"] in _FORMATS:
            label = _FORMATS[spec["format"]]
            if label.lower() not in str(spec.get("description") or "").lower():
                found.append(f"{name} ({label})")
    return f"Formats: {', '.join(found[:3])}." if found else None
