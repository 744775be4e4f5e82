"""Publishing to a pull request: the one sticky comment (found by a hidden marker) and the ToolChoice check run."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from githubkit import GitHub
from pydantic import BaseModel

from app.audit.gate import Conclusion
from app.github.client import call, paginate
from app.github.events import CHECK_RUN_NAME

# Hidden first line of our PR comment; the comment is found by it and edited in place on every push.
STICKY_MARKER = "<!-- toolchoice:sticky-comment -->"
# GitHub rejects issue comments longer than 65,536 characters.
MAX_COMMENT_CHARS = 65536
# Check-run output limits: summary and text 65,535 characters each; annotations at most 50 per request.
MAX_OUTPUT_CHARS = 65535
MAX_TITLE_CHARS = 255  # GitHub documents no limit; a title is one line, keep it short
ANNOTATIONS_PER_REQUEST = 50


class AnnotationLevel(StrEnum):
    NOTICE = "notice"
    WARNING = "warning"
    FAILURE = "failure"


class Annotation(BaseModel):
    path: str
    start_line: int
    end_line: int
    annotation_level: AnnotationLevel
    message: str
    title: str | None = None


class CheckResult(BaseModel):
    conclusion: Conclusion
    title: str
    summary: str
    text: str | None = None
    annotations: list[Annotation] = []
    details_url: str | None = None  # e.g. the stored report's page


def clip(text: str, limit: int, *, note: str = "\n\n… (truncated)") -> str:
    """`text` cut to at most `limit` characters, ending with `note` when cut."""
    return text if len(text) <= limit else text[: max(0, limit - len(note))] + note


def sticky_body(body: str, *, report_url: str | None = None) -> str:
    """The comment body with the hidden marker, within GitHub's limit (truncated with a note and a link)."""
    note = "\n\n… (truncated: the comment is over GitHub's size limit"
    note += f"; [full report]({report_url}))" if report_url else ")"
    return clip(f"{STICKY_MARKER}\n{body}", MAX_COMMENT_CHARS, note=note)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Publisher:
    """Writes to one repository as the installation."""

    def __init__(self, gh: GitHub[Any], *, owner: str, repo: str, details_url: str | None = None) -> None:
        self._gh = gh
        self.owner = owner
        self.repo = repo
        self.details_url = details_url
        self._check_urls: dict[int, str] = {}

    # -- check runs --------------------------------------------------------------------------------------
    def start_check(self, head_sha: str, *, external_id: str, summary: str = "Reviewing tool definitions…") -> int:
        data: dict[str, Any] = {
            "name": CHECK_RUN_NAME,
            "head_sha": head_sha,
            "status": "in_progress",
            "external_id": external_id,
            "started_at": _now(),
            "output": {"title": "ToolChoice is reviewing this pull request", "summary": summary},
        }
        if self.details_url:
            data["details_url"] = self.details_url
        resp = call(
            f"create a check run on {head_sha[:7]}", self._gh.rest.checks.create, self.owner, self.repo, data=data
        )
        data = resp.json()
        if data.get("html_url"):
            self._check_urls[int(data["id"])] = str(data["html_url"])
        return int(data["id"])

    def check_url(self, check_run_id: int) -> str | None:
        """The check run's page on GitHub (where the full report text is), if GitHub gave it."""
        return self._check_urls.get(check_run_id)

    def complete_check(self, check_run_id: int, result: CheckResult) -> None:
        """Complete the run; annotations beyond 50 go in earlier updates (GitHub appends them)."""
        title = clip(result.title.splitlines()[0] if result.title else CHECK_RUN_NAME, MAX_TITLE_CHARS, note="…")
        summary = clip(result.summary, MAX_OUTPUT_CHARS)
        annotations = [a.model_dump(mode="json", exclude_none=True) for a in result.annotations]
        batches = [
            annotations[i : i + ANNOTATIONS_PER_REQUEST] for i in range(0, len(annotations), ANNOTATIONS_PER_REQUEST)
        ]
        for batch in batches[:-1]:
            partial = {"title": title, "summary": summary, "annotations": batch}
            call(
                "add check-run annotations",
                self._gh.rest.checks.update,
                self.owner,
                self.repo,
                check_run_id,
                data={"output": partial},
            )
        output: dict[str, Any] = {"title": title, "summary": summary}
        if result.text:
            output["text"] = clip(result.text, MAX_OUTPUT_CHARS)
        if batches:
            output["annotations"] = batches[-1]
        data = {"status": "completed", "conclusion": result.conclusion.value, "completed_at": _now(), "output": output}
        if result.details_url:
            data["details_url"] = result.details_url
        call("complete the check run", self._gh.rest.checks.update, self.owner, self.repo, check_run_id, data=data)

    # -- the sticky comment ------------------------------------------------------------------------------
    def find_sticky(self, number: int) -> int | None:
        what = f"list comments of #{number}"
        for item in paginate(what, self._gh.rest.issues.list_comments, self.owner, self.repo, number, max_pages=None):
            if (item.get("body") or "").startswith(STICKY_MARKER):
                return int(item["id"])
        return None

    def upsert_comment(self, number: int, body: str, *, report_url: str | None = None) -> tuple[int, bool]:
        """Edit our comment in place, or create it; returns (comment id, created)."""
        text = sticky_body(body, report_url=report_url)
        existing = self.find_sticky(number)
        if existing is not None:
            call(
                "edit the ToolChoice comment",
                self._gh.rest.issues.update_comment,
                self.owner,
                self.repo,
                existing,
                data={"body": text},
            )
            return existing, False
        resp = call(
            f"comment on #{number}",
            self._gh.rest.issues.create_comment,
            self.owner,
            self.repo,
            number,
            data={"body": text},
        )
        return int(resp.json()["id"]), True
