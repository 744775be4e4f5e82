"""Successors of removed tools: where a merge, a split or a rename sent each removed tool's requests.

A pull request that merges four tab tools into one `browser_tabs` with `action: list|new|close|select` removes
four tools; their requests are not lost if they now reach `browser_tabs` with the right action. For each tool of
base absent from head, `find_successors` looks, in this order and deterministically, for:

1. `config`: the repository's `successors:` entry (`old: new` or `old: {tool: new, arguments: {action: close}}`);
2. `renamed`: a new tool whose definition apart from its name is the old one's (or whose description names the
   old tool, `named`);
3. `action`: a new or changed tool with an enum parameter whose member names the old tool's operation: the
   member's words are among the old name's words (a verb may be a paraphrase: delete/remove) and the rest of the
   old name is what the new tool's name says (`browser_tab_close` -> `browser_tabs`, `action: close`;
   `list_workflows` -> `actions_list`, `method: list_workflows`), or the reverse (a split of one tool with an
   enum into one tool per member);
4. `matched`: the one new tool most like it by description and parameters (TF-IDF cosine of words and shared
   parameter names), when the two are each other's best match by a clear margin; confidence under
   MIN_CONFIDENCE gives no successor.

On head, a base case expecting a removed tool with a successor is judged against the successor (and the argument
values it names): reaching it keeps the request, missing it is a regression (app/audit/selection.py).

The models are in models.py; the finder (its thresholds, the reading of names and enums, each kind of match)
in finder.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from app.audit.models import Tool, ToolSet
from app.audit.successors.finder import Finder, Key, name_stems, same_operation, stems
from app.audit.successors.models import Successor, SuccessorRule, Target
from app.errors import ConfigError

__all__ = ["Successor", "SuccessorRule", "Target", "check_configured", "choose_targets", "find_successors"]


class _Where(TypedDict):
    """Where a `successors:` entry is written: the keyword arguments of its ConfigError."""

    file: str | None
    line: int | None
    key: str


def find_successors(
    base: ToolSet, head: ToolSet, configured: Mapping[str, SuccessorRule] | None = None
) -> list[Successor]:
    """A successor for each tool of `base` absent from `head` where one is found (see the module docstring)."""
    check_configured(configured or {}, base, head)
    finder = Finder(base, head)
    found: dict[str, Successor] = {}
    for old in finder.removed:
        rule = (configured or {}).get(old)
        if rule is not None:
            target = Target(tool=rule.tool, arguments=dict(rule.arguments))
            found[old] = Successor(removed=old, targets=[target], how="config", confidence=1.0)
    renamed_to: set[str] = set()
    for old in finder.removed:
        if old in found:
            continue
        renamed = finder.renamed(old)
        if renamed is not None and renamed.targets[0].tool not in renamed_to:
            found[old] = renamed
            renamed_to.add(renamed.targets[0].tool)
    # Enum members: each (tool, parameter, member) goes to the old tool it names best; a tie between two old tools
    # gives it to neither.
    claims: dict[tuple[str, str], list[tuple[Key, str, Target]]] = {}
    for old in finder.removed:
        if old in found:
            continue
        named = finder.named(old)
        options = finder.actions(old, named or finder.everywhere)
        if options:
            key, target = options[0]
            claims.setdefault((target.tool, repr(sorted(target.arguments.items()))), []).append((key, old, target))
        elif len(named) == 1:
            found[old] = Successor(removed=old, targets=[Target(tool=named[0])], how="named", confidence=0.9)
        elif len(named) > 1:
            found[old] = Successor(removed=old, targets=[Target(tool=n) for n in named], how="named", confidence=0.9)
    for _member, rivals in sorted(claims.items()):
        rivals.sort(key=lambda r: (*(-k for k in r[0]), r[1]))
        if len(rivals) > 1 and rivals[0][0] == rivals[1][0]:
            continue
        key, old, target = rivals[0]
        confidence = 1.0 if key[0] else (0.95 if key[2] else 0.85) - (0.0 if key[1] else 0.1)
        found[old] = Successor(removed=old, targets=[target], how="action", confidence=confidence)
    for old in finder.removed:
        if old not in found:
            targets = finder.split(old)
            if targets:
                found[old] = Successor(removed=old, targets=targets, how="split", confidence=0.85)
    taken = {t.tool for s in found.values() for t in s.targets if s.how in ("renamed", "config")}
    rest = [o for o in finder.removed if o not in found]
    for old, (new, confidence) in finder.matched(rest, [n for n in finder.added if n not in taken]).items():
        target = Target(tool=new, arguments=finder.member_for(old, new))
        found[old] = Successor(removed=old, targets=[target], how="matched", confidence=confidence)
    return [found[o] for o in sorted(found)]


def check_configured(configured: Mapping[str, SuccessorRule], base: ToolSet, head: ToolSet) -> None:
    """A `successors:` entry for a tool this change removes must name a tool of head and arguments it has.

    An entry naming no tool of either side is an error when this change removes tools (a misspelt name would
    silently do nothing); entries for tools that exist but are not removed here are left alone: they were written
    for another pull request (the config is read at the base branch, and outlives the merge that needed it)."""
    base_names, head_names = set(base.names()), set(head.names())
    by_name = head.by_name()
    removes = bool(base_names - head_names)
    for old, rule in sorted(configured.items()):
        where: _Where = {"file": rule.file, "line": rule.line, "key": f"successors.{old}"}
        if old not in base_names and old not in head_names and removes:
            raise ConfigError(
                f"successors.{old}: no tool of either side is named {old!r} (this change removes "
                f"{', '.join(sorted(base_names - head_names)[:8])}); correct the name or delete the entry",
                **where,
            )
        if old not in base_names or old in head_names:
            continue
        if rule.tool not in head_names:
            raise ConfigError(
                f"successors.{old}: {rule.tool!r} is not a tool of the head side (its tools: "
                f"{', '.join(sorted(head_names)[:8])}{', ...' if len(head_names) > 8 else ''})",
                **where,
            )
        props = by_name[rule.tool].input_schema.get("properties")
        props = props if isinstance(props, dict) else {}
        for arg, value in sorted(rule.arguments.items()):
            if arg not in props:
                raise ConfigError(f"successors.{old}: {rule.tool} has no parameter {arg!r}", **where)
            members = props[arg].get("enum") if isinstance(props[arg], dict) else None
            if isinstance(members, list) and value not in members:
                raise ConfigError(
                    f"successors.{old}: {value!r} is not a value of {rule.tool}'s parameter {arg} "
                    f"(one of: {', '.join(map(str, members))})",
                    **where,
                )


def choose_targets(successor: Successor, intent: str, head: Mapping[str, Tool]) -> list[Target]:
    """The targets a request fits best (a split's request goes to the new tool whose words it shares most); ties
    are all accepted."""
    if len(successor.targets) == 1:
        return list(successor.targets)
    asked = set(stems(intent))

    def fit(target: Target) -> int:
        # Words of the tool's name (a verb through its paraphrases) count twice those of its description.
        tool = head.get(target.tool)
        named = sum(1 for w in set(name_stems(target.tool)) if any(same_operation(w, a) for a in asked))
        return 2 * named + len(asked & set(stems(tool.description or "" if tool else "")))

    best = max(fit(t) for t in successor.targets)
    return [t for t in successor.targets if fit(t) == best]
