"""Pydantic models of what an audit produces: selector answers, runs, scores, reports and comparisons."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.audit.models import Case, Finding, Mode, Provenance
from app.audit.successors import Successor


class Selection(BaseModel):
    """A selector's answer to one request."""

    tool: str  # a tool name or NO_TOOL
    arguments: dict[str, Any] = Field(default_factory=dict)
    confidence: float = 0.0
    reason: str = ""
    # Live mode: the raw answer text, token usage, latency, and an error when the answer was unusable.
    raw: str | None = None
    error: str | None = None
    usage: dict[str, Any] | None = None


class ArgumentCheck(BaseModel):
    """Result of checking generated arguments, in BFCL's order; `failed_check` names the first failure."""

    valid: bool
    failed_check: str | None = None
    detail: str | None = None


class Run(BaseModel):
    case_id: str
    expected: str
    selected: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    confidence: float = 0.0
    reason: str = ""
    passed: bool
    why: str
    scored: bool = True
    argument_check: ArgumentCheck | None = None
    error: str | None = None
    raw: str | None = None
    usage: dict[str, Any] | None = None
    # A before/after: the tool this case was written for, absent from this side; `expected` is then the tool that
    # does its work here (on head a removed tool's successor, on base a new tool's predecessor).
    successor_of: str | None = None


class ConfusionPair(BaseModel):
    expected: str
    selected: str
    count: int
    # Share of the expected tool's scored cases that went to `selected`.
    rate: float


class ToolScore(BaseModel):
    tool: str
    score: float
    description_quality: float
    parameter_clarity: float
    safety: float | None = None
    selection_accuracy: float | None = None
    findings: int = 0


class DimensionScores(BaseModel):
    selection_accuracy: float
    distinguishability: float
    description_quality: float
    parameter_clarity: float
    argument_reliability: float
    safety: float

    def as_dict(self) -> dict[str, float]:
        return self.model_dump()


class SelectorInfo(BaseModel):
    mode: Mode
    name: str
    profile_hash: str
    settings: dict[str, Any] = Field(default_factory=dict)


class ProvenanceCounts(BaseModel):
    scored: dict[str, int] = Field(default_factory=dict)
    exploratory: dict[str, int] = Field(default_factory=dict)


class AuditReport(BaseModel):
    """The result of one audit. Its JSON export is versioned (see app/render/json_export.py)."""

    mode: Mode
    selector: SelectorInfo
    suite_hash: str
    rules_hash: str
    provenance: ProvenanceCounts
    scores: DimensionScores
    overall: float
    findings: list[Finding]
    runs: list[Run]
    confusion: list[ConfusionPair]
    tool_scores: list[ToolScore]
    tool_hashes: dict[str, str]
    tool_field_hashes: dict[str, dict[str, str]] = Field(default_factory=dict)
    sources: list[str] = Field(default_factory=list)
    cases: list[Case] = Field(default_factory=list)
    totals: dict[str, Any] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    # A before/after: where the requests of the tools this side lacks were judged (app/audit/successors/): on
    # head the removed tools' successors, on base the new tools' predecessors.
    successors: list[Successor] = Field(default_factory=list)


class ToolChange(BaseModel):
    tool: str
    change: str  # "added", "removed", "changed", "renamed"
    fields: list[str] = Field(default_factory=list)
    renamed_from: str | None = None
    # A removed tool's successor: "browser_tabs (action: close)", how it was found, and how sure that is.
    successor: str | None = None
    successor_how: str | None = None
    successor_confidence: float | None = None


class ToolSummary(BaseModel):
    """One changed tool's behavioral evidence: its scored cases and how they fared on each side.

    `ran_*`/`passed_*` count the scored cases expecting this tool that ran on that side (None when the tool
    is absent there); `confused_with` lists the tools that took its cases, or whose cases it took, on head
    (most often first).
    """

    tool: str
    change: str
    fields: list[str] = Field(default_factory=list)
    renamed_from: str | None = None
    successor: str | None = None
    successor_how: str | None = None
    successor_confidence: float | None = None
    scored_cases: int = 0
    ran_before: int | None = None
    passed_before: int | None = None
    ran_after: int | None = None
    passed_after: int | None = None
    new_findings: int = 0
    confused_with: list[str] = Field(default_factory=list)


class CaseDelta(BaseModel):
    case_id: str
    intent: str
    expected: str
    provenance: Provenance
    before_selected: str | None
    after_selected: str | None
    kind: str  # "regression", "improvement", "unstable", "coverage_added", "coverage_removed"
    why: str = ""
    removed_tools: list[str] = []  # tools left out of the list for this case (a near-miss expects NO_TOOL)
    # The case's tool was removed; head expected this successor instead ("browser_tabs (action: close)").
    successor: str | None = None
    # The case's tool is new; base was asked for the tool(s) it replaced instead ("browser_tab_close").
    predecessor: str | None = None
    # Synthetic mode: the base's or the head's answer was decided by a hair (its confidence under BORDERLINE,
    # app/audit/compare.py), so a small change anywhere in the tool list can flip it; the change is still counted.
    borderline: bool = False


class Comparison(BaseModel):
    """A before/after of two audits run on the identical suite."""

    mode: Mode
    selector: SelectorInfo
    suite_hash: str
    base: AuditReport
    head: AuditReport
    base_ref: str | None = None
    head_ref: str | None = None
    score_deltas: dict[str, float]
    overall_delta: float
    regressions: list[CaseDelta]
    improvements: list[CaseDelta]
    unstable: list[CaseDelta] = Field(default_factory=list)
    coverage: list[CaseDelta] = Field(default_factory=list)
    findings_introduced: list[Finding]
    findings_resolved: list[Finding]
    tool_changes: list[ToolChange]
    tool_summaries: list[ToolSummary] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
