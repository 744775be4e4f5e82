"""Planning a suggestion review: which suggestions become review comments on lines inside the PR's hunks,
which go to the sticky comment as diffs, and the Markdown of both (tool text escaped). No I/O here."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field

from app.audit.text import counted
from app.render.environment import code, md
from app.suggest.edits import line_edit, locate, unified_diff
from app.suggest.models import Suggestion, SuggestionReport

# Hidden first line of our suggestion comments; how a re-push recognises them.
SUGGESTION_MARKER = "<!-- toolchoice:suggestion -->"
# Suggestions posted in one review unless the caller says otherwise (the config has only an on/off switch).
DEFAULT_MAX_SUGGESTIONS = 10
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_BACKTICKS = re.compile(r"`+")


def fenced(text: str, info: str) -> str:
    """`text` in a code fence longer than any backtick run inside it (tool text cannot close it early)."""
    longest = max((len(m.group(0)) for m in _BACKTICKS.finditer(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"


class InlineSuggestion(BaseModel):
    """One review comment: a suggestion block replacing lines `start_line`..`line` of `path` (RIGHT side)."""

    path: str
    line: int
    start_line: int | None = None
    body: str
    tool: str
    field: str

    def api_comment(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "line": self.line, "side": "RIGHT", "body": self.body}
        if self.start_line is not None and self.start_line < self.line:
            out["start_line"] = self.start_line
            out["start_side"] = "RIGHT"
        return out


class Fallback(BaseModel):
    """A suggestion that cannot be a review comment, shown in the sticky comment as a diff."""

    tool: str
    field: str
    diff: str
    why: str
    effect: str


class ReviewPlan(BaseModel):
    inline: list[InlineSuggestion] = Field(default_factory=list)
    fallback: list[Fallback] = Field(default_factory=list)
    duplicates: int = 0
    over_limit: int = 0
    # Comments not posted because the redactor would change them (a secret on the same lines).
    withheld: int = 0


def hunk_lines(patch: str | None) -> list[set[int]]:
    """Head-side line numbers of each hunk of a file's `patch` (context and added lines)."""
    hunks: list[set[int]] = []
    if not patch:
        return hunks
    current: set[int] | None = None
    line = 0
    for text in patch.split("\n"):
        m = _HUNK.match(text)
        if m:
            current = set()
            hunks.append(current)
            line = int(m.group(1))
            continue
        if current is None or text.startswith("-") or text.startswith("\\"):
            continue
        current.add(line)
        line += 1
    return hunks


def suggestion_body(suggestion: Suggestion, lines: Sequence[str]) -> str:
    """The comment: what it targets, the verified effect, then the suggestion block."""
    what = "description" if suggestion.field == "description" else f"description of {code(suggestion.parameter)}"
    rules = f" (targets {', '.join(suggestion.rules)})" if suggestion.rules else ""
    effect = suggestion.effect.summary() if suggestion.effect else "not rerun"
    named = ", ".join(code(s) for s in suggestion.siblings)
    siblings = f" Sets a boundary against {named}." if named else ""
    return (
        f"{SUGGESTION_MARKER}\n**ToolChoice** suggests a clearer {what} for {code(suggestion.tool)}{rules}.{siblings}\n"
        f"Verified by a rerun of the identical suite: {md(effect, None)}.\n\n" + fenced("\n".join(lines), "suggestion")
    )


def suggestion_block(body: str) -> str:
    """The suggestion block of a comment body: what a re-push compares (the effect text may change)."""
    at = body.find("`suggestion\n")
    return body[at + 1 :] if at >= 0 else body


def plan_review(
    suggestions: Sequence[Suggestion],
    *,
    head_files: Mapping[str, str],
    patches: Mapping[str, str | None],
    existing: Sequence[Mapping[str, Any]] = (),
    max_comments: int = DEFAULT_MAX_SUGGESTIONS,
) -> ReviewPlan:
    """Which accepted suggestions become review comments, which go to the sticky comment, which are posted."""
    plan = ReviewPlan()
    posted = {(str(c.get("path")), suggestion_block(str(c.get("body") or ""))) for c in existing}
    for s in suggestions:
        if not s.accepted or not s.file or s.file not in head_files:
            continue
        source = head_files[s.file]
        edit = locate(source, s)
        effect = s.effect.summary() if s.effect else "not rerun"
        if isinstance(edit, str):
            continue
        le = line_edit(source, edit)
        body = suggestion_body(s, le.lines)
        if (s.file, suggestion_block(body)) in posted:
            plan.duplicates += 1
            continue
        wanted = set(range(le.start, le.end + 1))
        if not any(wanted <= hunk for hunk in hunk_lines(patches.get(s.file))):
            after = source[: edit.start] + edit.text + source[edit.end :]
            plan.fallback.append(
                Fallback(
                    tool=s.tool,
                    field=s.field,
                    diff=unified_diff(s.file, source, after),
                    why="outside the lines this pull request changes",
                    effect=effect,
                )
            )
            continue
        if len(plan.inline) >= max_comments:
            plan.over_limit += 1
            continue
        plan.inline.append(
            InlineSuggestion(
                path=s.file,
                line=le.end,
                start_line=le.start if le.start < le.end else None,
                body=body,
                tool=s.tool,
                field=s.field,
            )
        )
    return plan


def sticky_section(report: SuggestionReport, plan: ReviewPlan) -> str:
    """Markdown for the sticky comment: every suggestion with its verified effect, diffs for the fallbacks."""
    lines = ["### Suggested description edits", ""]
    lines.extend(f"> {note}" for note in report.notes)
    if report.combined:
        lines.append(f"\nAll accepted suggestions together: {report.combined.summary()}.")
    lines.append("")
    for s in report.accepted:
        posted = any(i.tool == s.tool and i.field == s.field for i in plan.inline)
        where = "review comment" if posted else "diff below" if _in_fallback(plan, s) else "not posted"
        effect = s.effect.summary() if s.effect else "not rerun"
        lines.append(f"- {code(s.tool)} {code(s.field)}: {md(effect, None)} ({where})")
    for s in report.rejected:
        lines.append(f"- **rejected** {code(s.tool)} {code(s.field)}: {md(s.reason, 300)}")
    if plan.duplicates:
        n = plan.duplicates
        lines.append(f"\n{counted(n, 'suggestion')} already posted on an earlier push {_be(n)} not repeated.")
    if plan.over_limit:
        n = plan.over_limit
        lines.append(f"\n{counted(n, 'more suggestion')} over the per-review limit {_be(n)} not posted.")
    if plan.withheld:
        n = plan.withheld
        whose = "their lines look" if n > 1 else "its lines look"
        lines.append(f"\n{counted(n, 'suggestion')} not posted: {whose} like they hold a secret.")
    for f in plan.fallback:
        lines.append(f"\n{code(f.tool)} {code(f.field)} ({f.why}; {md(f.effect, None)}):\n")
        lines.append(fenced(f.diff.rstrip(), "diff"))
    return "\n".join(lines) + "\n"


def _in_fallback(plan: ReviewPlan, s: Suggestion) -> bool:
    return any(f.tool == s.tool and f.field == s.field for f in plan.fallback)


def _be(n: int) -> str:
    return "is" if n == 1 else "are"
