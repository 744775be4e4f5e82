"""The optimizer's checks: siblings to set a boundary against, applying a rewrite, what a rewrite must pass.

A rewriter (synthetic: rewrite.py; live: app/llm/rewrite.py) proposes new description texts for tools with
description or parameter findings or with observed confusion. Every proposal is checked (`check_rewrite`:
under the length limit, every fact of the original kept, no identifiers the tool set does not have, the
targeted rules passing) and then verified by a rerun of the identical suite (verify.py); only a rerun that
supports it makes a suggestion `accepted`. The run that ties it together is run.py; the models are in
models.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.audit.models import NO_TOOL, RuleSettings, Tool, ToolSet
from app.audit.results import AuditReport
from app.audit.rules.engine import evaluate
from app.audit.rules.ruleset import RuleSet
from app.audit.text import STOPWORDS, content_stems, cosine, split_identifier, tfidf_vectors
from app.suggest.models import Rewrite, Sibling

# TC106's limit: room for action, when to use, when not to use and the result.
MAX_DESCRIPTION_CHARS = 600
# A parameter description longer than this is not extended further.
MAX_PARAMETER_CHARS = 300
# Share of the original's content words a rewrite must keep (a model may rephrase a little).
MIN_KEPT_SHARE = 0.9
# Siblings named in a "do not use" sentence, at most.
MAX_SIBLINGS = 2
# A tool this similar (TF-IDF cosine of descriptions) is the nearest sibling when nothing was confused:
# the lower bound for a tool doing the same kind of action, the higher one for any other.
MIN_SIBLING_SIMILARITY = 0.25
CLOSE_SIBLING_SIMILARITY = 0.5

SYNTHETIC_OPTIMIZER_NOTE = (
    "Synthetic mode: the rerun used the deterministic simulator, which rewards the boundary sentences "
    "('Use this to…', 'Do not use it to…') the optimizer writes, so the synthetic gain estimates added "
    "structure and is not evidence that a real model improves."
)
LIVE_OPTIMIZER_NOTE = "live_model mode: the rerun used the same model and settings as the audit."

# Rule families a rewrite can target: description quality, parameter clarity, distinguishability.
DESCRIPTION_RULES = ("TC102", "TC103", "TC104", "TC105", "TC106", "TC107")
PARAMETER_RULES = ("TC204",)
PAIR_RULES = ("TC301", "TC302")


def parameter_field(name: str) -> str:
    return f"inputSchema.properties.{name}.description"


def siblings_of(tool: Tool, *, toolset: ToolSet, report: AuditReport) -> list[Sibling]:
    """Tools to name in a boundary: confused with this one (either way), then TC3xx pairs, then the nearest."""
    counts: dict[str, int] = {}
    for pair in report.confusion:
        if pair.expected == tool.name and pair.selected not in (NO_TOOL, tool.name):
            counts[pair.selected] = counts.get(pair.selected, 0) + pair.count
        elif pair.selected == tool.name and pair.expected not in (NO_TOOL, tool.name):
            counts[pair.expected] = counts.get(pair.expected, 0) + pair.count
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    found = [Sibling(name=n, why="confused", cases=c) for n, c in ordered]
    names = set(toolset.names())
    for f in report.findings:
        if f.rule_id in PAIR_RULES and tool.name in (f.tool, f.other_tool):
            other = f.other_tool if f.tool == tool.name else f.tool
            if other and other in names and all(s.name != other for s in found):
                found.append(Sibling(name=other, why="overlap"))
    if not found:
        nearest = nearest_tool(tool, toolset)
        if nearest:
            found.append(Sibling(name=nearest, why="similar"))
    return found[:MAX_SIBLINGS]


def nearest_tool(tool: Tool, toolset: ToolSet) -> str | None:
    """The tool whose description is most like this one's (TC302's measure), if similar enough: a tool doing
    the same kind of thing (`send_message`/`post_reply`, `list_directory`/`list_directory_with_sizes`) at
    MIN_SIBLING_SIMILARITY, any other at CLOSE_SIBLING_SIMILARITY (`search_tickets` is no sibling of
    `create_ticket` just because both say "ticket")."""
    others = [t for t in toolset.tools if t.name != tool.name and t.description]
    if not others or not tool.description:
        return None
    vectors = tfidf_vectors([content_stems(tool.description), *(content_stems(t.description or "") for t in others)])
    kind = _action_kind(tool.name)

    def fit(i: int) -> float:
        similarity = cosine(vectors[0], vectors[i + 1])
        same_kind = _action_kind(others[i].name) == kind
        return similarity if similarity >= (MIN_SIBLING_SIMILARITY if same_kind else CLOSE_SIBLING_SIMILARITY) else 0.0

    best = max(range(len(others)), key=lambda i: (fit(i), -i))
    return others[best].name if fit(best) > 0 else None


# Kinds of action a name's first word names; two tools of one kind are the ones a model confuses.
_KINDS = {
    "read": "get list search find read fetch query view show describe retrieve lookup browse",
    "create": "create add send post publish insert upload write reply new make",
    "update": "update set edit modify rename move patch replace",
    "delete": "delete remove drop archive cancel purge destroy",
}
_KIND_OF = {verb: kind for kind, verbs in _KINDS.items() for verb in verbs.split()}


def _action_kind(name: str) -> str:
    """The kind of the first word of the name that names an action, else the first word itself."""
    tokens = split_identifier(name)
    return next((_KIND_OF[t] for t in tokens if t in _KIND_OF), tokens[0] if tokens else "")


def apply_rewrite(tool: Tool, rewrite: Rewrite) -> Tool:
    """The tool with the rewrite's texts in place; name, schema shape and everything else unchanged."""
    update: dict[str, object] = {}
    if rewrite.description is not None:
        update["description"] = rewrite.description
    if rewrite.parameters:
        schema = dict(tool.input_schema)
        props = {k: dict(v) if isinstance(v, dict) else v for k, v in tool.properties.items()}
        for name, text in rewrite.parameters.items():
            if isinstance(props.get(name), dict):
                props[name]["description"] = text
        schema["properties"] = props
        update["input_schema"] = schema
    return tool.model_copy(update=update)


def replaced(toolset: ToolSet, tools: Sequence[Tool]) -> ToolSet:
    """`toolset` with the tools of the same names swapped in, order kept."""
    by_name = {t.name: t for t in tools}
    return toolset.model_copy(update={"tools": [by_name.get(t.name, t) for t in toolset.tools]})


_IDENTIFIER = re.compile(r"`([^`]+)`|\b([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)\b")


def _kept_share(old: str, new: str) -> float:
    before = {w for w in content_stems(old) if w not in STOPWORDS}
    if not before:
        return 1.0
    after = set(content_stems(new))
    return len(before & after) / len(before)


def check_rewrite(
    tool: Tool, rewrite: Rewrite, *, tool_names: Sequence[str], rules: RuleSet, rule_settings: RuleSettings | None
) -> str | None:
    """None when the rewrite may be offered, else why not (same checks for synthetic and model rewrites)."""
    known = {*tool_names, *tool.properties}
    for spec in tool.properties.values():
        if isinstance(spec, dict):
            members = spec.get("enum") or (spec.get("items") or {}).get("enum") or []
            known.update(str(m) for m in members if isinstance(m, str | int))
    texts: list[tuple[str, str | None, str]] = []
    if rewrite.description is not None:
        texts.append(("description", tool.description, rewrite.description))
    for name, text in rewrite.parameters.items():
        if name not in tool.properties:
            return f"names a parameter {name!r} the tool does not have"
        old = tool.properties[name].get("description") if isinstance(tool.properties[name], dict) else None
        texts.append((f"parameter {name}", old if isinstance(old, str) else None, text))
    if not texts:
        return "nothing to change"
    for label, old, new in texts:
        limit = MAX_DESCRIPTION_CHARS if label == "description" else MAX_PARAMETER_CHARS
        if not new.strip():
            return f"the new {label} is empty"
        if len(new) > limit:
            return f"the new {label} has {len(new)} characters (limit {limit})"
        if old and _kept_share(old, new) < MIN_KEPT_SHARE:
            return f"the new {label} drops facts of the original ({_kept_share(old, new):.0%} of its words kept)"
        for m in _IDENTIFIER.finditer(new):
            ident = m.group(1) or m.group(2)
            if "_" in ident and ident not in (old or "") and not any(ident in k for k in known):
                return f"the new {label} names {ident!r}, which is neither a tool nor a parameter of this tool set"
    after = apply_rewrite(tool, rewrite)
    results = evaluate(ToolSet(tools=[after]), rules=rules, settings=rule_settings)
    failing = {(f.rule_id, f.parameter) for f in results.findings}
    for rule_id in rewrite.rules:
        if rule_id in DESCRIPTION_RULES and (rule_id, None) in failing:
            return f"the new description still fails {rule_id} (which it targets)"
        if rule_id in PARAMETER_RULES and any(r == rule_id and p in rewrite.parameters for r, p in failing):
            return f"a new parameter description still fails {rule_id} (which it targets)"
    return None
