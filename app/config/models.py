"""The repository config's keys as pydantic models: RepoConfig and its sections, with their defaults."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from app.audit.live_plan import DEFAULT_SAMPLE, Scope
from app.audit.models import Mode, RuleSettings
from app.audit.successors import SuccessorRule
from app.config.paths import DEFAULT_PATHS, glob_regex


class DefinitionFormat(StrEnum):
    AUTO = "auto"
    MCP = "mcp"
    OPENAI = "openai"
    ANTHROPIC = "anthropic"


class CommentPolicy(StrEnum):
    ALWAYS = "always"  # comment on every PR, also when no tool definitions changed
    ON_CHANGE = "on_change"  # comment only when a PR changes tool definitions
    NEVER = "never"  # check run only


class Thresholds(BaseModel):
    """When the check run fails. Without any threshold the check never fails on scores."""

    model_config = ConfigDict(extra="forbid")

    min_score: float | None = Field(
        default=None, ge=0, le=100, description="Fail when the head's overall score is below this (0-100)."
    )
    max_drop: float | None = Field(
        default=None, ge=0, le=100, description="Fail when the overall score drops by more than this many points."
    )
    fail_on_regression: bool = Field(
        default=False, description="Fail when any scored case passed on the base and fails on the head."
    )
    near_ties: bool = Field(
        default=False,
        description="With fail_on_regression, also fail on regressions decided by a hair (near ties), which a "
        "small change anywhere in the tool list can flip; by default they are shown as near ties and do not fail.",
    )


class LiveBudget(BaseModel):
    """What one live review may spend; a plan over it keeps its highest-priority cases."""

    model_config = ConfigDict(extra="forbid")

    max_calls: int | None = Field(default=None, ge=1, description="Model calls at most, both sides together.")
    max_cost: float | None = Field(
        default=None,
        gt=0,
        description="Cost at most, at the operator's prices (TOOLCHOICE_PRICE_PER_1K_INPUT/OUTPUT must be set).",
    )


class LiveConfig(BaseModel):
    """How a live_model review plans its model calls (docs/live-model.md, "The targeted plan")."""

    model_config = ConfigDict(extra="forbid")

    scope: Scope = Field(
        default=Scope.TARGETED,
        description="targeted: ask only where the change can matter, plus a sample; all: every case, as before.",
    )
    sample: int = Field(
        default=DEFAULT_SAMPLE,
        ge=0,
        le=1000,
        description="Cases drawn from those away from the change, to estimate selection accuracy over them.",
    )
    budget: LiveBudget = Field(default_factory=LiveBudget)


class ServerConfig(BaseModel):
    """How the command line (`audit`, `diff`, `lint`, the Action) starts the repository's MCP server to list its tools
    exactly; the App never starts anything and ignores this section (docs/github-app.md says why)."""

    model_config = ConfigDict(extra="forbid")

    command: str = Field(
        min_length=1,
        description="The command that starts the server over stdio, run without a shell in `cwd`, e.g. "
        "`node dist/index.js` or `uv run my-server`.",
    )
    cwd: str = Field(default=".", min_length=1, description="Folder to run it in, relative to the repository root.")
    env: list[str] = Field(
        default_factory=list,
        description="Names of environment variables the server is given; it gets only PATH, HOME, locale and temp "
        "settings otherwise (no tokens or keys unless named here).",
    )
    timeout_s: float = Field(default=60.0, gt=0, le=3600, description="Seconds to start the server and list its tools.")
    install: str | None = Field(
        default=None,
        min_length=1,
        description="`diff --git` only: a shell command run in each side's temporary worktree first, e.g. `npm ci`.",
    )
    build: str | None = Field(
        default=None,
        min_length=1,
        description="`diff --git` only: a shell command run after `install`, e.g. `npm run build`.",
    )
    step_timeout_s: float = Field(
        default=900.0, gt=0, le=7200, description="Seconds each of `install` and `build` may take."
    )

    @field_validator("cwd")
    @classmethod
    def _cwd_is_inside(cls, value: str) -> str:
        parts = value.replace("\\", "/").split("/")
        if value.startswith("/") or ".." in parts:
            raise ValueError(f"{value!r} must be a folder inside the repository (relative, no '..')")
        return value


class SuccessorEntry(BaseModel):
    """`old_tool: {tool: new_tool, arguments: {action: close}}`: the call that now does what the removed tool did."""

    model_config = ConfigDict(extra="forbid")

    tool: str = Field(min_length=1, description="The tool of the head side that took over the removed tool's work.")
    arguments: dict[str, Any] = Field(
        default_factory=dict,
        description="Argument values that select the removed tool's operation on it (`action: close`).",
    )


class RepoConfig(BaseModel):
    """Every key is optional; an empty or missing file means these defaults."""

    model_config = ConfigDict(extra="forbid", title="ToolChoice repository config (.github/toolchoice.yml)")

    paths: list[str] = Field(
        default_factory=lambda: list(DEFAULT_PATHS),
        min_length=1,
        description="Globs of tool-definition files, relative to the repository root; `**/` matches any depth.",
    )
    format: DefinitionFormat = Field(
        default=DefinitionFormat.AUTO,
        description="Format of the definition files; auto detects MCP, OpenAI or Anthropic per file.",
    )
    mode: Mode = Field(
        default=Mode.SYNTHETIC,
        description="synthetic (deterministic simulator, no model) or live_model (a model the operator allows).",
    )
    model: str | None = Field(
        default=None, min_length=1, description="live_model only: one of the models the operator allows."
    )
    concurrency: int | None = Field(
        default=None, ge=1, le=64, description="live_model only: parallel requests to the model."
    )
    live: LiveConfig = Field(
        default_factory=LiveConfig, description="live_model only: which cases the model is asked, and the budget."
    )
    thresholds: Thresholds = Field(default_factory=Thresholds)
    comment: CommentPolicy = Field(default=CommentPolicy.ON_CHANGE, description="When to post the sticky PR comment.")
    suggestions: bool = Field(
        default=True,
        description="Verified description rewrites as a PR review (default on in synthetic mode; live_model only "
        "when set explicitly, since verifying calls the model again).",
    )
    rules: RuleSettings = Field(
        default_factory=RuleSettings,
        description="Rule overrides (`TC101: off` or {enabled, severity, options}) and ignores with reasons.",
    )
    cases: str | None = Field(
        default=None, min_length=1, description="Path of a file of user-defined cases, relative to the repository root."
    )
    drafts: bool = Field(default=False, description="Also review draft pull requests.")
    server: ServerConfig | None = Field(
        default=None,
        description="Command line and Action only: start the repository's MCP server and review exactly the tools it "
        "lists (the App ignores it: it never runs code of a repository).",
    )
    successors: dict[str, str | SuccessorEntry] = Field(
        default_factory=dict,
        description="Removed tool -> the tool that took over its requests (`browser_tab_close: browser_tabs`, or "
        "`{tool: browser_tabs, arguments: {action: close}}`). Where a pull request removes a tool, its requests are "
        "judged against this successor; without an entry one is looked for (a rename, an enum member naming it, "
        "the most alike new tool).",
    )
    generate: bool = Field(
        default=True,
        description="Generate requests besides the cases file; false once `toolchoice cases write` has put the whole "
        "suite in the cases file, so reviews run those cases and write none anew (in live_model mode: no model "
        "writes requests on a push).",
    )

    @field_validator("paths")
    @classmethod
    def _paths_are_relative(cls, value: list[str]) -> list[str]:
        for glob in value:
            if not glob.strip():
                raise ValueError("a path glob is empty")
            if glob.startswith("/"):
                raise ValueError(f"{glob!r} must be relative to the repository root (no leading /)")
        return value

    _where: tuple[str | None, dict[str, int]] = PrivateAttr(default=(None, {}))

    def successor_rules(self) -> dict[str, SuccessorRule]:
        """`successors:` for the audit core, each entry knowing its file and line (for errors naming them)."""
        name, lines = self._where
        out: dict[str, SuccessorRule] = {}
        for old, entry in sorted(self.successors.items()):
            tool, arguments = (entry, {}) if isinstance(entry, str) else (entry.tool, entry.arguments)
            out[old] = SuccessorRule(tool=tool, arguments=arguments, file=name, line=lines.get(old))
        return out

    def matches(self, path: str) -> bool:
        """True when the repository path `path` is a tool-definition file by these `paths` globs."""
        return any(glob_regex(glob).fullmatch(path) for glob in self.paths)
