"""The repository config `.github/toolchoice.yml`: model, loader with line-accurate errors, path globs."""

from __future__ import annotations

import re
from enum import StrEnum
from functools import cache
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from app.audit.live_plan import DEFAULT_SAMPLE, Scope
from app.audit.models import Mode, RuleSettings, Severity
from app.audit.successors import SuccessorRule
from app.errors import ConfigError

# Where the App reads the config (from the PR's base branch, so a PR cannot lower its own bar).
CONFIG_PATH = ".github/toolchoice.yml"

# Files that usually hold tool definitions; `**/` also matches the repository root.
DEFAULT_PATHS = (
    "**/tools.json",
    "**/tools.yaml",
    "**/tools.yml",
    "**/*.tools.json",
    "**/tools/list.json",
    # Committed snapshots, one tool per file (`toolchoice snapshots __toolsnaps__ --server-command CMD` writes them).
    "**/__toolsnaps__/*.snap",
)


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


@cache
def glob_regex(glob: str) -> re.Pattern[str]:
    """A gitignore-like glob as a regex: `**/` any directories (or none), `*` and `?` within a segment."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out))


_SHORT_OFF = {False, "off", "disabled", "false"}
_SHORT_ON = {True, "on", "enabled", "true"}
_SEVERITIES = {s.value for s in Severity}


def _expand_short_overrides(data: dict[str, Any]) -> None:
    """`rules.overrides.TC101: off` -> {enabled: false}; `: on` -> {enabled: true}; `: warning` -> severity."""
    rules = data.get("rules")
    overrides = rules.get("overrides") if isinstance(rules, dict) else None
    if not isinstance(overrides, dict):
        return
    for rule_id, value in list(overrides.items()):
        key = value.lower() if isinstance(value, str) else value
        if isinstance(key, bool | str) and key in _SHORT_OFF:
            overrides[rule_id] = {"enabled": False}
        elif isinstance(key, bool | str) and key in _SHORT_ON:
            overrides[rule_id] = {"enabled": True}
        elif isinstance(key, str) and key in _SEVERITIES:
            overrides[rule_id] = {"severity": key}


def _dotted(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _node_for(root: yaml.Node, loc: tuple[int | str, ...]) -> tuple[yaml.Node, bool]:
    """The deepest YAML node along `loc`, and whether the whole path was found."""
    node = root
    for part in loc:
        child: yaml.Node | None = None
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(part):
                    child = value_node
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            child = node.value[part]
        if child is None:
            return node, False
        node = child
    return node, True


def _key_node(root: yaml.Node, loc: tuple[int | str, ...]) -> yaml.Node | None:
    parent, found = _node_for(root, loc[:-1])
    if found and isinstance(parent, yaml.MappingNode):
        for key_node, _ in parent.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(loc[-1]):
                return key_node
    return None


def _check_duplicate_keys(node: yaml.Node, name: str, path: str = "") -> None:
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value)
            where = f"{path}.{key}" if path else key
            if key in seen:
                raise ConfigError(f"{where}: duplicate key", file=name, line=key_node.start_mark.line + 1, key=where)
            seen.add(key)
            _check_duplicate_keys(value_node, name, where)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _check_duplicate_keys(item, name, f"{path}[{index}]")


def _problem(err: Any) -> str:
    if err["type"] == "extra_forbidden":
        return "unknown key"
    msg = str(err["msg"])
    return msg.removeprefix("Value error, ")


def load_config(name: str, *, text: str) -> RepoConfig:
    """Parse and validate a config file's text; raises ConfigError naming the key, the line and the problem."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise ConfigError(f"not valid YAML: {exc.problem or exc}", file=name, line=line) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"not valid YAML: {exc}", file=name) from None
    if data is None or root is None:
        return RepoConfig()
    if not isinstance(data, dict):
        raise ConfigError(
            f"the top level must be a mapping of keys, not {type(data).__name__}",
            file=name,
            line=root.start_mark.line + 1,
        )
    _check_duplicate_keys(root, name)
    _expand_short_overrides(data)
    try:
        config = RepoConfig.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(p for p in err["loc"] if p != "[key]")
        key = _dotted(loc)
        if err["type"] == "extra_forbidden":
            node = _key_node(root, loc) or _node_for(root, loc)[0]
        else:
            node = _node_for(root, loc)[0]
        raise ConfigError(f"{key}: {_problem(err)}", file=name, line=node.start_mark.line + 1, key=key) from None
    lines: dict[str, int] = {}
    for old in config.successors:
        node = _key_node(root, ("successors", old))
        if node is not None:
            lines[old] = node.start_mark.line + 1
    config._where = (name, lines)
    return config


def config_change_note(base: RepoConfig, head_text: str | None) -> str:
    """What the PR's own copy of the config would change (it takes effect only once merged)."""
    if head_text is None:
        return f"This pull request deletes {CONFIG_PATH}; the base branch's copy still applies."
    try:
        head = load_config(CONFIG_PATH, text=head_text)
    except ConfigError as exc:
        return f"This pull request's {CONFIG_PATH} is invalid and would not load: {exc}"
    before, after = base.model_dump(mode="json"), head.model_dump(mode="json")
    changed = sorted(k for k in after if before.get(k) != after.get(k))
    if not changed:
        return f"This pull request edits {CONFIG_PATH} without changing any setting."
    listed = ", ".join(changed)  # plain text: the renderer escapes notes
    return f"This pull request changes {CONFIG_PATH} ({listed}); the base branch's copy applies until it is merged."


def config_json_schema() -> dict[str, Any]:
    """The JSON Schema of the YAML file (shipped as app/schemas/toolchoice-config.schema.json)."""
    schema = RepoConfig.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://toolchoice.dev/schemas/toolchoice-config.schema.json"
    # The YAML allows the short form `TC101: off` (or on, or a severity) for an override.
    override_ref = {"$ref": "#/$defs/RuleOverride"}
    short = {
        "anyOf": [
            override_ref,
            {"type": "boolean"},
            {"enum": sorted(str(v) for v in (_SHORT_OFF | _SHORT_ON | _SEVERITIES) if isinstance(v, str))},
        ]
    }
    schema["$defs"]["RuleSettings"]["properties"]["overrides"]["additionalProperties"] = short
    return schema
