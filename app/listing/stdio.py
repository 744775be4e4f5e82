"""Start an MCP server over stdio, initialize, page through `tools/list`, stop it: exactly what a client sees.

The child gets a scrubbed environment (PATH, HOME, locale and temp settings, plus the variables the caller names),
the protocol on stdin and stdout, and one time limit over the whole exchange; its stderr goes to a temporary file
so that a failure can quote its last line. Every failure is one ServerListingError naming the command, the phase
(start, initialize, tools/list) and that line; the SDK's stdio client stops the child (and its process group) when
the exchange ends, on success or failure.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shlex
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from app.errors import InputError

# Variables a server needs to start at all; nothing that carries a credential.
KEPT_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "USER")
DEFAULT_TIMEOUT_S = 60.0
# Pages of tools/list followed at most: a server that keeps handing out cursors is broken, not large.
MAX_PAGES = 1000


class _NotProtocol(logging.Filter):
    """Keeps the lines the SDK's stdio client could not read as JSON-RPC (it logs them and reads on), silencing its
    traceback: stdout is the protocol's, and a server that prints there is reported, not half-read."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            found = re.search(r"input_value='((?:[^'\\]|\\.)*)'", str(record.exc_info[1]))
            self.lines.append(found.group(1) if found else str(record.exc_info[1]).splitlines()[0])
        else:
            self.lines.append(record.getMessage())
        return False


class ServerListingError(InputError):
    """The server command could not be listed; the message names the command, the phase and its last stderr line."""


@dataclass(frozen=True)
class Listed:
    """What the server listed, as MCP tool objects (JSON), and how long starting and listing took."""

    command: str
    tools: list[dict[str, Any]]
    seconds: float
    server: str  # the name and version the server gave at initialize

    def as_json(self) -> str:
        """The listing as a definitions file (`{"tools": [...]}`), which the loader reads like any other."""
        return json.dumps({"tools": self.tools}, indent=2, ensure_ascii=False)


def child_env(names: Sequence[str] = (), environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The child's environment: KEPT_ENV and `names`, taken from `environ` (default: this process's)."""
    source = os.environ if environ is None else environ
    return {k: source[k] for k in (*KEPT_ENV, *names) if k in source}


def list_tools(
    command: str,
    *,
    cwd: Path | None = None,
    env_names: Sequence[str] = (),
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> Listed:
    """Start `command` (split as a shell splits words, run without a shell), list its tools, stop it."""
    argv = shlex.split(command)
    if not argv:
        raise ServerListingError("--server-command is empty")
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=child_env(env_names), cwd=cwd)
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as errlog:
        state = {"phase": "start"}
        started = time.perf_counter()
        noise = _NotProtocol()
        logger = logging.getLogger("mcp.client.stdio")
        logger.addFilter(noise)
        try:
            tools, server = anyio.run(_exchange, params, errlog, state, timeout_s)
        except BaseException as exc:  # every failure of the child becomes one line
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise ServerListingError(_failure(command, state["phase"], exc, errlog, timeout_s)) from None
        finally:
            logger.removeFilter(noise)
        if noise.lines:
            raise ServerListingError(
                f"server command {command!r} wrote to stdout what is not MCP protocol: {noise.lines[0][:200]!r} "
                "(stdout carries the protocol only; a server logs to stderr)"
            )
        return Listed(command=command, tools=tools, seconds=round(time.perf_counter() - started, 3), server=server)


async def _exchange(
    params: StdioServerParameters, errlog: Any, state: dict[str, str], timeout_s: float
) -> tuple[list[dict[str, Any]], str]:
    with anyio.fail_after(timeout_s):
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            state["phase"] = "initialize"
            result = await session.initialize()
            info = getattr(result, "server_info", None) or getattr(result, "serverInfo", None)
            server = f"{getattr(info, 'name', '?')} {getattr(info, 'version', '')}".strip()
            state["phase"] = "tools/list"
            tools: list[dict[str, Any]] = []
            cursor: str | None = None
            for _ in range(MAX_PAGES):
                page = await session.list_tools(params={"cursor": cursor} if cursor else None)  # type: ignore[arg-type]
                tools.extend(t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in page.tools)
                cursor = getattr(page, "next_cursor", None) or getattr(page, "nextCursor", None)
                if not cursor:
                    break
            state["phase"] = "stop"
            return tools, server


def _failure(command: str, phase: str, exc: BaseException, errlog: Any, timeout_s: float) -> str:
    if isinstance(exc, TimeoutError) or "TimeoutError" in type(exc).__name__:
        why = f"no answer within {timeout_s:g} s"
    elif isinstance(exc, FileNotFoundError | PermissionError):
        why = f"cannot run it ({exc.strerror or exc})"
    else:
        why = _first_cause(exc)
    errlog.flush()
    errlog.seek(0)
    lines = [line.strip() for line in errlog.read().splitlines() if line.strip()]
    last = f"; its stderr ended with: {lines[-1][:300]}" if lines else ""
    return f"server command {command!r} failed at {phase}: {why}{last}"


def _first_cause(exc: BaseException) -> str:
    """The innermost message of an exception group (anyio wraps the child's failure in one)."""
    inner = getattr(exc, "exceptions", None)
    while inner:
        exc = inner[0]
        inner = getattr(exc, "exceptions", None)
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:300]
