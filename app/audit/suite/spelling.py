"""Requests are written in words spelled right: where a pull request fixes (or makes) a typo in a tool's description,
both sides' requests use the spelling the rest of the tool list uses.

The suite writes requests from each side's own text, so a description that misspells "Confluence" on one side would
give requests that say "Confulence": a word only that side's tool has, which makes the tool look more distinct
than it is there and less distinct on the side that spells it right (a regression no reviewer believes, measured
in bench/RESULTS.md, the metamorphic benchmark). A word of one side's description that is one typo
(`app.audit.text.one_typo`) from a word of the other side's description of the same tool, and that neither
description has in the other's spelling, is written the way the tool list spells it more often (counting every
tool's name, title and description on both sides); when both spellings are as common, nothing is changed.
Only the text the requests are written from changes: each side is still audited as it is.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from app.audit.models import Tool, ToolSet
from app.audit.text import one_typo

_WORD = re.compile(r"[A-Za-z]+")


def as_written(toolsets: Sequence[ToolSet]) -> list[ToolSet]:
    """The tool sets to write requests from: `toolsets` itself unless there are two sides (base, head) whose
    descriptions of one tool differ by typos, which are then spelled the way the tool list spells them more often."""
    if len(toolsets) != 2:
        return list(toolsets)
    base, head = toolsets
    common = _counts(toolsets)
    heads = head.by_name()
    fixes: dict[str, dict[str, dict[str, str]]] = {"base": {}, "head": {}}
    for tool in base.tools:
        other = heads.get(tool.name)
        if other is None or not tool.description or not other.description or tool.description == other.description:
            continue
        ours, theirs = set(_WORD.findall(tool.description)), set(_WORD.findall(other.description))
        for a in sorted(ours - theirs):
            for b in sorted(theirs - ours):
                if not one_typo(a.lower(), b.lower()):
                    continue
                na, nb = common[a.lower()], common[b.lower()]
                if na < nb:
                    fixes["base"].setdefault(tool.name, {})[a] = b
                elif nb < na:
                    fixes["head"].setdefault(tool.name, {})[b] = a
    if not fixes["base"] and not fixes["head"]:
        return [base, head]
    return [_respelled(base, fixes["base"]), _respelled(head, fixes["head"])]


def _counts(toolsets: Sequence[ToolSet]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for toolset in toolsets:
        for tool in toolset.tools:
            for text in (tool.name, tool.title or "", tool.description or ""):
                counts.update(w.lower() for w in _WORD.findall(text))
    return counts


def _respelled(toolset: ToolSet, fixes: dict[str, dict[str, str]]) -> ToolSet:
    if not fixes:
        return toolset
    tools: list[Tool] = []
    for tool in toolset.tools:
        words = fixes.get(tool.name)
        if words and tool.description:
            text = tool.description
            for wrong, right in words.items():
                text = re.sub(rf"\b{re.escape(wrong)}\b", right, text)
            tool = tool.model_copy(update={"description": text})
        tools.append(tool)
    return toolset.model_copy(update={"tools": tools})
