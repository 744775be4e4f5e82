"""The pass/fail gate of an audit or a comparison: thresholds in, a conclusion and its reasons out."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel

from app.audit.models import Dimension, Finding, Severity
from app.audit.results import AuditReport, Comparison
from app.audit.text import counted

# Tool/rule pairs named in the security reason before "and N more".
MAX_NAMED = 5


def shown(score: float) -> float:
    """A score as every report shows it, to one decimal: the thresholds judge what the reviewer reads, so a
    check never says "70.0 is below the minimum 70"."""
    return float(f"{score:.1f}")


class Conclusion(StrEnum):
    """A check run's conclusion, as GitHub names it. The gate gives success, failure or neutral; a review
    that stops early is cancelled (superseded) or skipped."""

    SUCCESS = "success"
    FAILURE = "failure"
    NEUTRAL = "neutral"
    CANCELLED = "cancelled"
    SKIPPED = "skipped"


class Gate(BaseModel):
    conclusion: Conclusion
    reasons: list[str]


def blocking_security_findings(result: AuditReport | Comparison) -> list[Finding]:
    """Security findings at error severity that fail the check whatever the thresholds: in a comparison those
    the head adds (the base's own are listed, not re-announced), in a single audit all of them. A repository
    can lower a rule's severity in its config to keep its findings without failing the check."""
    findings = result.findings_introduced if isinstance(result, Comparison) else result.findings
    return [f for f in findings if f.dimension == Dimension.SECURITY and f.severity == Severity.ERROR]


def _security_reason(blocking: list[Finding], *, new: bool) -> str:
    pairs = sorted({f"{f.rule_id} {f.tool}" for f in blocking})
    named = ", ".join(pairs[:MAX_NAMED]) + (f" and {len(pairs) - MAX_NAMED} more" if len(pairs) > MAX_NAMED else "")
    return f"{counted(len(blocking), ('new ' if new else '') + 'security finding')} (tool poisoning): {named}"


def evaluate_gate(
    result: AuditReport | Comparison,
    *,
    min_score: float | None = None,
    max_drop: float | None = None,
    fail_on_regression: bool = False,
    near_ties: bool = False,
) -> Gate:
    """`failure` when a threshold is broken or a security finding is new, else `success`; every broken
    threshold gives a reason, the security one first.

    With `fail_on_regression`, a regression fails the gate when it is firm; one decided by a hair (a near tie,
    `CaseDelta.borderline`: a small change anywhere in the tool list can flip it) only with `near_ties`. Near ties
    are still shown, as near ties.

    `neutral` when there is nothing to judge: a comparison with no scored case on either side, or whose every
    scored run on head was an unusable answer (a live model answering garbage), and no threshold broken.
    """
    report = result.head if isinstance(result, Comparison) else result
    reasons: list[str] = []
    blocking = blocking_security_findings(result)
    if blocking:
        reasons.append(_security_reason(blocking, new=isinstance(result, Comparison)))
    if min_score is not None and shown(report.overall) < min_score:
        reasons.append(f"overall score {report.overall:.1f} is below the minimum {min_score:g}")
    if isinstance(result, Comparison):
        drop = round(shown(result.base.overall) - shown(result.head.overall), 1)
        if max_drop is not None and drop > max_drop:
            reasons.append(f"overall score dropped by {drop:.1f} (more than {max_drop:g})")
        counted_regressions = [d for d in result.regressions if near_ties or not d.borderline]
        if fail_on_regression and (counted_regressions or result.findings_introduced):
            parts = []
            if counted_regressions:
                parts.append(counted(len(counted_regressions), "case regression"))
            # New security errors already gave their own reason above.
            severe = [f for f in result.findings_introduced
                      if f.severity == Severity.ERROR and f.dimension != Dimension.SECURITY]
            if severe:
                parts.append(counted(len(severe), "new error finding"))
            if parts:
                reasons.append("regressions: " + ", ".join(parts))
    if reasons:
        return Gate(conclusion=Conclusion.FAILURE, reasons=reasons)
    if isinstance(result, Comparison) and not any(r.scored for r in result.head.runs):
        return Gate(conclusion=Conclusion.NEUTRAL, reasons=["no scored cases ran; nothing to judge"])
    if isinstance(result, Comparison):
        ran = [r for r in result.head.runs if r.scored and not r.why.startswith("not run")]
        if ran and all(r.error for r in ran):
            unusable = counted(len(ran), "scored case")
            return Gate(
                conclusion=Conclusion.NEUTRAL,
                reasons=[f"the selector gave no usable answer on any of the {unusable} it ran; nothing to judge"],
            )
    return Gate(conclusion=Conclusion.SUCCESS, reasons=[])
