"""A before/after to run: both sides, the effective settings, the refs and notes; built from two commits of a
local repository (`diff --git`) or given; compared with the identical frozen suite, and its gate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.audit.models import ToolSet
from app.audit.results import Comparison
from app.commands.git_repo import GitRepo
from app.commands.git_sides import GitSides, load_git_sides
from app.commands.inputs import load_config_file
from app.commands.options import CommonOptions, Settings
from app.commands.server import ServerFlags, list_at_commit, server_config
from app.config import CONFIG_PATH, RepoConfig
from app.errors import InputError
from app.selector_factory import make_selector, plan_ranker


@dataclass
class Pair:
    before: ToolSet
    after: ToolSet
    settings: Settings
    refs: tuple[str, str]
    notes: list[str] = field(default_factory=list)
    sides: GitSides | None = None  # how the sides were read, for `diff --git`


def git_pair(
    where: Path,
    base_ref: str,
    head_ref: str,
    *,
    common: CommonOptions,
    config_path: str = CONFIG_PATH,
    server: ServerFlags | None = None,
    say: Callable[[str], None] = print,
    refuse_server: str | None = None,
) -> Pair:
    """BASE...HEAD of the repository holding `where`, read the way the App reads a pull request; the config is
    --config when given, else the file `config_path` at BASE. With a server to start (`server` flags or the
    config's `server:`), each side's tools are what it lists in a temporary worktree of that commit, unless
    `refuse_server` says why no server may be started here (an InputError)."""
    override = load_config_file(common.config) if common.config else None
    repo = GitRepo(where)

    def list_side(config: RepoConfig, commit: str, label: str) -> ToolSet | None:
        found = server_config(server or ServerFlags(), config)
        if found is not None and refuse_server:
            raise InputError(refuse_server)
        return None if found is None else list_at_commit(repo, commit, found, label=label, say=say)

    sides = load_git_sides(
        repo, base_ref, head_ref, config=override, config_path=config_path, read_cases=not common.cases,
        list_side=list_side,
    )
    settings = common.settings(repo_config=sides.config, repo_cases=sides.user_cases)
    return Pair(
        before=sides.base,
        after=sides.head,
        settings=settings,
        refs=(sides.merge_base, sides.head_sha),
        notes=list(sides.notes),
        sides=sides,
    )


def compare_pair(pair: Pair, *, intents: int = 5, repeats: int = 0) -> Comparison:
    """Both sides audited with one frozen suite and compared; the pair's notes added to the report's. In
    live_model mode the model is asked by the settings' plan, and a --record file is written once it is done."""
    from app.audit.engine import audit_pair  # about a second of imports: only when a comparison runs

    settings = pair.settings
    selector = make_selector(
        settings.mode, model=settings.model, concurrency=settings.concurrency, live=settings.live_run
    )
    comparison = audit_pair(
        pair.before,
        pair.after,
        selector=selector,
        user_cases=settings.user_cases,
        rule_settings=settings.config.rules,
        intents_per_tool=intents if settings.config.generate else 0,
        negatives=settings.config.generate,
        repeats=repeats,
        base_ref=pair.refs[0],
        head_ref=pair.refs[1],
        plan=settings.plan,
        ranker=plan_ranker(settings.mode),
        successors=settings.config.successor_rules(),
    )
    save = getattr(selector, "save_recording", None)
    if callable(save):
        save()
    if pair.notes:
        comparison = comparison.model_copy(update={"notes": [*comparison.notes, *pair.notes]})
    return comparison


def diff_gate_args(
    config: RepoConfig, *, fail_under: float | None, max_drop: float | None, fail_on_regression: bool
) -> dict[str, Any]:
    """The gate of a before/after: flags over the config's thresholds (a flag can only add a regression gate)."""
    thresholds = config.thresholds
    return {
        "min_score": fail_under if fail_under is not None else thresholds.min_score,
        "max_drop": max_drop if max_drop is not None else thresholds.max_drop,
        "fail_on_regression": fail_on_regression or thresholds.fail_on_regression,
        "near_ties": thresholds.near_ties,
    }
