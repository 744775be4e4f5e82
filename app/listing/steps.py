"""The config's `install` and `build` commands, run before a server is started in a side's worktree: one shell
command each, the same scrubbed environment as the server, one time limit, the whole process group stopped when
it is over, and on failure one line naming the command, the step and the last line it wrote."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from app.listing.stdio import ServerListingError, child_env

DEFAULT_STEP_TIMEOUT_S = 900.0


def run_step(
    command: str, *, step: str, cwd: Path, env_names: Sequence[str] = (), timeout_s: float = DEFAULT_STEP_TIMEOUT_S
) -> float:
    """Run `command` with `sh -c` in `cwd`; the seconds it took. Its output is kept only for the error message."""
    started = time.perf_counter()
    with tempfile.TemporaryFile(mode="w+b") as out:
        try:
            proc = subprocess.Popen(
                ["sh", "-c", command],
                cwd=cwd,
                env=child_env(env_names),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, so everything it started can be stopped
            )
        except OSError as exc:
            raise ServerListingError(f"{step} command {command!r} could not start: {exc.strerror or exc}") from None
        try:
            code = proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            _stop(proc)
            raise ServerListingError(
                f"{step} command {command!r} did not finish within {timeout_s:g} s{_last_line(out)}"
            ) from None
        except BaseException:
            _stop(proc)
            raise
        finally:
            _stop_group(proc)
        if code != 0:
            raise ServerListingError(f"{step} command {command!r} failed (exit {code}){_last_line(out)}")
    return round(time.perf_counter() - started, 3)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    _stop_group(proc)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _stop_group(proc: subprocess.Popen[bytes]) -> None:
    """Stop what the step left running in its process group (a watcher, a daemon it forked)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def _last_line(out: IO[bytes]) -> str:
    out.flush()
    out.seek(0)
    text = out.read().decode("utf-8", "replace")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return f"; its output ended with: {lines[-1][:300]}" if lines else ""
