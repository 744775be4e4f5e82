"""What a workflow run tells the Action: GitHub's environment variables and the `pull_request` event payload."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.errors import InputError

# The events whose payload carries a pull request with its base and head commits.
PULL_REQUEST_EVENTS = frozenset({"pull_request", "pull_request_target"})


class PullRequestEvent(BaseModel):
    """The fields of GitHub's `pull_request` payload the Action uses."""

    number: int
    base_sha: str
    head_sha: str
    base_repo: str  # owner/name
    head_repo: str | None  # None when the fork was deleted
    draft: bool = False

    @property
    def from_fork(self) -> bool:
        return self.head_repo != self.base_repo


class RunContext(BaseModel):
    """One workflow run of the Action."""

    event_name: str
    event: PullRequestEvent
    repository: str  # owner/name of the repository the workflow runs in
    workspace: Path  # the checkout (read with git plumbing only)
    api_url: str
    run_url: str | None  # the run's page on GitHub, where the job summary is
    token: str | None
    step_summary: Path | None
    output: Path | None

    @property
    def owner_repo(self) -> tuple[str, str]:
        owner, _, name = self.repository.partition("/")
        return owner, name


def _required(env: Mapping[str, str], name: str) -> str:
    value = env.get(name, "").strip()
    if not value:
        raise InputError(f"the environment variable {name} is not set: run this as a step of a GitHub workflow")
    return value


def parse_event(data: Any, *, name: str) -> PullRequestEvent:
    """The pull request of an event payload; InputError naming the payload file when it has none."""
    pr = data.get("pull_request") if isinstance(data, dict) else None
    if not isinstance(pr, dict):
        raise InputError("the event payload has no pull_request object", file=name)
    try:
        base_repo = pr["base"]["repo"]["full_name"]
        head_repo = (pr["head"].get("repo") or {}).get("full_name")
        return PullRequestEvent(
            number=int(pr["number"]),
            base_sha=str(pr["base"]["sha"]),
            head_sha=str(pr["head"]["sha"]),
            base_repo=str(base_repo),
            head_repo=str(head_repo) if head_repo else None,
            draft=bool(pr.get("draft")),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"the pull_request object lacks a field the Action needs ({exc})", file=name) from None


def read_context(env: Mapping[str, str]) -> RunContext:
    """The run described by `env` (os.environ in a workflow)."""
    event_name = _required(env, "GITHUB_EVENT_NAME")
    if event_name not in PULL_REQUEST_EVENTS:
        raise InputError(
            f"ToolChoice's Action reviews pull requests; this workflow runs on {event_name!r}. "
            "Trigger it with `on: pull_request`."
        )
    event_path = Path(_required(env, "GITHUB_EVENT_PATH"))
    try:
        data = json.loads(event_path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read the event payload: {exc.strerror}", file=str(event_path)) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"the event payload is not JSON: {exc.msg}", file=str(event_path), line=exc.lineno) from None
    repository = _required(env, "GITHUB_REPOSITORY")
    server, run_id = env.get("GITHUB_SERVER_URL"), env.get("GITHUB_RUN_ID")
    summary, output = env.get("GITHUB_STEP_SUMMARY"), env.get("GITHUB_OUTPUT")
    return RunContext(
        event_name=event_name,
        event=parse_event(data, name=str(event_path)),
        repository=repository,
        workspace=Path(env.get("GITHUB_WORKSPACE") or "."),
        api_url=env.get("GITHUB_API_URL") or "https://api.github.com",
        run_url=f"{server}/{repository}/actions/runs/{run_id}" if server and run_id else None,
        token=env.get("GITHUB_TOKEN") or None,
        step_summary=Path(summary) if summary else None,
        output=Path(output) if output else None,
    )
