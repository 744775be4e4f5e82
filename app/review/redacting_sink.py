"""The service's exit: a Sink that redacts every check-run and comment text before it reaches GitHub.

`run_review` wraps whatever Sink it is given in this one, so error messages, notes and rendered reports
alike pass `scrub` on their way out; the report links we made ourselves are kept as they are.
"""

from __future__ import annotations

from app.github.publisher import Annotation, CheckResult
from app.redaction.exits import scrub
from app.review.models import Sink


class RedactingSink:
    """Wraps a Sink; reads pass through, every text written is scrubbed."""

    def __init__(self, inner: Sink) -> None:
        self.inner = inner

    def start_check(self, head_sha: str, *, external_id: str, summary: str | None = None) -> int:
        if summary is None:
            return self.inner.start_check(head_sha, external_id=external_id)
        return self.inner.start_check(head_sha, external_id=external_id, summary=scrub(summary))

    def complete_check(self, check_run_id: int, result: CheckResult) -> None:
        keep = [result.details_url] if result.details_url else []
        clean = result.model_copy(
            update={
                "title": scrub(result.title, keep=keep),
                "summary": scrub(result.summary, keep=keep),
                "text": scrub(result.text, keep=keep) if result.text is not None else None,
                "annotations": [_annotation(a) for a in result.annotations],
            }
        )
        self.inner.complete_check(check_run_id, clean)

    def find_sticky(self, number: int) -> int | None:
        return self.inner.find_sticky(number)

    def check_url(self, check_run_id: int) -> str | None:
        return self.inner.check_url(check_run_id)

    def upsert_comment(self, number: int, body: str, *, report_url: str | None = None) -> tuple[int, bool]:
        keep = [report_url] if report_url else []
        return self.inner.upsert_comment(number, scrub(body, keep=keep), report_url=report_url)


def _annotation(a: Annotation) -> Annotation:
    return a.model_copy(
        update={"message": scrub(a.message), "title": scrub(a.title) if a.title is not None else None}
    )
