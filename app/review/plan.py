"""Planning one review: which definition files changed, both sides' tools, the base's cases, and the notes.

Reads only through the Source it is given; the config and the cases come from the base branch (a pull
request cannot change how it is judged), and what the PR's own copies would change becomes a note.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeAlias

from pydantic import BaseModel, Field

from app.audit.models import Case, ToolSet
from app.audit.suite.cases_file import load_cases
from app.config import CONFIG_PATH, RepoConfig, config_change_note
from app.errors import DefinitionError
from app.extract.snapshot import load_snapshot
from app.github.definitions import TreeListing
from app.review.models import ReviewInput, Source

# (the base's config, the merge base, the head) -> both sides' tools as their running servers list them, or None
# when there is no server to start and the definition files are read. Only the Action and the command line list
# servers; the App never starts anything.
ListSides: TypeAlias = Callable[[RepoConfig, str, str], "tuple[ToolSet, ToolSet] | None"]


class Plan(BaseModel):
    """What one review audits (`request`), or None when no definition file changed; the notes either way,
    and where the head's definition files are (for the suggestions that follow the results)."""

    notes: list[str] = Field(default_factory=list)
    request: ReviewInput | None = None
    head_blobs: dict[str, str] = Field(default_factory=dict)


def load_side(
    source: Source,
    tree: TreeListing,
    paths: Sequence[str],
    fmt: str,
    *,
    notes: list[str] | None = None,
    said: Callable[[str], None] | None = None,
) -> ToolSet:
    """One side's tools (data files and source files, read statically). With `notes` (the base side), an
    unreadable file is skipped with a note, so a PR that repairs a broken file is not blocked; on the head
    side it raises DefinitionError naming file and line."""

    def skipped(path: str, exc: DefinitionError) -> None:
        assert notes is not None
        notes.append(f"The base version of {path} could not be read ({exc}); it counts as having no tools.")

    return load_snapshot(
        paths,
        blobs=tree.blobs,
        read=lambda blob, path: source.blob_text(blob, path=path),
        fmt=fmt,
        on_error=skipped if notes is not None else None,
        on_summary=said,
    )


def plan_review(
    source: Source,
    *,
    number: int,
    base_sha: str,
    head_sha: str,
    config: RepoConfig,
    report_url: str | None,
    config_path: str = CONFIG_PATH,
    list_sides: ListSides | None = None,
) -> Plan:
    """Both sides at the merge base and the head, when the pull request touches a definition file; with
    `list_sides` and a server to start, both sides as their servers list them, when the tools differ."""
    changed = source.changed_files(number)
    notes: list[str] = []
    if config_path in changed.paths:
        notes.append(config_change_note(config, source.file_text(config_path, head_sha)))
    if changed.truncated:
        notes.append("GitHub lists only the first 3,000 changed files; definition files past them were not seen.")
    touched = any(config.matches(p) for p in changed.paths) or changed.truncated
    if not touched and list_sides is None:
        return Plan(notes=notes)
    merge_base = source.merge_base(base_sha, head_sha)
    listed = list_sides(config, merge_base, head_sha) if list_sides is not None else None
    if listed is not None:
        base, head = listed
        if _same_tools(base, head):
            return Plan(notes=notes)
        cases = _user_cases(source, config, base_sha, changed.paths, notes)
        request = ReviewInput(base=base, head=head, config=config, user_cases=cases, base_ref=merge_base,
                              head_ref=head_sha, notes=notes, report_url=report_url)  # fmt: skip
        return Plan(notes=notes, request=request)
    if not touched:
        return Plan(notes=notes)
    base_tree, head_tree = source.tree(merge_base), source.tree(head_sha)
    for side, tree in (("base", base_tree), ("head", head_tree)):
        if tree.truncated:
            notes.append(f"The {side} tree is too large for one listing; some definition files may be missing.")
    paths = sorted(p for p in set(base_tree.blobs) | set(head_tree.blobs) if config.matches(p))
    fmt = config.format.value
    base = load_side(source, base_tree, paths, fmt, notes=notes)
    head = load_side(source, head_tree, paths, fmt, said=lambda line: notes.append(f"Head: {line}"))
    user_cases = _user_cases(source, config, base_sha, changed.paths, notes)
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


def _same_tools(base: ToolSet, head: ToolSet) -> bool:
    """Whether two listings hold the same tools with the same definitions."""
    return _definitions(base) == _definitions(head)


def _definitions(side: ToolSet) -> list[tuple[str, str]]:
    return sorted((t.name, t.definition_hash()) for t in side.tools)


def _user_cases(
    source: Source, config: RepoConfig, base_sha: str, changed: Sequence[str], notes: list[str]
) -> list[Case]:
    """The base branch's cases file, when the config names one; what is missing or edited becomes a note."""
    if not config.cases:
        return []
    user_cases: list[Case] = []
    cases_text = source.file_text(config.cases, base_sha)
    if cases_text is None:
        notes.append(f"The cases file {config.cases} does not exist on the base branch; no user cases ran.")
    else:
        user_cases = load_cases(config.cases, text=cases_text)
    if config.cases in changed:
        notes.append(f"This pull request edits {config.cases}; the base branch's cases were used.")
    return user_cases
