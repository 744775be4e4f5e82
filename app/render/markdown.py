"""Markdown output: the PR comment for a comparison (fitted to its budgets), and a one-audit report.

Two budgets hold for any pull request: at most `VISIBLE_LINE_BUDGET` lines outside closed `<details>`
blocks, and at most `max_chars` characters in all. The comment is first rendered with the default caps;
while too many lines are visible a list gives up a row (in SHRINK_ORDER; the row moves into a closed
block); while the body is too long the closed blocks hold fewer rows, and the footer says what was cut
and where the rest is (the stored report page, or the JSON export on the command line).
"""

from __future__ import annotations

import re
from typing import Any

from app.audit.models import Provenance
from app.audit.results import AuditReport, Comparison
from app.render.comment_view import Caps, CommentView, Section, headline_counts, is_sha
from app.render.environment import render
from app.render.views import comparison_context, report_context

# GitHub rejects comment bodies over 65,536 characters.
GITHUB_COMMENT_LIMIT = 65_536
# What a reviewer reads without a click: a headline and small tables (the budget).
VISIBLE_LINE_BUDGET = 40
# When too many lines are visible, lists give up rows in this order, each down to the floor named:
# findings on changed tools first, the regressions last (they are what the comment is for); one
# regression, one changed tool and one poisoning finding always stay in sight.
SHRINK_ORDER = (
    ("findings", 2),
    ("tools", 3),
    ("findings", 0),
    ("security", 3),
    ("tools", 1),
    ("security", 1),
    ("regressions", 1),
)

_DETAILS = re.compile(r"<details>.*?</details>", re.DOTALL)


def visible_lines(body: str) -> int:
    """Lines a reader sees without a click: every line outside `<details>`, plus one per summary line."""
    folded = _DETAILS.sub("<details/>", body)
    return len(folded.rstrip("\n").split("\n"))


def _fewer_visible(caps: Caps, view: CommentView) -> Caps | None:
    """Caps with one visible row less in the first list of SHRINK_ORDER above its floor, or None."""
    shown = {
        "security": min(caps.security, len(view.security_new)),
        "tools": min(caps.tools, len(view.tools)),
        "regressions": min(caps.regressions, len(view.regressions)),
        "findings": min(caps.findings, len(view.findings_changed)),
    }
    for key, floor in SHRINK_ORDER:
        if shown[key] > floor:
            return caps.model_copy(update={key: shown[key] - 1})
    return None


def _collapsed(view: CommentView, caps: Caps) -> list[Section]:
    return [s.model_copy(update={"rows": s.rows[: caps.details]}) for s in view.collapsed(caps)]


def _cut(sections: list[Section]) -> list[str]:
    out = []
    for s in sections:
        n = s.total - len(s.rows)
        if n > 0:
            out.append(f"{n:,} {(s.one if n == 1 else s.many).removeprefix('more ')}")
    return out


def comment_context(
    comparison: Comparison, *, report_url: str | None, view: CommentView | None = None, caps: Caps | None = None
) -> dict[str, Any]:
    """What the comment's and the check-run summary's templates read (they share headline and table)."""
    view = view or CommentView.of(comparison)
    caps = caps or Caps()
    collapsed = _collapsed(view, caps)
    return {
        **comparison_context(comparison, report_url=report_url),
        "v": view,
        "caps": caps,
        "counts": headline_counts(comparison),
        "base_is_sha": is_sha(comparison.base_ref),
        "generated": bool(comparison.head.provenance.scored.get(Provenance.AI_GENERATED.value)),
        "collapsed": collapsed,
        "cut": _cut(collapsed),
    }


def _render(comparison: Comparison, view: CommentView, caps: Caps, *, report_url: str | None) -> str:
    return render("pr_comment.md.j2", **comment_context(comparison, report_url=report_url, view=view, caps=caps))


def render_comparison(
    comparison: Comparison, *, report_url: str | None = None, max_chars: int = GITHUB_COMMENT_LIMIT - 536
) -> str:
    """The PR comment body (without the publisher's hidden marker): ≤ 40 visible lines, ≤ `max_chars`."""
    view = CommentView.of(comparison)
    caps = Caps()
    body = _render(comparison, view, caps, report_url=report_url)
    while visible_lines(body) > VISIBLE_LINE_BUDGET:
        smaller = _fewer_visible(caps, view)
        if smaller is None:
            break
        caps = smaller
        body = _render(comparison, view, caps, report_url=report_url)
    while len(body) > max_chars and caps.details > 0:
        caps = caps.model_copy(update={"details": caps.details // 2})
        body = _render(comparison, view, caps, report_url=report_url)
    if len(body) > max_chars:
        note = "\n\n_Shortened to fit GitHub's limit._\n"
        body = body[: max_chars - len(note)] + note
    return body


def render_report(report: AuditReport, *, report_url: str | None = None) -> str:
    return render("audit.md.j2", **report_context(report, report_url=report_url))

