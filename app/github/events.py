"""Webhook events: signature check, typed parsing, and which events and actions lead to a review."""

from __future__ import annotations

import json
import logging
import re
from datetime import datetime
from enum import StrEnum
from typing import Any

from githubkit.webhooks import verify
from githubkit_schemas.latest import models as gh_models
from pydantic import BaseModel, ConfigDict, ValidationError

log = logging.getLogger(__name__)

CHECK_RUN_NAME = "ToolChoice"
PR_ACTIONS = frozenset({"opened", "synchronize", "reopened", "ready_for_review"})
LOG_ONLY_EVENTS = frozenset({"installation", "installation_repositories"})
_EXTERNAL_ID = re.compile(r"^(?P<owner>[^/\s]+)/(?P<repo>[^#\s]+)#(?P<number>\d+)$")


class Disposition(StrEnum):
    REVIEW = "review"  # enqueue a review job
    LOGGED = "logged"  # installation changes, ping: nothing to do but log
    IGNORED = "ignored"  # an event or action we do not handle


class Target(BaseModel):
    """The pull request head a review is for; `number`/`base_sha` may be unknown for re-run requests."""

    model_config = ConfigDict(frozen=True)

    owner: str
    repo: str
    head_sha: str
    number: int | None = None
    base_sha: str | None = None
    draft: bool = False


class ReviewRequest(Target):
    """The plain values a review job carries: its target, the installation, and what triggered it."""

    installation_id: int
    private: bool = True  # the repository's visibility (stored reports of private repositories need a signed link)
    trigger: str = ""
    # The pull request's `updated_at` in the delivery (epoch seconds): orders deliveries of one PR, so a late
    # (re)delivery of an older push never displaces a newer head. None when the event carries no PR state.
    updated_at: float | None = None


class Routed(BaseModel):
    disposition: Disposition
    reason: str
    request: ReviewRequest | None = None


def signature_valid(secret: str, body: bytes, signature: str | None) -> bool:
    """True when X-Hub-Signature-256 is the HMAC-SHA256 of the raw body (compared in constant time)."""
    if not signature or not signature.startswith("sha256="):
        return False
    return verify(secret, body, signature)


def external_id_for(owner: str, repo: str, number: int) -> str:
    """What a check run's `external_id` carries, so a re-run can find its pull request."""
    return f"{owner}/{repo}#{number}"


def parse_external_id(value: str | None) -> tuple[str, str, int] | None:
    match = _EXTERNAL_ID.match(value or "")
    return (match["owner"], match["repo"], int(match["number"])) if match else None


# Minimal shapes of the fields we read; used when githubkit's strict models reject a delivery (GitHub's
# payloads drift: older deliveries lack fields that the current schema marks required).
class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore")


class _Installation(_Lenient):
    id: int


class _Owner(_Lenient):
    login: str


class _Repo(_Lenient):
    name: str
    full_name: str | None = None
    private: bool = True
    owner: _Owner


class _Ref(_Lenient):
    sha: str
    repo: _Repo | None = None


class _PullRequest(_Lenient):
    number: int
    draft: bool = False
    state: str = "open"
    updated_at: datetime | None = None
    head: _Ref
    base: _Ref


class _PullRequestEvent(_Lenient):
    action: str
    number: int
    pull_request: _PullRequest
    repository: _Repo
    installation: _Installation | None = None


class _PrRef(_Lenient):
    number: int


class _CheckRun(_Lenient):
    name: str
    head_sha: str
    external_id: str | None = None
    pull_requests: list[_PrRef] = []


class _CheckRunEvent(_Lenient):
    action: str
    check_run: _CheckRun
    repository: _Repo
    installation: _Installation | None = None


class _CheckSuite(_Lenient):
    head_sha: str
    pull_requests: list[_PrRef] = []


class _CheckSuiteEvent(_Lenient):
    action: str
    check_suite: _CheckSuite
    repository: _Repo
    installation: _Installation | None = None


_TYPED: dict[tuple[str, str], Any] = {
    ("pull_request", "opened"): gh_models.WebhookPullRequestOpened,
    ("pull_request", "synchronize"): gh_models.WebhookPullRequestSynchronize,
    ("pull_request", "reopened"): gh_models.WebhookPullRequestReopened,
    ("pull_request", "ready_for_review"): gh_models.WebhookPullRequestReadyForReview,
    ("check_run", "rerequested"): gh_models.WebhookCheckRunRerequested,
    ("check_suite", "rerequested"): gh_models.WebhookCheckSuiteRerequested,
    ("installation", "created"): gh_models.WebhookInstallationCreated,
    ("installation", "deleted"): gh_models.WebhookInstallationDeleted,
    ("installation_repositories", "added"): gh_models.WebhookInstallationRepositoriesAdded,
    ("installation_repositories", "removed"): gh_models.WebhookInstallationRepositoriesRemoved,
    ("ping", ""): gh_models.WebhookPing,
}
_LENIENT: dict[str, type[_Lenient]] = {
    "pull_request": _PullRequestEvent,
    "check_run": _CheckRunEvent,
    "check_suite": _CheckSuiteEvent,
}


def _typed(event: str, action: str, data: dict[str, Any]) -> Any:
    """githubkit's typed model of the delivery, or our lenient one when the strict schema rejects it."""
    model = _TYPED.get((event, action))
    if model is not None:
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            log.info(
                "%s.%s does not match githubkit's schema (%s: %s); reading the fields we use",
                event,
                action,
                where,
                first["type"],
            )
    lenient = _LENIENT.get(event)
    return lenient.model_validate(data) if lenient else None


def route(event: str, body: bytes) -> Routed:
    """Decide what a verified delivery leads to. Raises ValueError when the body is not a JSON object."""
    data = json.loads(body)
    if not isinstance(data, dict):
        raise ValueError("the payload is not a JSON object")
    action = str(data.get("action", ""))
    name = f"{event}.{action}" if action else event
    if event == "ping":
        return Routed(disposition=Disposition.LOGGED, reason=f"ping: {data.get('zen', '')}")
    if event in LOG_ONLY_EVENTS:
        installation = (data.get("installation") or {}).get("id")
        return Routed(disposition=Disposition.LOGGED, reason=f"{name} for installation {installation}")
    if event == "pull_request" and action in PR_ACTIONS:
        return _pull_request(name, _typed(event, action, data))
    if event == "check_run" and action == "rerequested":
        return _check_run(name, _typed(event, action, data))
    if event == "check_suite" and action == "rerequested":
        return _check_suite(name, _typed(event, action, data))
    return Routed(disposition=Disposition.IGNORED, reason=f"{name} is not an event ToolChoice handles")


def _installation(ev: Any, name: str) -> int | None:
    installation = getattr(ev, "installation", None)
    return getattr(installation, "id", None) if installation else None


def _private(ev: Any) -> bool:
    """Unknown visibility counts as private."""
    return getattr(ev.repository, "private", True) is not False


def _no_installation(name: str) -> Routed:
    return Routed(disposition=Disposition.IGNORED, reason=f"{name} carries no installation (not an App delivery)")


def _request(name: str, ev: Any, installation: int, **target: Any) -> ReviewRequest:
    """A review of `target` (head SHA, number, ...) in the event's repository, triggered by `name`."""
    repository = ev.repository
    owner, repo, private = repository.owner.login, repository.name, _private(ev)
    return ReviewRequest(installation_id=installation, owner=owner, repo=repo, private=private, trigger=name, **target)


def _pull_request(name: str, ev: Any) -> Routed:
    installation = _installation(ev, name)
    if installation is None:
        return _no_installation(name)
    pr = ev.pull_request
    if pr.state != "open":
        return Routed(disposition=Disposition.IGNORED, reason=f"{name}: pull request #{pr.number} is {pr.state}")
    updated = getattr(pr, "updated_at", None)
    request = _request(
        name,
        ev,
        installation,
        number=pr.number,
        head_sha=pr.head.sha,
        base_sha=pr.base.sha,
        draft=bool(pr.draft),
        updated_at=updated.timestamp() if isinstance(updated, datetime) else None,
    )
    return Routed(disposition=Disposition.REVIEW, reason=f"{name} #{pr.number} at {pr.head.sha[:7]}", request=request)


def _check_run(name: str, ev: Any) -> Routed:
    installation = _installation(ev, name)
    if installation is None:
        return _no_installation(name)
    run = ev.check_run
    if run.name != CHECK_RUN_NAME:
        return Routed(disposition=Disposition.IGNORED, reason=f"{name}: check run {run.name!r} is not ours")
    parsed = parse_external_id(run.external_id)
    number = parsed[2] if parsed else (run.pull_requests[0].number if run.pull_requests else None)
    request = _request(name, ev, installation, number=number, head_sha=run.head_sha)
    return Routed(disposition=Disposition.REVIEW, reason=f"{name} at {run.head_sha[:7]}", request=request)


def _check_suite(name: str, ev: Any) -> Routed:
    installation = _installation(ev, name)
    if installation is None:
        return _no_installation(name)
    suite = ev.check_suite
    number = suite.pull_requests[0].number if suite.pull_requests else None
    request = _request(name, ev, installation, number=number, head_sha=suite.head_sha)
    return Routed(disposition=Disposition.REVIEW, reason=f"{name} at {suite.head_sha[:7]}", request=request)
