"""What the review pipeline reads and writes when the Action runs it: the checkout as its Source (git plumbing
only: no file of the working tree is read and nothing in it runs) and the workflow run as its Sink (the job is the
check: its result goes to the job summary and the exit code; the sticky comment goes through the App's publisher,
skipped with a notice where the token cannot write; the suggested edits are posted as a review with the same
token)."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from app.action.context import PullRequestEvent, RunContext
from app.action.outputs import workflow_message
from app.commands.git_repo import GitRepo
from app.github.client import GitHubApiError, token_client
from app.github.definitions import ChangedFiles, PullRequestInfo, TreeListing
from app.github.publisher import CheckResult, Publisher
from app.github.suggestions import SuggestionPoster

Log = Callable[[str], None]


class GitSource:
    """The run's pull request as the local repository holds it (the Source of app/review/models.py)."""

    def __init__(
        self, repo: GitRepo, event: PullRequestEvent, *, poster: Callable[[], SuggestionPoster | None] | None = None
    ) -> None:
        self.repo, self.event = repo, event
        self._poster = poster

    def suggestion_poster(self) -> SuggestionPoster | None:
        """Who posts the suggested edits as a review: the run's token where it may write (JobSink), else no one
        (the suggestions are then shown in the comment as diffs)."""
        return self._poster() if self._poster else None

    def pull_request(self, number: int) -> PullRequestInfo:
        e = self.event
        return PullRequestInfo(number=number, base_sha=e.base_sha, head_sha=e.head_sha, draft=e.draft)

    def pull_request_for_head(self, head_sha: str) -> int | None:
        return self.event.number if head_sha == self.event.head_sha else None

    def merge_base(self, base_sha: str, head_sha: str) -> str:
        return self.repo.merge_base(base_sha, head_sha)

    def changed_files(self, number: int) -> ChangedFiles:
        """Files whose content differs between the merge base and the head (what GitHub's list shows)."""
        base = self.repo.tree(self.repo.merge_base(self.event.base_sha, self.event.head_sha))
        head = self.repo.tree(self.event.head_sha)
        return ChangedFiles(paths=sorted(p for p in set(base) | set(head) if base.get(p) != head.get(p)))

    def tree(self, sha: str) -> TreeListing:
        return TreeListing(blobs=self.repo.tree(sha))

    def blob_text(self, blob_sha: str, *, path: str) -> str:
        return self.repo.blob_text(blob_sha, path=path)

    def file_text(self, path: str, sha: str) -> str | None:
        return self.repo.file_text(path, sha)


class JobSink:
    """The workflow run as the review's Sink: the check's result is kept for the job summary and the exit code;
    the sticky comment is written with the run's token, or skipped with a notice or a warning saying why."""

    def __init__(
        self,
        ctx: RunContext,
        *,
        comment: bool,
        log: Log,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.ctx, self.comment, self.log, self.transport = ctx, comment, log, transport
        self.result: CheckResult | None = None
        self.body: str | None = None  # the last comment body the review wrote, posted or not
        self.comment_state = "off" if not comment else "not needed"
        self.comment_id: int | None = None
        self._publisher: Publisher | None = None
        self._poster: SuggestionPoster | None = None

    def start_check(self, head_sha: str, *, external_id: str, summary: str | None = None) -> int:
        return 0  # the job itself is the check

    def complete_check(self, check_run_id: int, result: CheckResult) -> None:
        self.result = result

    def check_url(self, check_run_id: int) -> str | None:
        return self.ctx.run_url

    def find_sticky(self, number: int) -> int | None:
        publisher = self._writer()
        return publisher.find_sticky(number) if publisher else None

    def upsert_comment(self, number: int, body: str, *, report_url: str | None = None) -> tuple[int, bool]:
        self.body = body
        publisher = self._writer()
        if publisher is None:
            return 0, False
        try:
            comment_id, created = publisher.upsert_comment(number, body, report_url=report_url)
        except GitHubApiError as exc:
            if exc.status not in (401, 403, 404):
                raise
            self.log(workflow_message("warning", f"the token may not comment here ({exc}); give the job "
                                      "`permissions: pull-requests: write`. The result is in the job summary."))
            self.comment_state, self._publisher, self.comment = f"skipped: GitHub refused ({exc.status})", None, False
            return 0, False
        # The suggestions' section is added to the comment this run created: it stays "created".
        created = created or self.comment_state == "created"
        self.comment_id, self.comment_state = comment_id, "created" if created else "updated"
        return comment_id, created

    def _writer(self) -> Publisher | None:
        """The publisher when this run may comment; the first time it may not, the reason is said once."""
        if not self.comment:
            return None
        if self._publisher is not None:
            return self._publisher
        ctx = self.ctx
        if ctx.event.from_fork and ctx.event_name == "pull_request":
            self.log(workflow_message("notice", "a fork's pull_request run has a read-only token: no comment; the "
                                      "result is in the job summary"))
            self.comment, self.comment_state = False, "skipped: pull request from a fork (read-only token)"
            return None
        if not ctx.token:
            self.log(workflow_message("warning", "no GITHUB_TOKEN given: no comment; the result is in the job summary"))
            self.comment, self.comment_state = False, "skipped: no token"
            return None
        owner, repo = ctx.owner_repo
        client = token_client(ctx.token, base_url=ctx.api_url, transport=self.transport)
        self._publisher = Publisher(client, owner=owner, repo=repo)
        self._poster = SuggestionPoster(client, owner=owner, repo=repo)
        return self._publisher

    def suggestion_poster(self) -> SuggestionPoster | None:
        """The suggested edits' poster on the comment's client, when this run may comment (see `_writer`)."""
        return self._poster if self._writer() is not None else None
