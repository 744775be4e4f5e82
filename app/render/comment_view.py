"""What the PR comment shows and in which order: the headline, the sections, and how many rows each shows.

The comment follows Codecov's shape: a headline and small tables a reviewer reads in ten seconds, the rest
in closed `<details>` blocks. `CommentView` sorts the comparison into sections (new tool-poisoning
findings, changed tools, regressions worst first, new findings on changed tools; collapsed: the other
regressions, improvements, findings on unchanged tools, resolved findings, poisoning findings the base
already had, coverage, unstable cases, notes). `Caps` says how many rows are visible and how many rows a
collapsed block holds; app/render/markdown.py shrinks them until the comment fits its budgets. Collapsing
is a rendering decision only: the JSON export keeps everything.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from app.audit.compare import finding_key
from app.audit.engine import GENERATED_NOTE, SYNTHETIC_NOTE
from app.audit.models import Dimension, Finding, Provenance
from app.audit.results import CaseDelta, Comparison, ToolSummary
from app.audit.tool_summary import changed_tool_names

# Regressions a person wrote (or the repository's own cases) are the strongest evidence: shown first.
PROVENANCE_RANK = {Provenance.HUMAN_FIXTURE: 0, Provenance.USER_DEFINED: 1, Provenance.AI_GENERATED: 2}
# At most this many regressions are visible; the reviewers asked for five.
VISIBLE_REGRESSIONS = 5
# Visible rows of the changed-tools table, new findings on changed tools and new poisoning findings.
VISIBLE_TOOLS = 8
VISIBLE_FINDINGS = 5
VISIBLE_SECURITY = 5
# Rows per collapsed block before the character budget cuts them further.
DETAIL_ROWS = 100


class Caps(BaseModel):
    """Row limits: visible rows per visible section, and rows per collapsed block."""

    security: int = VISIBLE_SECURITY
    tools: int = VISIBLE_TOOLS
    regressions: int = VISIBLE_REGRESSIONS
    findings: int = VISIBLE_FINDINGS
    details: int = DETAIL_ROWS


def regression_order(d: CaseDelta, changed: set[str]) -> tuple[int, bool, bool, str, str]:
    """Worst first: people's cases, then cases whose expected or chosen tool the pull request changed (the
    change's own effect before a tie flipped elsewhere in the list), then firm answers before near ties."""
    touches = bool({d.expected, d.before_selected, d.after_selected, *d.removed_tools} & changed)
    return (PROVENANCE_RANK[d.provenance], not touches, d.borderline, d.expected, d.case_id)


def _pass_rate(ran: int | None, passed: int | None) -> float:
    return (passed or 0) / ran if ran else 0.0


def tool_order(t: ToolSummary) -> tuple[float, int, str]:
    """Worst first: the largest drop in pass rate, then the most new findings."""
    delta = _pass_rate(t.ran_after, t.passed_after) - _pass_rate(t.ran_before, t.passed_before)
    return (round(delta, 6), -t.new_findings, t.tool)


def _involves(f: Finding, names: set[str]) -> bool:
    return (f.tool or "") in names or (f.other_tool or "") in names


# The closed blocks in their order: key, and the summary's noun for one row and for several.
COLLAPSED = (
    ("security_more", "more new tool-poisoning finding", "more new tool-poisoning findings"),
    ("tools_more", "more changed tool", "more changed tools"),
    ("regressions_more", "more regression", "more regressions"),
    ("findings_more", "more new finding on changed tools", "more new findings on changed tools"),
    ("improvements", "improvement", "improvements"),
    ("findings_unchanged", "new finding on unchanged tools", "new findings on unchanged tools"),
    ("resolved", "resolved finding", "resolved findings"),
    ("security_base", "tool-poisoning finding the base already had", "tool-poisoning findings the base already had"),
    (
        "coverage",
        "coverage change (its tool exists on one side only; not a regression)",
        "coverage changes (their tools exist on one side only; not regressions)",
    ),
    (
        "unstable",
        "unstable case (repeats disagreed; no claim made)",
        "unstable cases (repeats disagreed; no claim made)",
    ),
    ("notes", "note", "notes"),
)


class Section(BaseModel):
    """One collapsed list of the comment: its rows in display order (perhaps cut) and how many there are."""

    key: str
    one: str
    many: str
    rows: list[Any]
    total: int = 0

    def model_post_init(self, __context: Any) -> None:
        self.total = self.total or len(self.rows)

    @property
    def summary(self) -> str:
        return f"{self.total:,} {self.one if self.total == 1 else self.many}"


class CommentView(BaseModel):
    """The comparison sorted into the comment's sections."""

    security_new: list[Finding]
    security_base: list[Finding]
    tools: list[ToolSummary]
    regressions: list[CaseDelta]
    findings_changed: list[Finding]
    findings_unchanged: list[Finding]
    resolved: list[Finding]
    improvements: list[CaseDelta]
    coverage: list[CaseDelta]
    unstable: list[CaseDelta]
    notes: list[str]

    @classmethod
    def of(cls, c: Comparison) -> CommentView:
        changed = changed_tool_names(c)
        base_keys = {finding_key(f) for f in c.base.findings}
        new = [f for f in c.findings_introduced if f.dimension != Dimension.SECURITY]
        return cls(
            security_new=[f for f in c.findings_introduced if f.dimension == Dimension.SECURITY],
            security_base=[
                f for f in c.head.findings if f.dimension == Dimension.SECURITY and finding_key(f) in base_keys
            ],
            tools=sorted(c.tool_summaries, key=tool_order),
            regressions=sorted(c.regressions, key=lambda d: regression_order(d, changed)),
            findings_changed=[f for f in new if _involves(f, changed)],
            findings_unchanged=[f for f in new if not _involves(f, changed)],
            resolved=list(c.findings_resolved),
            improvements=sorted(c.improvements, key=lambda d: regression_order(d, changed)),
            coverage=list(c.coverage),
            unstable=list(c.unstable),
            # The synthetic caveat and the ai_generated note have their own line in the footer.
            notes=[n for n in c.notes if n not in (SYNTHETIC_NOTE, GENERATED_NOTE)],
        )

    def collapsed(self, caps: Caps) -> list[Section]:
        """The closed `<details>` blocks, in order, each with every row it would hold without a budget."""
        rows: dict[str, list[Any]] = {
            "security_more": self.security_new[caps.security :],
            "tools_more": self.tools[caps.tools :],
            "regressions_more": self.regressions[caps.regressions :],
            "findings_more": self.findings_changed[caps.findings :],
            "improvements": self.improvements,
            "findings_unchanged": self.findings_unchanged,
            "resolved": self.resolved,
            "security_base": self.security_base,
            "coverage": self.coverage,
            "unstable": self.unstable,
            "notes": self.notes,
        }
        return [Section(key=key, one=one, many=many, rows=rows[key]) for key, one, many in COLLAPSED if rows[key]]


def headline_counts(c: Comparison) -> dict[str, int]:
    """The headline's counts, taken from the same lists the tables show."""
    return {
        "regressions": len(c.regressions),
        "improvements": len(c.improvements),
        "changed_tools": len(c.tool_changes),
        "security": sum(1 for f in c.findings_introduced if f.dimension == Dimension.SECURITY),
    }


_SHA = re.compile(r"[0-9a-f]{7,64}")


def is_sha(ref: str | None) -> bool:
    """A commit SHA (the App's refs) rather than a file name (the command line's)."""
    return bool(ref and _SHA.fullmatch(ref))
