"""`toolchoice snapshots DIR --server-command CMD`: a running server's tools written as committed snapshots, one
`<tool>.snap` JSON file per tool, for the App to read where it cannot read the server's source (the App never starts
a server; snapshots made in your CI are how it gets the exact definitions)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated

import typer

from app.commands.output import message
from app.commands.server import ServerCommandOpt, ServerEnvOpt, ServerTimeoutOpt
from app.errors import InputError

SUFFIX = ".snap"
# A tool name as a file name: MCP names are [A-Za-z0-9_.-]; anything else becomes "_".
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def snapshot_text(tool: dict) -> str:
    """One tool as its snapshot: JSON with sorted keys and a final newline, so a changed definition is a small diff."""
    return json.dumps(tool, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_snapshots(folder: Path, tools: list[dict]) -> tuple[int, int]:
    """Write one snapshot per tool into `folder` and remove the snapshots of tools the server no longer lists;
    (written, removed)."""
    folder.mkdir(parents=True, exist_ok=True)
    names: dict[str, str] = {}
    for tool in tools:
        name = str(tool.get("name") or "")
        file = _UNSAFE.sub("_", name) or "_"
        if file in names:
            raise InputError(f"tools {names[file]!r} and {name!r} would share the snapshot {file}{SUFFIX}")
        names[file] = name
    for file, tool in zip(names, tools, strict=True):
        (folder / f"{file}{SUFFIX}").write_text(snapshot_text(tool), encoding="utf-8")
    stale = [p for p in sorted(folder.glob(f"*{SUFFIX}")) if p.stem not in names]
    for path in stale:
        path.unlink()
    return len(names), len(stale)


def snapshots_command(
    folder: Annotated[Path, typer.Argument(help="The folder to write, e.g. __toolsnaps__ (read by default).")],
    server_command: ServerCommandOpt = None,
    server_env: ServerEnvOpt = None,
    server_timeout: ServerTimeoutOpt = None,
) -> None:
    """Write a running server's tools as one <tool>.snap file each (stale ones removed), for the App to read."""
    from app.listing.stdio import DEFAULT_TIMEOUT_S, list_tools

    if not server_command:
        raise InputError("snapshots needs --server-command")
    listed = list_tools(
        server_command, cwd=Path.cwd(), env_names=server_env or (), timeout_s=server_timeout or DEFAULT_TIMEOUT_S
    )
    written, removed = write_snapshots(folder, listed.tools)
    message(
        f"toolchoice: wrote {written} snapshots to {folder} ({removed} stale removed) from the running server "
        f"{listed.server}, listed in {listed.seconds:.2f} s"
    )


def register(app: typer.Typer) -> None:
    app.command("snapshots")(snapshots_command)
