"""Markdown output: the PR comment for a comparison, and a one-audit report."""

from __future__ import annotations

from app.audit.results import AuditReport, Comparison
from app.render.environment import render
from app.render.views import comparison_context, report_context

# GitHub rejects comment bodies over 65,536 characters.
GITHUB_COMMENT_LIMIT = 65_536
# Rows per list before the comment is shortened further; halved until the body fits.
DEFAULT_ROWS = 50


def render_comparison(comparison: Comparison, *, report_url: str | None = None, max_chars: int = 65_000) -> str:
    """The PR comment body (without the publisher's hidden marker), within `max_chars`."""
    context = comparison_context(comparison, report_url=report_url)
    limit = DEFAULT_ROWS
    while True:
        longest = max(
            len(comparison.regressions),
            len(comparison.improvements),
            len(comparison.findings_introduced),
            len(comparison.findings_resolved),
            len(comparison.tool_changes),
            len(comparison.coverage),
            len(comparison.unstable),
        )
        body = render("pr_comment.md.j2", **context, limit=limit, truncated=limit < longest)
        if len(body) <= max_chars or limit == 0:
            break
        limit //= 2
    if len(body) > max_chars:
        note = "\n\n_Shortened to fit GitHub's limit._\n"
        body = body[: max_chars - len(note)] + note
    return body


def render_report(report: AuditReport, *, report_url: str | None = None) -> str:
    return render("audit.md.j2", **report_context(report, report_url=report_url))
