"""Small builders for core tests: tool sets, cases and a scripted selector (no I/O)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from app.audit.models import Case, Mode, Provenance, Tool, ToolSet
from app.audit.results import Selection, SelectorInfo
from app.audit.selection import SelectionRequest


def tool(name: str, description: str = "", **params: dict[str, Any]) -> Tool:
    return Tool(name=name, description=description, inputSchema={"type": "object", "properties": params})


def toolset(*tools: Tool) -> ToolSet:
    return ToolSet(tools=list(tools), sources=["t.json"])


def case(case_id: str, intent: str, expected: str, **kw: Any) -> Case:
    return Case(
        id=case_id, intent=intent, expected=expected, provenance=kw.pop("provenance", Provenance.USER_DEFINED), **kw
    )


class ScriptedSelector:
    """Answers by a function of (tool names offered, intent); counts calls."""

    def __init__(self, answer: Callable[[list[str], str, bool], Selection], *, name: str = "scripted") -> None:
        self.answer = answer
        self.calls = 0
        self._info = SelectorInfo(mode=Mode.SYNTHETIC, name=name, profile_hash="p" * 64, settings={})

    @property
    def info(self) -> SelectorInfo:
        return self._info

    def select_many(self, requests: Sequence[SelectionRequest]) -> list[Selection]:
        self.calls += len(requests)
        return [self.answer([t["name"] for t in r.tools], r.intent, r.fresh) for r in requests]


def by_keyword(mapping: dict[str, str]) -> Callable[[list[str], str, bool], Selection]:
    """Select the tool whose keyword appears in the intent, if that tool is offered; else NO_TOOL."""

    def answer(names: list[str], intent: str, fresh: bool) -> Selection:
        for word, name in mapping.items():
            if word in intent.lower() and name in names:
                return Selection(tool=name, confidence=0.9, reason=f"keyword {word}")
        return Selection(tool="NO_TOOL", confidence=0.8, reason="no keyword")

    return answer
