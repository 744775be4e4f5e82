"""Definitions from the running server, for the command line and the Action: the `--server-*` options, the
server the config's `server:` section names (flags over it), and one side listed: in a folder, or in a temporary
worktree of a commit after the config's `install` and `build` commands."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import typer

from app.audit.loader import load_definitions
from app.audit.models import ToolSet
from app.commands.git_repo import GitRepo
from app.config import RepoConfig, ServerConfig
from app.errors import InputError

ServerCommandOpt = Annotated[
    str | None,
    typer.Option(
        "--server-command",
        help="Start this MCP server over stdio (in your own CI: it runs on this machine), list its tools and review "
        "exactly what it listed, instead of files (default: the config's server.command).",
    ),
]
ServerEnvOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--server-env",
        help="With --server-command: an environment variable the server is given (repeatable); it gets only PATH, "
        "HOME, locale and temp settings otherwise.",
    ),
]
ServerTimeoutOpt = Annotated[
    float | None,
    typer.Option(
        "--server-timeout", min=1, max=3600, help="With --server-command: seconds to start and list (default 60)."
    ),
]

InstallOpt = Annotated[
    str | None,
    typer.Option("--install-command", help="diff --git with a server: a shell command run in each side's worktree "
                 "before the server starts, e.g. 'npm ci' (default: the config's server.install)."),
]
BuildOpt = Annotated[
    str | None,
    typer.Option("--build-command", help="diff --git with a server: a shell command run after the install, e.g. "
                 "'npm run build' (default: the config's server.build)."),
]

Say = Callable[[str], None]


@dataclass(frozen=True)
class ServerFlags:
    """The `--server-*` flags as given (None: not given)."""

    command: str | None = None
    env: list[str] = field(default_factory=list)
    timeout_s: float | None = None
    install: str | None = None  # diff --git and the Action: run in each side's worktree before the server starts
    build: str | None = None


def server_config(flags: ServerFlags, config: RepoConfig) -> ServerConfig | None:
    """The server to start: the config's `server:` with the flags over it; None when neither names a command."""
    base = config.server
    if flags.command is None and base is None:
        if flags.env or flags.timeout_s is not None or flags.install or flags.build:
            raise InputError("the server's environment, time limit, install and build need a server command "
                             "(--server-command, or the config's server.command)")
        return None
    update: dict[str, object] = {}
    if flags.command is not None:
        update["command"] = flags.command
    if flags.env:
        update["env"] = [*(base.env if base else []), *flags.env]
    if flags.timeout_s is not None:
        update["timeout_s"] = flags.timeout_s
    for key in ("install", "build"):
        if getattr(flags, key):
            update[key] = getattr(flags, key)
    if base is None:
        return ServerConfig.model_validate(update)
    return base.model_copy(update=update)


def list_in(root: Path, server: ServerConfig, *, label: str, say: Say, prepare: bool) -> ToolSet:
    """The tools the server lists when started in `root` (its `cwd` below it), read like a definitions file; with
    `prepare`, the config's install and build commands run in `root` first."""
    from app.listing.stdio import list_tools
    from app.listing.steps import run_step

    cwd = (root / server.cwd).resolve()
    if not cwd.is_dir():
        raise InputError(f"server.cwd {server.cwd!r} is not a folder in {label}")
    if prepare:
        for step, command in (("install", server.install), ("build", server.build)):
            if command:
                seconds = run_step(command, step=step, cwd=cwd, env_names=server.env, timeout_s=server.step_timeout_s)
                say(f"toolchoice: {label}: {step} ({command!r}) took {seconds:.1f} s")
    listed = list_tools(server.command, cwd=cwd, env_names=server.env, timeout_s=server.timeout_s)
    say(
        f"toolchoice: {label}: {len(listed.tools)} tools listed by the running server {listed.server} "
        f"(tools/list of {server.command!r}) in {listed.seconds:.2f} s"
    )
    return load_definitions(f"tools/list of {server.command} ({label})", text=listed.as_json())


def list_at_commit(repo: GitRepo, commit: str, server: ServerConfig, *, label: str, say: Say) -> ToolSet:
    """The tools the server lists at `commit`: a temporary worktree, install, build, list, removed afterwards."""
    with repo.worktree(commit) as path:
        return list_in(path, server, label=f"{label} {commit[:7]}", say=say, prepare=True)
