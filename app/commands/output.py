"""Where the command line's output leaves the process: every report, diff, listing and message is written here.

Everything written is redacted (`app/redaction/exits.scrub`) unless the user asked for `--no-redact`, and
that is honoured only on an interactive terminal outside CI: output that goes to a file, a pipe or a CI
log is what ends up in artifacts, code scanning and build logs, where a secret stays readable for as long
as they are kept. `--no-redact` there is refused (exit 2) rather than ignored, so a workflow that asks for
raw output fails loudly instead of seeming to have none. Error messages are always redacted.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from app.errors import InputError
from app.redaction.exits import install_log_redaction, scrub

NoRedactOpt = Annotated[
    bool,
    typer.Option(
        "--no-redact",
        help="Print secrets found in the input verbatim (only on your own terminal; refused in CI and "
        "when the output goes to a file or a pipe).",
    ),
]

# Variables CI services set; any of them (not empty, not "false"/"0") means the output lands in a CI log.
CI_VARIABLES = ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "JENKINS_URL", "TF_BUILD", "CIRCLECI", "TRAVIS")


def in_ci(env: Mapping[str, str]) -> str | None:
    """The CI variable that is set, if any."""
    for name in CI_VARIABLES:
        if env.get(name, "").strip().lower() not in ("", "false", "0"):
            return name
    return None


def stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


class Writer:
    """Writes one command's output; built once per command from its `--no-redact` and `--output` options."""

    def __init__(self, *, no_redact: bool = False, output: Path | None = None, env: Mapping[str, str] | None = None):
        self.output = output
        self.redact = True
        if no_redact:
            refusal = self._refusal(output, os.environ if env is None else env)
            if refusal:
                raise InputError(
                    f"--no-redact refused: {refusal}; nothing was written (without --no-redact the output is redacted)"
                )
            self.redact = False

    @staticmethod
    def _refusal(output: Path | None, env: Mapping[str, str]) -> str | None:
        ci = in_ci(env)
        if ci:
            return f"{ci} is set, so this runs in CI and the output would land in a build log"
        if output is not None:
            return "the output goes to a file"
        if not stdout_is_terminal():
            return "the output is not a terminal (a pipe or a file)"
        return None

    def write(self, text: str, *, keep: Iterable[str] = (), inputs: Iterable[Any] = ()) -> None:
        """The command's result, to `--output` when given, else to stdout. `keep`: our own hashes in `text`;
        `inputs`: what it was made from (tool sets, cases), whose secrets are masked wherever `text` has them."""
        if self.redact:
            text = scrub(text, keep=keep, inputs=inputs)
        if self.output is None:
            typer.echo(text, nl=not text.endswith("\n"))
            return
        try:
            self.output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write the report: {exc.strerror}", file=str(self.output)) from None

    def message(self, text: str) -> None:
        """A line for the person running the command (stderr), always redacted."""
        message(text)


def message(text: str) -> None:
    """A line on stderr (errors, gate failures, what was written), always redacted."""
    typer.echo(scrub(text), err=True)


def redact_logs() -> None:
    """Every log line of the process redacted too (the CLI's entry point calls this once)."""
    install_log_redaction()
