"""One side of a before/after read from a commit's files given as texts: data files through the loader, source
files extracted statically from a private temporary copy.

The GitHub App (blobs over the REST API) and `toolchoice diff --git` (blobs from the local object store) both
call `load_snapshot`, so both read a commit the same way. Source files are written, with the files they may
read values from (the source files of their folder and the two folders above, and the package manifests on
the way to the root), into a temporary folder that is deleted afterwards: imports between files resolve as
they would in the repository, and nothing of the working tree or of another commit is read. Nothing is run.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path, PurePosixPath

from app.audit.loader import load_definitions, merge_toolsets
from app.audit.models import ToolSet
from app.errors import DefinitionError
from app.extract import detect_language, extract_file, is_source_file
from app.extract.common import UNRESOLVED_RULE, Language
from app.extract.summary import (
    ExtractionSummary,
    nothing_read_in,
    registering_lines,
    registration_lines,
    said_once,
    unread_finding,
    unread_sites,
)

# Files the extractor consults to know a framework's version (zod 3 or 4, FastMCP 2 or 3, mcp-go's rules).
MANIFESTS = frozenset({"package.json", "pyproject.toml", "go.mod", "requirements.txt", "setup.cfg"})
# How many folders above a source file are copied (FastMCP mounts are looked up that far; see paths.py).
CONTEXT_LEVELS = 2
# At most this many context files per side: a server package's neighbours; bounded because the App reads each one
# over the API (identical blobs on both sides are read once).
MAX_CONTEXT_FILES = 100

# Reads the text of one file: (blob id, repository path) -> text. Raises DefinitionError when it cannot.
ReadBlob = Callable[[str, str], str]
# Called for a file that could not be read, when the caller wants to go on without it.
OnError = Callable[[str, DefinitionError], None]
# Receives one sentence for people about the source files read, when there is something to say.
OnSummary = Callable[[str], None]


def context_paths(paths: Sequence[str], blobs: Mapping[str, str]) -> list[str]:
    """The files beside and above the source files of `paths` that extraction may read values from: manifests
    and the source files of the definitions' own folders first, then those of the folders above."""
    own: set[PurePosixPath] = set()
    above: set[PurePosixPath] = set()
    for path in paths:
        if is_source_file(Path(path)):
            parent = PurePosixPath(path).parent
            own.add(parent)
            above.update(list(parent.parents)[:CONTEXT_LEVELS])
    if not own:
        return []
    wanted = set(paths)
    ranked: list[tuple[int, str]] = []
    for candidate in blobs:
        pure = PurePosixPath(candidate)
        if candidate in wanted:
            continue
        if pure.name in MANIFESTS and any(pure.parent == f or pure.parent in f.parents for f in own):
            ranked.append((0, candidate))
        elif is_source_file(Path(candidate)) and (pure.parent in own or pure.parent in above):
            ranked.append((1 if pure.parent in own else 2, candidate))
    return [path for _, path in sorted(ranked)[:MAX_CONTEXT_FILES]]


def load_snapshot(
    paths: Sequence[str],
    *,
    blobs: Mapping[str, str],
    read: ReadBlob,
    fmt: str = "auto",
    on_error: OnError | None = None,
    on_summary: OnSummary | None = None,
) -> ToolSet:
    """The tools of the files `paths` (repository paths, `/`-separated) of one commit, whose blob ids are
    `blobs` (path -> id; paths missing there are skipped). A file that cannot be read raises DefinitionError
    naming it, or is passed to `on_error` and counts as having no tools. `on_summary` hears, in one sentence,
    when source files register tools that could not be read (a review must never pass them over in silence);
    such a file also gets a TC090 finding."""
    present = [p for p in paths if p in blobs]
    sources = [p for p in present if is_source_file(Path(p))]
    sets: list[ToolSet] = []
    counted = ExtractionSummary()
    with tempfile.TemporaryDirectory(prefix="toolchoice-snapshot-") as tmp:
        root = Path(tmp)
        if sources:
            for path in context_paths(sources, blobs):
                _write(root, path, _read_quietly(read, blobs[path], path))
        for path in present:
            try:
                text = read(blobs[path], path)
                if path in sources:
                    _write(root, path, text)
                    found = extract_file(root / path, display_name=path)
                    sets.append(_counted(counted, path, text, found))
                else:
                    sets.append(load_definitions(path, text=text, fmt=fmt))
            except DefinitionError as exc:
                if on_error is None:
                    raise
                on_error(path, exc)
    merged = merge_toolsets(sets) if sets else ToolSet()
    if not merged.tools and not counted.sites and counted.registering:
        findings = nothing_read_in(counted.registering_at)
        merged = merged.model_copy(update={"load_findings": [*merged.load_findings, *findings]})
        counted.unresolved += len(findings)
    loss = counted.sites and (not counted.tools or counted.unread_sites)
    if on_summary is not None and (loss or (not merged.tools and counted.registering)):
        on_summary(counted.line())
    return merged


def _counted(counted: ExtractionSummary, path: str, text: str, found: ToolSet) -> ToolSet:
    """Adds one source file to the counts; registration-shaped lines that no tool and no TC090 accounts for get a
    TC090 of their own, and a reason repeated for many tools of the file is said once."""
    language = detect_language(Path(path), text)
    sites = registration_lines(text, Language(language)) if language else []
    spans = [(t.location.tool_lines.start, t.location.tool_lines.end)
             for t in found.tools if t.location is not None and t.location.tool_lines is not None]
    unread = unread_sites(sites, spans, found.load_findings) if sites else []
    findings = said_once([*found.load_findings, *([unread_finding(path, unread, text=text)] if unread else [])])
    registering = registering_lines(text, Language(language)) if language else []
    counted.registering_at.extend((path, n) for n in registering)
    counted.add(path, sites=sites, tools=len(found.tools), unread=unread,
                unresolved=sum(f.rule_id == UNRESOLVED_RULE for f in findings), registering=len(registering))
    return found if findings == found.load_findings else found.model_copy(update={"load_findings": findings})


def _read_quietly(read: ReadBlob, blob: str, path: str) -> str:
    """A context file's text; one that cannot be read is left empty (the values it held stay unresolved and
    become findings, never guesses)."""
    try:
        return read(blob, path)
    except DefinitionError:
        return ""


def _write(root: Path, path: str, text: str) -> None:
    target = root / PurePosixPath(path)
    if root.resolve() not in target.resolve().parents:
        raise DefinitionError("the path leaves the repository", file=path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
