"""One run of the Action: the App's review pipeline (`app/review/run.py: run_review`) over the checkout (git
plumbing, app/action/git_source.py) with the job as its sink: the App's sticky comment (same marker, same
renderer, so App and Action edit one comment and never both post), the job summary, the SARIF file and the step
outputs; the gate decides the exit code.

The config and cases come from the base commit, never from the checkout on disk (the pull request's own
copy cannot lower its bar); the Action's inputs (mode, model, max-calls, fail-on-regression) go over it. A fork's
`pull_request` run gets a read-only token: the comment is skipped with a notice and the result stays in the job
summary; a token refused by GitHub is a warning, not a failure. Verified description edits are offered as the App
offers them: a review of one-click suggestions with the run's token, and a section of the comment.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
from pydantic import BaseModel

from app.action.context import RunContext
from app.action.git_source import GitSource, JobSink
from app.action.outputs import append_summary, workflow_message, write_outputs
from app.audit.gate import Conclusion
from app.audit.models import Mode, ToolSet
from app.audit.results import Comparison
from app.audit.rules.ruleset import load_rules
from app.commands.git_repo import GitRepo
from app.commands.server import ServerFlags, list_at_commit, server_config
from app.config import CONFIG_PATH, RepoConfig, load_config
from app.errors import InputError
from app.github.events import Target
from app.render.sarif import render_sarif
from app.review.models import Outcome, Review, ReviewInput
from app.review.reviewer import AuditReviewer
from app.review.run import run_review

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


class ActionReviewer(AuditReviewer):
    """The App's reviewer with the Action's inputs over the config; it offers the same suggested edits."""

    config: RepoConfig | None = None  # the config the last review ran with

    def review(self, request: ReviewInput) -> Review:
        self.config = request.config
        return super().review(request)


def run_action(
    ctx: RunContext, inputs: ActionInputs, *, log: Log = print, transport: httpx.BaseTransport | None = None
) -> ActionResult:
    """Review the run's pull request with the App's pipeline; `transport` reaches a fake GitHub in tests."""
    event = ctx.event
    repo = GitRepo(ctx.workspace)
    server = ServerFlags(
        inputs.server_command, inputs.server_env, inputs.server_timeout, inputs.install_command, inputs.build_command
    )

    listed: list[str] = []  # the heads whose tools a server listed (then no definition file is read)

    def list_sides(config: RepoConfig, merge_base: str, head: str) -> tuple[ToolSet, ToolSet] | None:
        found = server_config(server, config)
        if found is None:
            return None
        if ctx.event_name == "pull_request_target":
            raise InputError(_REFUSE_TARGET)
        listed.append(head)
        before = list_at_commit(repo, merge_base, found, label="base", say=log)
        return before, list_at_commit(repo, head, found, label="head", say=log)

    sink = JobSink(ctx, comment=inputs.comment, log=log, transport=transport)
    reviewer = ActionReviewer(
        adjust=lambda config: _with_inputs(config, inputs),
        record=_in_workspace(ctx, inputs.record),
        replay=_in_workspace(ctx, inputs.replay),
    )
    source = GitSource(repo, event, poster=sink.suggestion_poster)
    owner, name = ctx.owner_repo
    target = Target(
        owner=owner, repo=name, head_sha=event.head_sha, number=event.number, base_sha=event.base_sha, draft=event.draft
    )
    outcome = run_review(
        target, source=source, sink=sink, reviewer=reviewer, report_url=ctx.run_url,
        config_path=inputs.config_path, list_sides=list_sides, raise_errors=True,
    )  # fmt: skip
    if outcome == Outcome.SKIPPED:
        log(workflow_message("notice", f"#{event.number} is a draft and {inputs.config_path} does not review drafts"))
        result = ActionResult(conclusion=Conclusion.SKIPPED, comment="skipped: the pull request is a draft")
        return _finish(ctx, result, changed=[])
    assert sink.result is not None  # run_review completes the check it starts
    if outcome == Outcome.NO_CHANGES:
        if not listed:
            _require_definition_files(repo, ctx, inputs.config_path)
        summary = f"**ToolChoice**: {sink.result.summary}"
        result = ActionResult(conclusion=Conclusion.SUCCESS, comment=sink.comment_state, summary=summary)
        return _finish(ctx, result, changed=[], comment_id=sink.comment_id)
    gate, comparison = reviewer.gate, reviewer.redacted
    assert gate is not None and comparison is not None
    body = sink.body or sink.result.summary
    result = ActionResult(
        conclusion=gate.conclusion,
        reasons=gate.reasons,
        comment=sink.comment_state,
        comment_id=sink.comment_id,
        summary=_summary(body, gate.reasons),
    )
    if inputs.sarif_file is not None:
        result.sarif_file = _write_sarif(inputs.sarif_file, comparison)
    for reason in gate.reasons:
        log(workflow_message("error", f"ToolChoice gate failed: {reason}"))
    config = reviewer.config or RepoConfig()
    changed = [] if listed else [p for p in source.changed_files(event.number).paths if config.matches(p)]
    return _finish(ctx, result, changed=changed)


def _require_definition_files(repo: GitRepo, ctx: RunContext, config_path: str) -> None:
    """A config whose paths match no file at either side will never review anything: an InputError saying so (the
    step fails with it, as `diff --git` does), not a quiet "no tool definitions changed"."""
    event = ctx.event
    merge_base = repo.merge_base(event.base_sha, event.head_sha)
    config = load_config(config_path, text=repo.file_text(config_path, event.base_sha) or "")
    files = set(repo.tree(merge_base)) | set(repo.tree(event.head_sha))
    if not any(config.matches(p) for p in files):
        raise InputError(
            f"no tool-definition files at {merge_base[:7]} (merge base) or {event.head_sha[:7]} (head): no file "
            f"matches the paths of {config_path}: {', '.join(config.paths)}. Set `paths:` in {config_path} to the "
            "files that define your tools (JSON/YAML or Python, TypeScript, Go source)."
        )


def _with_inputs(config: RepoConfig, inputs: ActionInputs) -> RepoConfig:
    """The base branch's config with the Action's inputs over it (a flag can only add a regression gate)."""
    mode = inputs.mode or config.mode
    if mode == Mode.SYNTHETIC and (inputs.max_calls or inputs.record or inputs.replay):
        raise InputError("max-calls, record and replay apply to mode live_model only")
    live = config.live
    if inputs.max_calls is not None:
        live = live.model_copy(update={"budget": live.budget.model_copy(update={"max_calls": inputs.max_calls})})
    thresholds = config.thresholds
    if inputs.fail_on_regression:
        thresholds = thresholds.model_copy(update={"fail_on_regression": True})
    update = {"mode": mode, "live": live, "thresholds": thresholds, "model": inputs.model or config.model}
    return config.model_copy(update=update)


def _in_workspace(ctx: RunContext, path: Path | None) -> Path | None:
    """A path the workflow gave relative to the repository's checkout."""
    if path is None or path.is_absolute():
        return path
    return ctx.workspace / path


def _summary(body: str, reasons: list[str]) -> str:
    if not reasons:
        return body
    return body + "\n\n**The gate failed:**\n" + "\n".join(f"- {r}" for r in reasons)


def _write_sarif(path: Path, comparison: Comparison) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_sarif(comparison, rules=load_rules()), encoding="utf-8")
    return path


def _finish(
    ctx: RunContext, result: ActionResult, *, changed: list[str], comment_id: int | None = None
) -> ActionResult:
    if comment_id is not None and result.comment_id is None:
        result.comment_id = comment_id
    if result.summary and ctx.step_summary is not None:
        append_summary(ctx.step_summary, result.summary)
    outputs = {
        "conclusion": result.conclusion.value,
        "comment": result.comment,
        "comment-id": str(result.comment_id or ""),
        "sarif-file": str(result.sarif_file or ""),
        "changed-files": " ".join(changed),
    }
    if ctx.output is not None:
        write_outputs(ctx.output, outputs)
    return result
