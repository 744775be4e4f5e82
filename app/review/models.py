"""The review's vocabulary: its target, the I/O it is given (Source, Sink), the Reviewer, outcomes.

Everything the review does to GitHub goes through a Source (reading) and a Sink (check runs, the sticky
comment), passed in as arguments (gidgethub's sans-I/O habit), so tests hand it in-memory ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol

from pydantic import BaseModel, Field

from app.audit.models import Case, ToolSet
from app.config import RepoConfig
from app.github.definitions import ChangedFiles, PullRequestInfo, TreeListing
from app.github.events import Target
from app.github.publisher import CheckResult

NO_CHANGE_SUMMARY = "No tool definitions changed in this pull request."


class Source(Protocol):
    def pull_request(self, number: int) -> PullRequestInfo: ...
    def pull_request_for_head(self, head_sha: str) -> int | None: ...
    def merge_base(self, base_sha: str, head_sha: str) -> str: ...
    def changed_files(self, number: int) -> ChangedFiles: ...
    def tree(self, sha: str) -> TreeListing: ...
    def blob_text(self, blob_sha: str, *, path: str) -> str: ...
    def file_text(self, path: str, sha: str) -> str | None: ...


class Sink(Protocol):
    def start_check(self, head_sha: str, *, external_id: str, summary: str = ...) -> int: ...
    def complete_check(self, check_run_id: int, result: CheckResult) -> None: ...
    def find_sticky(self, number: int) -> int | None: ...
    def check_url(self, check_run_id: int) -> str | None: ...
    def upsert_comment(self, number: int, body: str, *, report_url: str | None = None) -> tuple[int, bool]: ...


class ReviewInput(BaseModel):
    """What the reviewer audits: both sides' tools, the base branch's config and cases, the refs compared,
    notes for the report, and the page the report will be found at when nothing better is stored."""

    base: ToolSet
    head: ToolSet
    config: RepoConfig = Field(default_factory=RepoConfig)
    user_cases: Sequence[Case] = ()
    base_ref: str
    head_ref: str
    notes: Sequence[str] = ()
    report_url: str | None = None


class Review(BaseModel):
    """What the audit side produces for publishing: the comment body (no marker), the check result, and the
    stored report's page when one was stored."""

    comment: str
    check: CheckResult
    report_url: str | None = None


class Reviewer(Protocol):
    def review(self, request: ReviewInput) -> Review: ...


class Outcome(StrEnum):
    PUBLISHED = "published"
    NO_CHANGES = "no_changes"
    CONFIG_INVALID = "config_invalid"
    INPUT_INVALID = "input_invalid"
    SUPERSEDED = "superseded"
    SKIPPED = "skipped"


class Superseded(Exception):
    """A newer push for the same pull request arrived; this review stops quietly."""


__all__ = ["Outcome", "Review", "ReviewInput", "Reviewer", "Sink", "Source", "Superseded", "Target"]
