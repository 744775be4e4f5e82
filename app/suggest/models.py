"""Models of suggested description edits: the rewrite context and answer, the Rewriter protocol, effects."""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, Field

from app.audit.models import Finding, LineRange, Mode, Tool
from app.audit.results import SelectorInfo
from app.audit.text import counted


class Sibling(BaseModel):
    """Another tool the rewrite should set a boundary against, and why."""

    name: str
    why: str  # "confused", "overlap", "similar"
    cases: int = 0


class RewriteContext(BaseModel):
    """What a rewriter may use: the tool's findings, its siblings, the tool set's names."""

    tool: Tool
    findings: list[Finding]
    siblings: list[Sibling]
    tool_names: list[str]
    sibling_tools: list[Tool] = Field(default_factory=list)
    # Share of the tool's own scored cases sent to NO_TOOL, and the NO_TOOL cases it took.
    missed_to_no_tool: int = 0
    took_no_tool: int = 0


class Rewrite(BaseModel):
    """A rewriter's proposal for one tool: a new description and/or new parameter descriptions."""

    tool: str
    description: str | None = None
    parameters: dict[str, str] = Field(default_factory=dict)
    rules: list[str] = Field(default_factory=list)
    siblings: list[str] = Field(default_factory=list)


class Rewriter(Protocol):
    """Anything that proposes rewrites; the synthetic rewriter is deterministic, a live one asks a model."""

    @property
    def name(self) -> str: ...

    def rewrite(self, context: RewriteContext) -> Rewrite | None:
        """A proposal for `context.tool`, or None when it has nothing to offer."""
        ...


class Effect(BaseModel):
    """What the rerun showed for one suggestion (or for all accepted ones together)."""

    own_cases: int
    own_passed_before: int
    own_passed_after: int
    overall_before: float
    overall_after: float
    selection_before: float
    selection_after: float
    improved: list[str] = Field(default_factory=list)
    regressed: list[str] = Field(default_factory=list)
    # Regressed cases expected on another tool or NO_TOOL: any of them rejects the suggestion.
    stolen: list[str] = Field(default_factory=list)

    def summary(self) -> str:
        own = (
            f"own cases {self.own_passed_before}/{self.own_cases} -> {self.own_passed_after}/{self.own_cases}"
            if self.own_cases
            else "no scored cases of its own"
        )
        text = f"{own}; overall {self.overall_before:.1f} -> {self.overall_after:.1f}"
        if abs(self.selection_after - self.selection_before) >= 0.05:
            text += f"; selection accuracy {self.selection_before:.1f} -> {self.selection_after:.1f}"
        if self.improved:
            text += f"; {counted(len(self.improved), 'case')} fixed ({', '.join(self.improved[:5])})"
        if self.regressed:
            text += f"; {counted(len(self.regressed), 'case')} REGRESSED ({', '.join(self.regressed[:5])})"
        return text


class Suggestion(BaseModel):
    """One field edit of one tool, with where it is in the file and what the rerun showed."""

    tool: str
    # "description" or "inputSchema.properties.<name>.description".
    field: str
    old: str | None
    new: str
    file: str | None = None
    lines: LineRange | None = None
    syntax: str = "json"
    rules: list[str] = Field(default_factory=list)
    siblings: list[str] = Field(default_factory=list)
    effect: Effect | None = None
    accepted: bool = False
    reason: str = ""

    @property
    def parameter(self) -> str | None:
        prefix = "inputSchema.properties."
        return self.field[len(prefix) : -len(".description")] if self.field.startswith(prefix) else None


class Skipped(BaseModel):
    tool: str
    reason: str


class SuggestionReport(BaseModel):
    """All suggestions of one run: accepted and rejected, with the combined effect of the accepted ones."""

    mode: Mode
    selector: SelectorInfo
    rewriter: str
    suite_hash: str
    overall_before: float
    combined: Effect | None = None
    suggestions: list[Suggestion] = Field(default_factory=list)
    skipped: list[Skipped] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    @property
    def accepted(self) -> list[Suggestion]:
        return [s for s in self.suggestions if s.accepted]

    @property
    def rejected(self) -> list[Suggestion]:
        return [s for s in self.suggestions if not s.accepted]
