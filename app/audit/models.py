"""Pydantic models of the audit's inputs: tools and tool sets, findings, cases and suites, rule settings.

What an audit produces (selector answers, runs, scores, reports, comparisons) is in app/audit/results.py.
"""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.audit.identifiers import remember

NO_TOOL = "NO_TOOL"

# Fields of a tool that make up its definition (what a client sees and the hash covers).
DEFINITION_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no insignificant whitespace: the basis of every hash."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_of(value: Any) -> str:
    """The hex sha256 of `value`'s canonical JSON, remembered as ours (redaction never masks it)."""
    return remember(hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest())


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    HINT = "hint"


class Dimension(StrEnum):
    SELECTION_ACCURACY = "selection_accuracy"
    DISTINGUISHABILITY = "distinguishability"
    DESCRIPTION_QUALITY = "description_quality"
    PARAMETER_CLARITY = "parameter_clarity"
    ARGUMENT_RELIABILITY = "argument_reliability"
    SAFETY = "safety"
    # Tool poisoning: text addressed to the model rather than describing the tool; not scored.
    SECURITY = "security"
    # Problems with the input itself (unreadable file, duplicate names); not scored.
    INPUT = "input"


class Mode(StrEnum):
    SYNTHETIC = "synthetic"
    LIVE_MODEL = "live_model"


class Provenance(StrEnum):
    HUMAN_FIXTURE = "human_fixture"
    USER_DEFINED = "user_defined"
    AI_GENERATED = "ai_generated"


class CaseStatus(StrEnum):
    SCORED = "scored"
    EXPLORATORY = "exploratory"


class CaseFamily(StrEnum):
    POSITIVE = "positive"
    OFF_TOPIC = "off_topic"
    NEAR_MISS = "near_miss"


class Phrasing(StrEnum):
    """How a generated request is worded: naming the action, the goal in other words, or the situation."""

    EXPLICIT = "explicit"
    TASK = "task"
    INDIRECT = "indirect"
    # What tells the tool apart from its nearest rivals (app/audit/suite/contrast.py).
    CONTRASTIVE = "contrastive"


class LineRange(BaseModel):
    """Inclusive 1-based line range in a source file."""

    model_config = ConfigDict(frozen=True)

    start: int
    end: int


class Location(BaseModel):
    """Where a tool was read from. `file` is as given by the caller (relative paths stay relative)."""

    file: str
    tool_lines: LineRange | None = None
    name_lines: LineRange | None = None
    description_lines: LineRange | None = None
    parameter_description_lines: dict[str, LineRange] = Field(default_factory=dict)
    # "json", "yaml", "python", "typescript", "go": how the text at these lines is quoted.
    syntax: str = "json"


class Tool(BaseModel):
    """One tool definition, as an MCP client would receive it, plus where it came from."""

    model_config = ConfigDict(populate_by_name=True)

    name: str
    title: str | None = None
    description: str | None = None
    input_schema: dict[str, Any] = Field(default_factory=lambda: {"type": "object"}, alias="inputSchema")
    output_schema: dict[str, Any] | None = Field(default=None, alias="outputSchema")
    annotations: dict[str, Any] | None = None
    # Any other fields of the listing (_meta, icons, execution), kept verbatim but not hashed.
    extra: dict[str, Any] = Field(default_factory=dict)
    location: Location | None = None

    def definition(self) -> dict[str, Any]:
        """The hashed definition: DEFINITION_FIELDS that are present."""
        out: dict[str, Any] = {"name": self.name}
        if self.title is not None:
            out["title"] = self.title
        if self.description is not None:
            out["description"] = self.description
        out["inputSchema"] = self.input_schema
        if self.output_schema is not None:
            out["outputSchema"] = self.output_schema
        if self.annotations is not None:
            out["annotations"] = self.annotations
        return out

    def to_mcp(self) -> dict[str, Any]:
        """The tool exactly as MCP `tools/list` lists it (definition plus the verbatim extra fields)."""
        return {**self.definition(), **self.extra}

    def definition_hash(self) -> str:
        return sha256_of(self.definition())

    def field_hashes(self) -> dict[str, str]:
        """Hash per definition field, to say which fields changed between two versions."""
        return {key: sha256_of(value) for key, value in self.definition().items()}

    @property
    def properties(self) -> dict[str, Any]:
        props = self.input_schema.get("properties")
        return props if isinstance(props, dict) else {}

    @property
    def required(self) -> list[str]:
        req = self.input_schema.get("required")
        return [r for r in req if isinstance(r, str)] if isinstance(req, list) else []


class Finding(BaseModel):
    """One deterministic result of a rule (or of input validation). No timestamps, no absolute paths."""

    model_config = ConfigDict(frozen=True)

    rule_id: str
    severity: Severity
    dimension: Dimension
    message: str
    tool: str | None = None
    parameter: str | None = None
    other_tool: str | None = None
    file: str | None = None
    line: int | None = None
    end_line: int | None = None

    def sort_key(self) -> tuple[Any, ...]:
        return (
            self.file or "",
            self.tool or "",
            self.rule_id,
            self.parameter or "",
            self.other_tool or "",
            self.line or 0,
            self.message,
        )


class ToolSet(BaseModel):
    """The tools of one audit side, and the problems met while reading them."""

    tools: list[Tool] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    load_findings: list[Finding] = Field(default_factory=list)

    def by_name(self) -> dict[str, Tool]:
        return {t.name: t for t in self.tools}

    def names(self) -> list[str]:
        return [t.name for t in self.tools]

    def to_mcp(self) -> list[dict[str, Any]]:
        return [t.to_mcp() for t in self.tools]

    def without(self, names: set[str] | frozenset[str]) -> list[Tool]:
        return [t for t in self.tools if t.name not in names]


class Case(BaseModel):
    """One tool-selection test case."""

    model_config = ConfigDict(frozen=True)

    id: str
    intent: str
    expected: str  # a tool name or NO_TOOL
    acceptable_arguments: dict[str, list[Any]] | None = None
    provenance: Provenance
    confidence: float = 1.0
    status: CaseStatus = CaseStatus.SCORED
    family: CaseFamily = CaseFamily.POSITIVE
    # The tool the case was written for; for near-miss cases this tool is removed from the set.
    target_tool: str | None = None
    removed_tools: tuple[str, ...] = ()
    note: str | None = None
    # Generated requests only: explicit, task or indirect wording.
    phrasing: Phrasing | None = None

    @property
    def scored(self) -> bool:
        return self.status == CaseStatus.SCORED


class Suite(BaseModel):
    """A frozen set of cases; before and after audits run the identical suite (same hash)."""

    cases: list[Case]
    hash: str = ""
    # What the builder could not do (tools left without scored cases, and why); not part of the hash.
    notes: list[str] = Field(default_factory=list)

    def model_post_init(self, __context: Any) -> None:
        self.cases = sorted(self.cases, key=lambda c: c.id)
        computed = sha256_of([c.model_dump(mode="json") for c in self.cases])
        if self.hash and self.hash != computed:
            raise ValueError("suite hash does not match its cases")
        self.hash = computed


class RuleOverride(BaseModel):
    """A repository's change to one rule: turn it off, change its severity or its options."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    severity: Severity | None = None
    options: dict[str, Any] = Field(default_factory=dict)


class RuleIgnore(BaseModel):
    """Silence one rule for one tool; a reason is required and shown in reports."""

    model_config = ConfigDict(extra="forbid")

    rule: str
    tool: str
    reason: str = Field(min_length=1)


class RuleSettings(BaseModel):
    """`rules:` in the config. In YAML an override may be written `TC101: off` (see app/config/loader.py)."""

    model_config = ConfigDict(extra="forbid")

    overrides: dict[str, RuleOverride] = Field(default_factory=dict)
    ignore: list[RuleIgnore] = Field(default_factory=list)
