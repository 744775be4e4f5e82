"""Plain text for the terminal."""

from __future__ import annotations

from app.audit.results import AuditReport, Comparison
from app.render.environment import render
from app.render.views import comparison_context, report_context


def render_text(result: AuditReport | Comparison) -> str:
    if isinstance(result, Comparison):
        return render("diff.txt.j2", **comparison_context(result))
    return render("audit.txt.j2", **report_context(result))
