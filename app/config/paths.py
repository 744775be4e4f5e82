"""Paths of the repository config: where the file is read, the default tool-definition globs, globs as regexes."""

from __future__ import annotations

import re
from functools import cache

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
