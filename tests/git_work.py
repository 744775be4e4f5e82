"""A real git repository in a temporary folder for tests: commits of whole file sets, branches, no network."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

# A fixed identity and dates: commits (and so SHAs) do not depend on the machine or the clock.
_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": "/nonexistent",
}


class GitWork:
    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        env = {**os.environ, **_ENV}
        out = subprocess.run(["git", *args], cwd=self.root, env=env, capture_output=True, text=True, check=True)
        return out.stdout.strip()

    def write(self, files: dict[str, str | None]) -> None:
        """Write (or, for None, delete) files in the working tree."""
        for path, text in files.items():
            target = self.root / path
            if text is None:
                target.unlink(missing_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")

    def commit(self, files: dict[str, str | None], message: str = "change") -> str:
        """Write the files, commit everything, return the new commit's SHA."""
        self.write(files)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD")

    def branch(self, name: str) -> None:
        self.git("checkout", "-q", "-b", name)
