"""Reading a pull request from GitHub: its SHAs, merge base, changed files, trees and file contents."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from githubkit import GitHub
from pydantic import BaseModel

from app.errors import DefinitionError
from app.github.client import PER_PAGE, GitHubApiError, call, paginate
from app.github.events import CHECK_RUN_NAME, parse_external_id

# GitHub lists at most 3,000 files of a pull request (30 pages of 100).
MAX_PR_FILES = 3000


class PullRequestInfo(BaseModel):
    number: int
    base_sha: str
    head_sha: str
    draft: bool = False
    state: str = "open"
    head_repo: str | None = None  # "owner/name"; differs from the base repository for forks


class ChangedFiles(BaseModel):
    paths: list[str]  # new and previous names of every changed file
    truncated: bool = False  # GitHub's 3,000-file cap was reached


class TreeListing(BaseModel):
    blobs: dict[str, str]  # path -> blob SHA
    truncated: bool = False


class GitHubSource:
    """One repository's pull-request data, fetched as the installation. Fork heads are read from the base
    repository: GitHub keeps every PR's head commit there (refs/pull/N/head)."""

    def __init__(self, gh: GitHub[Any], *, owner: str, repo: str) -> None:
        self._gh = gh
        self.owner = owner
        self.repo = repo
        self._blob_cache: dict[str, str] = {}

    def pull_request(self, number: int) -> PullRequestInfo:
        resp = call(f"read pull request #{number}", self._gh.rest.pulls.get, self.owner, self.repo, number)
        data = resp.json()
        head_repo = (data["head"].get("repo") or {}).get("full_name")
        return PullRequestInfo(
            number=number,
            base_sha=data["base"]["sha"],
            head_sha=data["head"]["sha"],
            draft=bool(data.get("draft")),
            state=data.get("state", "open"),
            head_repo=head_repo,
        )

    def merge_base(self, base_sha: str, head_sha: str) -> str:
        """The merge base of base...head (what the PR's diff is taken against)."""
        resp = call(
            f"compare {base_sha[:7]}...{head_sha[:7]}",
            self._gh.rest.repos.compare_commits,
            self.owner,
            self.repo,
            f"{base_sha}...{head_sha}",
            per_page=1,
        )
        return str(resp.json()["merge_base_commit"]["sha"])

    def changed_files(self, number: int) -> ChangedFiles:
        paths: set[str] = set()
        seen = 0
        what = f"list the files of pull request #{number}"
        pages = MAX_PR_FILES // PER_PAGE
        for item in paginate(what, self._gh.rest.pulls.list_files, self.owner, self.repo, number, max_pages=pages):
            paths.add(item["filename"])
            if item.get("previous_filename"):
                paths.add(item["previous_filename"])
            seen += 1
        return ChangedFiles(paths=sorted(paths), truncated=seen >= MAX_PR_FILES)

    def tree(self, sha: str) -> TreeListing:
        """Every file of the commit `sha` with its blob SHA."""
        resp = call(
            f"list the files at {sha[:7]}", self._gh.rest.git.get_tree, self.owner, self.repo, sha, recursive="1"
        )
        data = resp.json()
        blobs = {e["path"]: e["sha"] for e in data.get("tree", []) if e.get("type") == "blob"}
        return TreeListing(blobs=blobs, truncated=bool(data.get("truncated")))

    def blob_text(self, blob_sha: str, *, path: str) -> str:
        """A file's text by blob SHA (identical files at base and head are fetched once)."""
        cached = self._blob_cache.get(blob_sha)
        if cached is not None:
            return cached
        resp = call(f"read {path}", self._gh.rest.git.get_blob, self.owner, self.repo, blob_sha)
        text = _decode(resp.json(), path)
        self._blob_cache[blob_sha] = text
        return text

    def file_text(self, path: str, sha: str) -> str | None:
        """A file's text at commit `sha`, or None when the file does not exist there."""
        try:
            resp = call(
                f"read {path} at {sha[:7]}", self._gh.rest.repos.get_content, self.owner, self.repo, path, ref=sha
            )
        except GitHubApiError as exc:
            if exc.status == 404:
                return None
            raise
        data = resp.json()
        if not isinstance(data, dict) or data.get("type") != "file":
            return None
        if data.get("encoding") == "none" or (not data.get("content") and data.get("size")):
            return self.blob_text(data["sha"], path=path)  # files over 1 MB come without content
        return _decode(data, path)

    def pull_request_for_head(self, head_sha: str) -> int | None:
        """The PR a head SHA was reviewed for, from our earlier check run's external_id (fork PRs arrive in
        check_suite payloads with `pull_requests: []`)."""
        resp = call(
            f"list check runs of {head_sha[:7]}",
            self._gh.rest.checks.list_for_ref,
            self.owner,
            self.repo,
            head_sha,
            check_name=CHECK_RUN_NAME,
            filter_="all",
            per_page=PER_PAGE,
        )
        for run in resp.json().get("check_runs", []):
            parsed = parse_external_id(run.get("external_id"))
            if parsed and (parsed[0], parsed[1]) == (self.owner, self.repo):
                return parsed[2]
        return None


def _decode(data: dict[str, Any], path: str) -> str:
    content = data.get("content") or ""
    try:
        raw = base64.b64decode(content) if data.get("encoding", "base64") == "base64" else content.encode()
    except (binascii.Error, ValueError) as exc:
        raise GitHubApiError(f"GitHub sent {path} in an encoding ToolChoice cannot read: {exc}") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DefinitionError("not UTF-8 text", file=path) from None
