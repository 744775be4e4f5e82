"""The check run's output: title, summary and text within GitHub's limits."""

from __future__ import annotations

from pydantic import BaseModel

from app.audit.gate import Gate
from app.audit.results import Comparison
from app.audit.text import counted
from app.render.environment import render, shown_change, signed
from app.render.markdown import comment_context, render_comparison

# GitHub's limits for check-run output fields.
TITLE_LIMIT = 255
SUMMARY_LIMIT = 65_535
TEXT_LIMIT = 65_535


class CheckOutput(BaseModel):
    title: str
    summary: str
    text: str


def render_check(comparison: Comparison, gate: Gate, *, report_url: str | None = None) -> CheckOutput:
    change = signed(shown_change(comparison.base.overall, comparison.head.overall))
    title = (
        f"{comparison.head.overall:.1f}/100 ({change}) · "
        f"{counted(len(comparison.regressions), 'regression')} · {comparison.mode.value}"
    )
    summary = render("check_summary.md.j2", **comment_context(comparison, report_url=report_url), gate=gate)
    text = render_comparison(comparison, report_url=report_url, max_chars=TEXT_LIMIT - 100)
    return CheckOutput(title=title[:TITLE_LIMIT], summary=summary[:SUMMARY_LIMIT], text=text[:TEXT_LIMIT])
