"""A local git repository read with plumbing (rev-parse, merge-base, ls-tree, cat-file): commits, trees and file
texts, never the working tree, never a hook of the repository run. The one checkout is `worktree`: a temporary
detached worktree of one commit, made only when the user asks to start the server (`--server-command` or the
config's `server:`), with hooks off, and removed when the block ends."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from app.errors import DefinitionError, InputError

# Files larger than this are not definitions a person wrote; reading them would only be slow.
MAX_BLOB_BYTES = 5_000_000
# git must not prompt, page or read the user's replacement refs while we read objects.
_GIT_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "GIT_NO_REPLACE_OBJECTS": "1", "LC_ALL": "C"}


class GitRepo:
    """The repository that holds `path` (its working tree or any folder inside it)."""

    def __init__(self, path: Path) -> None:
        self._cwd = path
        try:
            out = self._git("rev-parse", "--show-toplevel", what="find the repository")
        except InputError:
            raise InputError(
                "not a git repository (or any of its parents); run this inside a clone", file=str(path)
            ) from None
        self.root = Path(out.strip())
        self._texts: dict[str, str] = {}
        self._trees: dict[str, dict[str, str]] = {}

    def _git(self, *args: str, what: str, stdin: bytes | None = None) -> str:
        try:
            proc = subprocess.run(
                ["git", "-c", "core.quotePath=false", *args],
                cwd=self._cwd,
                input=stdin,
                capture_output=True,
                env={**os.environ, **_GIT_ENV},
                check=False,
            )
        except FileNotFoundError:
            raise InputError("git is not installed or not on PATH") from None
        if proc.returncode != 0:
            detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise InputError(f"git could not {what}: {detail[-1] if detail else 'exit ' + str(proc.returncode)}")
        return proc.stdout.decode("utf-8", "replace")

    def commit(self, ref: str) -> str:
        """The full SHA of the commit `ref` names (a branch, tag, SHA, `HEAD~1`, `origin/main`…)."""
        try:
            return self._git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}",
                             what=f"resolve {ref}").strip()
        except InputError:
            raise InputError(
                f"unknown revision {ref!r}: no branch, tag or commit of that name in {self.root} "
                "(in a shallow CI clone, fetch the base first: git fetch origin <branch>)"
            ) from None

    def merge_base(self, base: str, head: str) -> str:
        """The commit a pull request from `head` into `base` is compared against."""
        try:
            return self._git("merge-base", base, head, what=f"find the merge base of {base[:7]} and {head[:7]}").strip()
        except InputError:
            raise InputError(
                f"{base[:12]} and {head[:12]} have no common ancestor (in a shallow clone, fetch more history: "
                "git fetch --deepen=100, or actions/checkout with fetch-depth: 0)"
            ) from None

    def tree(self, commit: str) -> dict[str, str]:
        """Every file of `commit`: repository path -> blob SHA (submodules and symlinks left out)."""
        if commit in self._trees:
            return self._trees[commit]
        out = self._git("ls-tree", "-r", "-z", "--full-tree", commit, what=f"list the files of {commit[:7]}")
        blobs: dict[str, str] = {}
        for entry in out.split("\0"):
            if not entry:
                continue
            meta, path = entry.split("\t", 1)
            mode, kind, sha = meta.split()
            if kind == "blob" and mode in ("100644", "100755"):
                blobs[path] = sha
        self._trees[commit] = blobs
        return blobs

    def blob_text(self, blob: str, *, path: str) -> str:
        """A file's text by blob SHA; identical files on both sides are read once."""
        cached = self._texts.get(blob)
        if cached is not None:
            return cached
        size = int(self._git("cat-file", "-s", blob, what=f"read {path}").strip())
        if size > MAX_BLOB_BYTES:
            raise DefinitionError(f"larger than {MAX_BLOB_BYTES} bytes; not read", file=path)
        raw = self._raw(blob, path)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise DefinitionError(f"not UTF-8 text (byte {exc.start})", file=path) from None
        self._texts[blob] = text
        return text

    def _raw(self, blob: str, path: str) -> bytes:
        env = {**os.environ, **_GIT_ENV}
        args = ["git", "cat-file", "blob", blob]
        proc = subprocess.run(args, cwd=self._cwd, capture_output=True, env=env, check=False)
        if proc.returncode != 0:
            raise DefinitionError("git could not read this file's contents", file=path)
        return proc.stdout

    def file_text(self, path: str, commit: str) -> str | None:
        """A file's text at `commit`, or None when it does not exist there."""
        blob = self.tree(commit).get(path)
        return None if blob is None else self.blob_text(blob, path=path)

    @contextmanager
    def worktree(self, commit: str) -> Iterator[Path]:
        """A temporary detached worktree of `commit` (hooks off), removed with everything built in it afterwards."""
        parent = Path(tempfile.mkdtemp(prefix="toolchoice-side-"))
        path = parent / commit[:12]
        try:
            self._git("-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", "--force", str(path), commit,
                      what=f"check out {commit[:7]} in a temporary worktree")
            yield path
        finally:
            with suppress(InputError):
                self._git("worktree", "remove", "--force", str(path), what="remove the temporary worktree")
            shutil.rmtree(parent, ignore_errors=True)
            with suppress(InputError):
                self._git("worktree", "prune", what="prune temporary worktrees")
