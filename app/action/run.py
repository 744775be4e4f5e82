"""One run of the Action: the pull request's merge base against its head (`diff --git`), the App's sticky
comment (same marker, same renderer, so App and Action edit one comment and never both post), the job
summary, the SARIF file and the step outputs; the gate decides the exit code.

The config and cases come from the base commit, never from the checkout on disk (the pull request's own
copy cannot lower its bar). A fork's `pull_request` run gets a read-only token: the comment is skipped with a
notice and the result stays in the job summary; a token refused by GitHub is a warning, not a failure.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
from pydantic import BaseModel

from app.action.context import RunContext
from app.action.outputs import append_summary, workflow_message, write_outputs
from app.audit.gate import Conclusion, evaluate_gate
from app.audit.models import Mode
from app.audit.results import Comparison
from app.audit.rules.ruleset import load_rules
from app.commands.options import CommonOptions
from app.commands.pair import Pair, compare_pair, diff_gate_args, git_pair
from app.commands.server import ServerFlags
from app.config import CONFIG_PATH, CommentPolicy
from app.github.client import GitHubApiError, token_client
from app.github.publisher import Publisher
from app.redaction.redact import redact_result
from app.render.markdown import render_comparison
from app.render.sarif import render_sarif
from app.review.models import NO_CHANGE_SUMMARY

# The App's comment budget (app/review/reviewer.py): under GitHub's 65,536 characters with room for the marker.
COMMENT_MAX_CHARS = 65000


# Starting the server runs the pull request's code; under pull_request_target it would run with the base
# repository's secrets and a write token.
_REFUSE_TARGET = (
    "a server is not started on pull_request_target: it would run the pull request's code with this repository's "
    "secrets; run the review on `pull_request`, or remove server-command and the config's server section"
)


class ActionInputs(BaseModel):
    """The Action's inputs (action.yml), as the entry point passes them."""

    config_path: str = CONFIG_PATH
    mode: Mode | None = None
    model: str | None = None
    fail_on_regression: bool = False
    comment: bool = True
    sarif_file: Path | None = None
    # live_model: a call budget over the config's, a recording to write, a committed recording to answer from.
    max_calls: int | None = None
    record: Path | None = None
    replay: Path | None = None
    # Start the server at each side (over the config's `server:`): command, install, build, env names, time limit.
    server_command: str | None = None
    install_command: str | None = None
    build_command: str | None = None
    server_env: list[str] = []
    server_timeout: float | None = None


class ActionResult(BaseModel):
    conclusion: Conclusion
    reasons: list[str] = []
    comment: str  # what happened to the sticky comment, in words
    comment_id: int | None = None
    sarif_file: Path | None = None
    summary: str = ""


Log = Callable[[str], None]


def run_action(
    ctx: RunContext, inputs: ActionInputs, *, log: Log = print, transport: httpx.BaseTransport | None = None
) -> ActionResult:
    """Review the run's pull request; `transport` reaches a fake GitHub in tests."""
    event = ctx.event
    common = CommonOptions(
        mode=inputs.mode,
        model=inputs.model,
        max_calls=inputs.max_calls,
        record=_in_workspace(ctx, inputs.record),
        replay=_in_workspace(ctx, inputs.replay),
    )
    server = ServerFlags(
        inputs.server_command, inputs.server_env, inputs.server_timeout, inputs.install_command, inputs.build_command
    )
    pair = git_pair(
        ctx.workspace, event.base_sha, event.head_sha, common=common, config_path=inputs.config_path, server=server,
        say=log, refuse_server=_REFUSE_TARGET if ctx.event_name == "pull_request_target" else None,
    )
    config = pair.settings.config
    assert pair.sides is not None
    if event.draft and not config.drafts:
        result = ActionResult(conclusion=Conclusion.SKIPPED, comment="skipped: the pull request is a draft")
        log(workflow_message("notice", f"#{event.number} is a draft and {inputs.config_path} does not review drafts"))
        return _finish(ctx, result, pair=None)
    commenting = inputs.comment and config.comment != CommentPolicy.NEVER
    if not pair.sides.definitions_changed():
        body = "\n\n".join([f"**ToolChoice**: {NO_CHANGE_SUMMARY}", *pair.notes])
        only_update = config.comment != CommentPolicy.ALWAYS
        result = ActionResult(conclusion=Conclusion.SUCCESS, comment="not needed", summary=body)
        if commenting:
            result = _comment(ctx, result, body, log=log, transport=transport, only_update=only_update)
        return _finish(ctx, result, pair=None)
    comparison = redact_result(compare_pair(pair))  # nothing leaves the process unredacted
    gate = evaluate_gate(
        comparison,
        **diff_gate_args(config, fail_under=None, max_drop=None, fail_on_regression=inputs.fail_on_regression),
    )
    body = render_comparison(comparison, report_url=ctx.run_url, max_chars=COMMENT_MAX_CHARS)
    summary = _summary(body, gate.reasons)
    result = ActionResult(conclusion=gate.conclusion, reasons=gate.reasons, comment="off", summary=summary)
    if commenting:
        result = _comment(ctx, result, body, log=log, transport=transport, only_update=False)
    if inputs.sarif_file is not None:
        result.sarif_file = _write_sarif(inputs.sarif_file, comparison)
    for reason in gate.reasons:
        log(workflow_message("error", f"ToolChoice gate failed: {reason}"))
    return _finish(ctx, result, pair=pair)


def _in_workspace(ctx: RunContext, path: Path | None) -> Path | None:
    """A path the workflow gave relative to the repository's checkout."""
    if path is None or path.is_absolute():
        return path
    return ctx.workspace / path


def _summary(body: str, reasons: list[str]) -> str:
    if not reasons:
        return body
    return body + "\n\n**The gate failed:**\n" + "\n".join(f"- {r}" for r in reasons)


def _comment(
    ctx: RunContext,
    result: ActionResult,
    body: str,
    *,
    log: Log,
    transport: httpx.BaseTransport | None,
    only_update: bool,
) -> ActionResult:
    event = ctx.event
    if event.from_fork and ctx.event_name == "pull_request":
        log(workflow_message("notice", "a fork's pull_request run has a read-only token: no comment; the result "
                             "is in the job summary"))
        return result.model_copy(update={"comment": "skipped: pull request from a fork (read-only token)"})
    if not ctx.token:
        log(workflow_message("warning", "no GITHUB_TOKEN given: no comment; the result is in the job summary"))
        return result.model_copy(update={"comment": "skipped: no token"})
    owner, repo = ctx.owner_repo
    publisher = Publisher(token_client(ctx.token, base_url=ctx.api_url, transport=transport), owner=owner, repo=repo)
    try:
        if only_update and publisher.find_sticky(event.number) is None:
            return result
        comment_id, created = publisher.upsert_comment(event.number, body, report_url=ctx.run_url)
    except GitHubApiError as exc:
        if exc.status not in (401, 403, 404):
            raise
        log(workflow_message("warning", f"the token may not comment here ({exc}); give the job `permissions: "
                             "pull-requests: write`. The result is in the job summary."))
        return result.model_copy(update={"comment": f"skipped: GitHub refused ({exc.status})"})
    return result.model_copy(update={"comment": "created" if created else "updated", "comment_id": comment_id})


def _write_sarif(path: Path, comparison: Comparison) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_sarif(comparison, rules=load_rules()), encoding="utf-8")
    return path


def _finish(ctx: RunContext, result: ActionResult, *, pair: Pair | None) -> ActionResult:
    if result.summary and ctx.step_summary is not None:
        append_summary(ctx.step_summary, result.summary)
    outputs = {
        "conclusion": result.conclusion.value,
        "comment": result.comment,
        "comment-id": str(result.comment_id or ""),
        "sarif-file": str(result.sarif_file or ""),
        "changed-files": " ".join(pair.sides.changed) if pair and pair.sides else "",
    }
    if ctx.output is not None:
        write_outputs(ctx.output, outputs)
    return result
