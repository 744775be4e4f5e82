"""The pass/fail gate of an audit or a comparison: thresholds in, a conclusion and its reasons out."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel

from app.audit.results import AuditReport, Comparison


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


def evaluate_gate(
    result: AuditReport | Comparison,
    *,
    min_score: float | None = None,
    max_drop: float | None = None,
    fail_on_regression: bool = False,
) -> Gate:
    """`failure` when a threshold is broken, else `success`; every broken threshold gives a reason.

    `neutral` when there is nothing to judge: a comparison with no scored case on either side and no
    threshold broken.
    """
    report = result.head if isinstance(result, Comparison) else result
    reasons: list[str] = []
    if min_score is not None and report.overall < min_score:
        reasons.append(f"overall score {report.overall:.1f} is below the minimum {min_score:g}")
    if isinstance(result, Comparison):
        if max_drop is not None and -result.overall_delta > max_drop:
            reasons.append(f"overall score dropped by {-result.overall_delta:.1f} (more than {max_drop:g})")
        if fail_on_regression and (result.regressions or result.findings_introduced):
            parts = []
            if result.regressions:
                parts.append(f"{len(result.regressions)} case regression(s)")
            severe = [f for f in result.findings_introduced if f.severity.value == "error"]
            if severe:
                parts.append(f"{len(severe)} new error finding(s)")
            if parts:
                reasons.append("regressions: " + ", ".join(parts))
    if reasons:
        return Gate(conclusion=Conclusion.FAILURE, reasons=reasons)
    if isinstance(result, Comparison) and not any(r.scored for r in result.head.runs):
        return Gate(conclusion=Conclusion.NEUTRAL, reasons=["no scored cases ran; nothing to judge"])
    return Gate(conclusion=Conclusion.SUCCESS, reasons=[])
