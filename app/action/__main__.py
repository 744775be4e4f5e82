"""`python -m app.action`: the Action's entry point (action.yml runs it). Exit 0 when the gate passes, 1 when
it fails, 2 when the run cannot be reviewed (the message says what to fix)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from app.action.context import read_context
from app.action.outputs import workflow_message
from app.action.run import ActionInputs, run_action
from app.audit.gate import Conclusion
from app.audit.models import Mode
from app.config import CONFIG_PATH
from app.errors import ToolChoiceError

_TRUE, _FALSE = {"true", "yes", "on", "1"}, {"false", "no", "off", "0", ""}


def _flag(value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in _TRUE | _FALSE:
        return lowered in _TRUE
    raise argparse.ArgumentTypeError(f"expected true or false, got {value!r}")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m app.action", description=__doc__)
    parser.add_argument("--config", default=CONFIG_PATH, help="the config's path in the repository (read at the base)")
    parser.add_argument("--mode", default="", help="synthetic or live_model (default: the config's)")
    parser.add_argument("--model", default="", help="live_model: the model (default: the config's)")
    parser.add_argument("--fail-on-regression", type=_flag, default=False, help="fail when a scored case regresses")
    parser.add_argument("--comment", type=_flag, default=True, help="post or update the sticky comment")
    parser.add_argument("--sarif-file", default="", help="write SARIF here (empty: none)")
    parser.add_argument("--max-calls", default="", help="live_model: model calls at most (empty: the config's)")
    parser.add_argument("--record", default="", help="live_model: write the answers used to this file")
    parser.add_argument("--replay", default="", help="live_model: answer only from this recording")
    parser.add_argument("--server-command", default="", help="start this MCP server at each side and list its tools")
    parser.add_argument("--install-command", default="", help="with a server: run first in each side's worktree")
    parser.add_argument("--build-command", default="", help="with a server: run after the install")
    parser.add_argument("--server-env", default="", help="with a server: variable names it is given (space or comma)")
    parser.add_argument("--server-timeout", default="", help="with a server: seconds to start and list")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        mode = Mode(args.mode) if args.mode else None
    except ValueError:
        print(workflow_message("error", f"mode must be synthetic or live_model, not {args.mode!r}"))
        return 2
    max_calls = args.max_calls.strip()
    if max_calls and (not max_calls.isdigit() or int(max_calls) < 1):
        print(workflow_message("error", f"max-calls must be a whole number of at least 1, not {args.max_calls!r}"))
        return 2
    timeout = args.server_timeout.strip()
    try:
        server_timeout = float(timeout) if timeout else None
    except ValueError:
        server_timeout = -1.0
    if server_timeout is not None and not 0 < server_timeout <= 3600:
        why = f"server-timeout must be seconds between 1 and 3600, not {args.server_timeout!r}"
        print(workflow_message("error", why))
        return 2
    inputs = ActionInputs(
        config_path=args.config or CONFIG_PATH,
        mode=mode,
        model=args.model or None,
        fail_on_regression=args.fail_on_regression,
        comment=args.comment,
        sarif_file=Path(args.sarif_file) if args.sarif_file else None,
        max_calls=int(max_calls) if max_calls else None,
        record=Path(args.record) if args.record else None,
        replay=Path(args.replay) if args.replay else None,
        server_command=args.server_command.strip() or None,
        install_command=args.install_command.strip() or None,
        build_command=args.build_command.strip() or None,
        server_env=args.server_env.replace(",", " ").split(),
        server_timeout=server_timeout,
    )
    try:
        result = run_action(read_context(os.environ), inputs)
    except ToolChoiceError as exc:
        print(workflow_message("error", f"ToolChoice: {exc}"))
        return 2
    print(f"ToolChoice: {result.conclusion.value}; comment: {result.comment}")
    return 1 if result.conclusion == Conclusion.FAILURE else 0


if __name__ == "__main__":
    sys.exit(main())
