"""Both sides of `toolchoice diff --git BASE [HEAD]` read from the local object store, the way the App reads a
pull request: the config and the cases from the base, the definition files at the merge base and the head.

What the head's own copy of the config or the cases would change becomes a note, as in the App (a change
cannot lower its own bar). Source files are read statically (app/extract/snapshot.py); nothing is checked
out or run, unless a `list_side` is given: then it lists each side's tools from its running server (the command
line's `--server-command` or the config's `server:`, app/commands/server.py) and the files are not read.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field

from app.audit.models import Case, ToolSet
from app.commands.git_repo import GitRepo
from app.config import CONFIG_PATH, RepoConfig, config_change_note, load_config
from app.errors import DefinitionError, InputError
from app.extract.snapshot import load_snapshot

# (the config read at BASE, a commit, "base" or "head") -> the tools its running server lists, or None to read files
ListSide = Callable[[RepoConfig, str, str], ToolSet | None]


class GitSides(BaseModel):
    """What a before/after of two commits audits, and what the report should say about how it was read."""

    base: ToolSet
    head: ToolSet
    config: RepoConfig
    config_source: str  # where the config came from, for messages
    user_cases: list[Case] = Field(default_factory=list)
    base_sha: str  # the commit BASE names (config and cases are read there)
    merge_base: str  # what the head is compared against
    head_sha: str
    paths: list[str]  # the definition files found on either side
    changed: list[str]  # those whose content differs between the merge base and the head
    notes: list[str] = Field(default_factory=list)

    def definitions_changed(self) -> bool:
        """True when a definition file changed, or a file its values are read from did (the tools differ)."""
        if self.changed:
            return True
        hashes = [sorted((t.name, t.definition_hash()) for t in side.tools) for side in (self.base, self.head)]
        return hashes[0] != hashes[1]


def _listed(list_side: ListSide | None, cfg: RepoConfig, base: str, head: str) -> tuple[ToolSet, ToolSet] | None:
    """Both sides from their running servers, or None when there is no server to start (files are read)."""
    if list_side is None:
        return None
    before = list_side(cfg, base, "base")
    if before is None:
        return None
    after = list_side(cfg, head, "head")
    if after is None:
        raise InputError("the server could be started at the base but not at the head")
    return before, after


def read_config(
    repo: GitRepo, commit: str, *, override: RepoConfig | None, path: str = CONFIG_PATH
) -> tuple[RepoConfig, str]:
    """The config and where it came from: `override`, else the file `path` at `commit`, else the defaults."""
    if override is not None:
        return override, "--config"
    text = repo.file_text(path, commit)
    if text is None:
        return RepoConfig(), f"the defaults ({path} does not exist at {commit[:7]})"
    return load_config(f"{path}@{commit[:7]}", text=text), f"{path} at {commit[:7]}"


def load_git_sides(
    repo: GitRepo,
    base_ref: str,
    head_ref: str = "HEAD",
    *,
    config: RepoConfig | None = None,
    config_path: str = CONFIG_PATH,
    read_cases: bool = True,
    list_side: ListSide | None = None,
) -> GitSides:
    """Both sides of BASE...HEAD. The config is the file `config_path` at BASE unless `config` (from --config)
    replaces it; `read_cases=False` leaves the cases file out (the command line's --cases replaces it). When
    `list_side` returns tool sets for the config (a server to start), they are the sides instead of the files."""
    base_sha, head_sha = repo.commit(base_ref), repo.commit(head_ref)
    merge_base = repo.merge_base(base_sha, head_sha)
    cfg, config_source = read_config(repo, base_sha, override=config, path=config_path)
    base_tree, head_tree = repo.tree(merge_base), repo.tree(head_sha)
    changed_files = {p for p in set(base_tree) | set(head_tree) if base_tree.get(p) != head_tree.get(p)}
    notes: list[str] = []
    if config is None and config_path in changed_files:
        notes.append(config_change_note(cfg, repo.file_text(config_path, head_sha)))
    paths = sorted(p for p in set(base_tree) | set(head_tree) if cfg.matches(p))
    listed = _listed(list_side, cfg, merge_base, head_sha)
    if listed is not None:
        base, head = listed
        paths = []
    elif not paths:
        globs = ", ".join(cfg.paths)
        raise InputError(
            f"no tool-definition files at {merge_base[:7]} (merge base) or {head_sha[:7]} ({head_ref}): "
            f"no file matches the paths of {config_source}: {globs}. Set `paths:` in {CONFIG_PATH} "
            "to the files that define your tools (JSON/YAML or Python, TypeScript, Go source)."
        )

    def skipped(path: str, exc: DefinitionError) -> None:
        notes.append(f"The base version of {path} could not be read ({exc}); it counts as having no tools.")

    def read(blob: str, path: str) -> str:
        return repo.blob_text(blob, path=path)

    if listed is None:
        fmt = cfg.format.value
        base = load_snapshot(paths, blobs=base_tree, read=read, fmt=fmt, on_error=skipped)
        head = load_snapshot(
            paths, blobs=head_tree, read=read, fmt=fmt, on_summary=lambda line: notes.append(f"Head: {line}")
        )
    user_cases: list[Case] = []
    if read_cases and cfg.cases:
        from app.audit.suite.cases_file import load_cases  # the suite's modules load word forms: only when needed

        cases_text = repo.file_text(cfg.cases, base_sha)
        if cases_text is None:
            notes.append(f"The cases file {cfg.cases} does not exist at {base_sha[:7]}; no user cases ran.")
        else:
            user_cases = load_cases(f"{cfg.cases}@{base_sha[:7]}", text=cases_text)
        if cfg.cases in changed_files:
            notes.append(f"This change edits {cfg.cases}; the base's cases were used.")
    return GitSides(
        base=base,
        head=head,
        config=cfg,
        config_source=config_source,
        user_cases=user_cases,
        base_sha=base_sha,
        merge_base=merge_base,
        head_sha=head_sha,
        paths=paths,
        changed=sorted(p for p in paths if p in changed_files),
        notes=notes,
    )
