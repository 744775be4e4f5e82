"""The synthetic selector's answer: the judged best tool or NO_TOOL, with its arguments, confidence and reason."""

from __future__ import annotations

from app.audit.models import NO_TOOL
from app.audit.results import Selection
from app.audit.synthetic.explain import abstention_reason
from app.audit.synthetic.index import ToolSetIndex
from app.audit.synthetic.judgement import Scored
from app.audit.synthetic.profiles import Profile


def answer(index: ToolSetIndex, best: Scored, profile: Profile, *, semantic: bool) -> Selection:
    """The judged `best` tool when its decision score reaches the threshold, else NO_TOOL; its confidence, reason."""
    d = profile.decision
    scale = profile.confidence.scale
    doc = index.docs[best.position]
    above = (best.decision - d.threshold) / scale
    if best.decision < d.threshold:
        confidence = _clip(0.5 + 0.5 * min(1.0, -above))
        reason = _abstention(doc.name, best, d.threshold, semantic=semantic)
        return Selection(tool=NO_TOOL, confidence=confidence, reason=reason)
    words_text = ", ".join(repr(t) for t in best.matched[:6])
    evidence = f"{doc.name} matched {words_text} (coverage {best.coverage:.2f}, score {best.decision:.2f})"
    confidence = _clip(0.5 + 0.5 * min(1.0, above, best.evidence.margin))
    notes = []
    if best.filled.required:
        notes.append(f"{best.filled.required_found:g}/{best.filled.required} required values found")
    if best.evidence.boundary > 0:
        notes.append("fits its usage boundary")
    if best.evidence.exclusion > 0:
        notes.append("despite its exclusion clause")
    return Selection(
        tool=doc.name, arguments=best.filled.arguments, confidence=confidence, reason="; ".join([evidence, *notes])
    )


def _abstention(tool: str, best: Scored, threshold: float, *, semantic: bool) -> str:
    return abstention_reason(
        tool,
        nowhere=best.nowhere,
        not_in_tool=best.not_in_tool,
        matched=best.matched,
        evidence=best.evidence,
        score=best.decision,
        threshold=threshold,
        semantic=semantic,
    )


def _clip(x: float) -> float:
    return round(min(1.0, max(0.0, x)), 4)
