"""Planning one review: which definition files changed, both sides' tools, the base's cases, and the notes.

Reads only through the Source it is given; the config and the cases come from the base branch (a pull
request cannot change how it is judged), and what the PR's own copies would change becomes a note.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from app.audit.loader import load_definitions, merge_toolsets
from app.audit.models import Case, ToolSet
from app.audit.suite.cases_file import load_cases
from app.config import CONFIG_PATH, RepoConfig, load_config
from app.errors import ConfigError, DefinitionError
from app.github.definitions import TreeListing
from app.review.models import ReviewInput, Source


class Plan(BaseModel):
    """What one review audits (`request`), or None when no definition file changed; the notes either way,
    and where the head's definition files are (for the suggestions that follow the results)."""

    notes: list[str] = Field(default_factory=list)
    request: ReviewInput | None = None
    head_blobs: dict[str, str] = Field(default_factory=dict)


def config_change_note(base: RepoConfig, head_text: str | None) -> str:
    """What the PR's own copy of the config would change (it takes effect only once merged)."""
    if head_text is None:
        return f"This pull request deletes {CONFIG_PATH}; the base branch's copy still applies."
    try:
        head = load_config(CONFIG_PATH, text=head_text)
    except ConfigError as exc:
        return f"This pull request's {CONFIG_PATH} is invalid and would not load: {exc}"
    before, after = base.model_dump(mode="json"), head.model_dump(mode="json")
    changed = sorted(k for k in after if before.get(k) != after.get(k))
    if not changed:
        return f"This pull request edits {CONFIG_PATH} without changing any setting."
    listed = ", ".join(changed)  # plain text: the renderer escapes notes
    return f"This pull request changes {CONFIG_PATH} ({listed}); the base branch's copy applies until it is merged."


def load_side(
    source: Source, tree: TreeListing, paths: Sequence[str], fmt: str, *, notes: list[str] | None = None
) -> ToolSet:
    """One side's tools. With `notes` (the base side), an unreadable file is skipped with a note, so a PR that
    repairs a broken file is not blocked; on the head side it raises DefinitionError naming file and line."""
    sets = []
    for path in paths:
        if path not in tree.blobs:
            continue
        try:
            sets.append(load_definitions(path, text=source.blob_text(tree.blobs[path], path=path), fmt=fmt))
        except DefinitionError as exc:
            if notes is None:
                raise
            notes.append(f"The base version of {path} could not be read ({exc}); it counts as having no tools.")
    return merge_toolsets(sets) if sets else ToolSet()


def plan_review(
    source: Source, *, number: int, base_sha: str, head_sha: str, config: RepoConfig, report_url: str | None
) -> Plan:
    """Both sides at the merge base and the head, when the pull request touches a definition file."""
    changed = source.changed_files(number)
    notes: list[str] = []
    if CONFIG_PATH in changed.paths:
        notes.append(config_change_note(config, source.file_text(CONFIG_PATH, head_sha)))
    if changed.truncated:
        notes.append("GitHub lists only the first 3,000 changed files; definition files past them were not seen.")
    if not any(config.matches(p) for p in changed.paths) and not changed.truncated:
        return Plan(notes=notes)
    merge_base = source.merge_base(base_sha, head_sha)
    base_tree, head_tree = source.tree(merge_base), source.tree(head_sha)
    for side, tree in (("base", base_tree), ("head", head_tree)):
        if tree.truncated:
            notes.append(f"The {side} tree is too large for one listing; some definition files may be missing.")
    paths = sorted(p for p in set(base_tree.blobs) | set(head_tree.blobs) if config.matches(p))
    fmt = config.format.value
    base = load_side(source, base_tree, paths, fmt, notes=notes)
    head = load_side(source, head_tree, paths, fmt)
    user_cases: list[Case] = []
    if config.cases:
        cases_text = source.file_text(config.cases, base_sha)
        if cases_text is None:
            notes.append(f"The cases file {config.cases} does not exist on the base branch; no user cases ran.")
        else:
            user_cases = load_cases(config.cases, text=cases_text)
        if config.cases in changed.paths:
            notes.append(f"This pull request edits {config.cases}; the base branch's cases were used.")
    request = ReviewInput(
        base=base,
        head=head,
        config=config,
        user_cases=user_cases,
        base_ref=merge_base,
        head_ref=head_sha,
        notes=notes,
        report_url=report_url,
    )
    return Plan(notes=notes, request=request, head_blobs={p: head_tree.blobs[p] for p in paths if p in head_tree.blobs})
