"""The ToolChoice exception tree. Every exception tells the user what to fix.

ToolChoiceError                 base; `str(e)` is a message for the user
├── InputError                  a file or value we were given is wrong (CLI exit 2)
│   ├── DefinitionError         tool definitions that cannot be read (file, line, tool)
│   ├── CasesError              a cases file that cannot be read
│   ├── ConfigError             .github/toolchoice.yml or --config is invalid (key, line)
│   ├── RuleFileError           a rules/*.yml file breaks rules/schema.json
│   └── ReplayError             a --replay recording that is unreadable, another model's, or lacks an answer
├── CompareError                two reports that cannot be compared (mode, settings, suite)
├── SelectorError               a selector cannot run (live model misconfigured, unreachable)
│   └── LiveModelError          the model endpoint failed after retries; never falls back
│       └── BudgetSpent         a live review's call or cost budget would be passed
└── InfrastructureError         Redis, GitHub or storage failed
    ├── GitHubError             a GitHub API call failed
    └── EgressRefused           an outbound connection would reach a private network (app/egress/)
"""

from __future__ import annotations


class ToolChoiceError(Exception):
    """Base of every error ToolChoice raises on purpose."""


class InputError(ToolChoiceError):
    """Input we were given is wrong; the message names the file, line and problem."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None) -> None:
        self.file = file
        self.line = line
        where = ""
        if file:
            where = f"{file}:{line}: " if line else f"{file}: "
        super().__init__(f"{where}{message}")


class DefinitionError(InputError):
    """Tool definitions that cannot be read at all."""


class CasesError(InputError):
    """A cases file that cannot be read."""


class ConfigError(InputError):
    """A configuration file or value is invalid."""

    def __init__(
        self, message: str, *, file: str | None = None, line: int | None = None, key: str | None = None
    ) -> None:
        self.key = key
        super().__init__(message, file=file, line=line)


class RuleFileError(InputError):
    """A rule file breaks the rule schema."""


class ReplayError(InputError):
    """A recording given to --replay cannot answer: unreadable, made for another model, or an answer missing."""


class CompareError(ToolChoiceError):
    """Two audits that cannot be compared."""


class SelectorError(ToolChoiceError):
    """A selector that cannot run as configured."""


class LiveModelError(SelectorError):
    """The model endpoint failed; the audit fails rather than degrade to synthetic."""


class BudgetSpent(LiveModelError):
    """The next model call would pass the review's budget of calls or cost; nothing past it is spent."""


class InfrastructureError(ToolChoiceError):
    """A service we depend on failed."""


class GitHubError(InfrastructureError):
    """A GitHub API call failed."""


class EgressRefused(InfrastructureError):
    """An outbound connection to a loopback, private, link-local or otherwise non-public address was refused."""
