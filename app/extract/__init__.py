"""Reading tool definitions from source code without running it: Python (ast), TypeScript/JavaScript and Go
(tree-sitter).

Public API (stable; the audit, diff and suggest commands call it for source files):

- `detect_language(path, text=None)` -> "python" | "typescript" | "javascript" | "go" | None (None: a data file
  or anything else; the data-file loader in app/audit/loader.py reads those).
- `is_source_file(path)` -> bool.
- `extract_file(path, *, display_name=None, text=None, language=None)` -> ToolSet of the tools one file defines,
  in source order. Each Tool's `to_mcp()` is what an MCP client would receive; `Tool.location` holds the file
  (`display_name`, else the path as given) and the lines of the tool, its name, its description and each
  parameter description. What cannot be known without running the code becomes a TC090 finding
  ("could not be read statically") in `ToolSet.load_findings`, never a guessed value.
- `extract_paths(paths, *, root=None, globs=None, languages=None)` -> one ToolSet for files and folders;
  `extract_paths_summarized(...)` -> (that ToolSet, an ExtractionSummary: files read, registration sites found
  by a line scan, tools read, TC090 count, files with sites but no tool; `summary.line()` is one sentence for a
  person). A file with registration sites but no tool and no other TC090 gets a TC090 finding of its own.
  Folders are walked (dependency, build and dot folders skipped; test code too unless `globs` are given) in
  sorted order. With `globs`, a file is read
  only when its `/`-separated path relative to `root` (else relative to the folder given) matches one glob:
  fnmatch-style, `*` and `?` within one path segment, `**` across segments (`src/**/*.py` matches `src/a.py`).
  `languages` ({glob: language}) sets the language where the extension does not say it (the config's per-glob
  format); a glob set to a data format ("json", "yaml") leaves those files to the data-file loader.
  FastMCP `mount(sub, namespace=...)` prefixes are applied across the Python files read together.
- Values defined in other files are read (never run) where the language says where they are: Python constants
  of modules imported with `from <module> import NAME` (relative, or found above the file) and the handlers
  registered by calls (`mcp.tool(name=...)(handler)`, python_calls.py), TS/JS constants and zod schemas of
  relatively imported modules (`import { X } from "./schemas.js"`, `import * as s`), and for Go the constants,
  option helpers and functions of the package folder and of the module's other packages (go.mod): helpers are
  followed statement by statement with their arguments bound (go/statements.py), types to their declarations for
  schemas derived from Go structs (go_structs.py).

Nothing is imported, executed, compiled or built: Python is parsed with `ast.parse`, the others with tree-sitter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from app.audit.characters import check_tool
from app.audit.models import ToolSet
from app.errors import DefinitionError
from app.extract.common import FileResult, Language
from app.extract.go.conversions import apply_conversions
from app.extract.go.package import GoPackage, cached_package
from app.extract.paths import TEST_GLOBS, apply_cross_file_mounts, fastmcp_major, matches, mounting_files, walk
from app.extract.python.modules import PyModules
from app.extract.python.mounts import apply_listing_transforms
from app.extract.python.source import extract_python
from app.extract.summary import (
    ExtractionSummary,
    nothing_read,
    registering_lines,
    registration_lines,
    said_once,
    silent_files,
    summarize,
)
from app.extract.typescript.modules import Modules

__all__ = [
    "ExtractionSummary", "Language", "detect_language", "extract_file", "extract_paths", "extract_paths_summarized",
    "is_source_file",
]

_EXTENSIONS = {
    ".py": Language.PYTHON,
    ".pyi": Language.PYTHON,
    ".ts": Language.TYPESCRIPT,
    ".mts": Language.TYPESCRIPT,
    ".cts": Language.TYPESCRIPT,
    ".tsx": Language.TYPESCRIPT,
    ".js": Language.JAVASCRIPT,
    ".mjs": Language.JAVASCRIPT,
    ".cjs": Language.JAVASCRIPT,
    ".jsx": Language.JAVASCRIPT,
    ".go": Language.GO,
}
_LANGUAGE_NAMES = frozenset(lang.value for lang in Language)
# Files larger than this are not source a person wrote (bundles, generated code); reading them would be slow.
MAX_SOURCE_BYTES = 5_000_000


def detect_language(path: Path, text: str | None = None) -> str | None:
    """The source language of a file from its extension, or from a shebang line for extensionless scripts."""
    lang = _EXTENSIONS.get(path.suffix.lower())
    if lang is not None:
        return lang.value
    if path.suffix == "" and text is not None and text.startswith("#!"):
        first = text.split("\n", 1)[0]
        if "python" in first:
            return Language.PYTHON.value
        if "node" in first or "deno" in first or "bun" in first:
            return Language.JAVASCRIPT.value
    return None


def is_source_file(path: Path) -> bool:
    return path.suffix.lower() in _EXTENSIONS


def extract_file(
    path: Path, *, display_name: str | None = None, text: str | None = None, language: str | None = None
) -> ToolSet:
    """The tools one source file defines (see the module docstring). Tools come from this file only; values
    may come from the files it names (imported modules, the other files of its Go package), and a FastMCP
    sub-server's namespace from the file nearby that mounts it."""
    context = _Context()
    result = _extract(path, display_name=display_name, text=text, language=language, context=context)
    if result.language is Language.PYTHON and path.exists() and any(d.server for d in result.drafts):
        # A sub-server's tools are listed under the namespace another file mounts it with.
        others = [_extract(p, display_name=str(p), text=None, language="python", context=context)
                  for p in mounting_files(path.resolve())]
        apply_cross_file_mounts([result, *others])
        apply_listing_transforms([result, *others])
    return _toolset([result])


def extract_paths(
    paths: Sequence[Path],
    *,
    root: Path | None = None,
    globs: Sequence[str] | None = None,
    languages: Mapping[str, str] | None = None,
) -> ToolSet:
    """The tools of several files and folders, in path order then source order (see the module docstring).
    `languages` maps globs to a language ("python", "typescript", "javascript", "go") for files whose extension
    does not say it; files it maps to anything else (e.g. "json") are data files and are skipped here."""
    return extract_paths_summarized(paths, root=root, globs=globs, languages=languages)[0]


def extract_paths_summarized(
    paths: Sequence[Path],
    *,
    root: Path | None = None,
    globs: Sequence[str] | None = None,
    languages: Mapping[str, str] | None = None,
) -> tuple[ToolSet, ExtractionSummary]:
    """extract_paths() and its ExtractionSummary: registration sites found, tools read, TC090 findings, and
    `summary.line()`, one sentence for a person (it says so when sites exist but no tool was read)."""
    results: list[FileResult] = []
    seen: set[Path] = set()
    context = _Context()
    forced = dict(languages or {})
    for given in paths:
        if not given.exists():
            raise DefinitionError("no such file or folder", file=str(given))
        candidates = list(walk(given)) if given.is_dir() else [given]
        for file in candidates:
            base = root if root is not None else (given if given.is_dir() else None)
            relative = _relative(file, base)
            language = next((lang for glob, lang in forced.items() if matches(relative, [glob])), None)
            if language is not None and language not in _LANGUAGE_NAMES:
                continue  # set to a data format: the data-file loader reads it
            if language is None and given.is_dir() and not is_source_file(file):
                continue
            if language is None and globs and not matches(relative, globs):
                continue
            if not globs and given.is_dir() and matches(_relative(file, given), TEST_GLOBS):
                continue
            if file.resolve() in seen:
                continue
            seen.add(file.resolve())
            display = relative if root is not None else str(file)
            results.append(_extract(file, display_name=display, text=None, language=language, context=context))
    apply_cross_file_mounts(results)
    apply_listing_transforms(results)
    apply_conversions(results)
    toolset = _toolset(results)
    return toolset, summarize(results, toolset.load_findings)


class _Context:
    """What one extraction run reads once: Go package folders and imported TS/JS modules."""

    def __init__(self) -> None:
        self.packages: dict[Path, GoPackage] = {}
        self.modules = Modules()
        self.py_modules = PyModules()

    def package(self, file: Path) -> GoPackage | None:
        if not file.exists():
            return None
        folder = file.resolve().parent
        if folder not in self.packages:
            self.packages[folder] = cached_package(folder)
        return self.packages[folder]


def _extract(
    path: Path, *, display_name: str | None, text: str | None, language: str | None, context: _Context
) -> FileResult:
    display = display_name if display_name is not None else str(path)
    from_disk = text is None
    if text is None:
        text = _read(path, display)
    result = _extract_one(path, display_name=display_name, text=text, language=language, context=context,
                          from_disk=from_disk)
    if path.exists():
        result.path = path.resolve().as_posix()
    if not result.other_framework:
        skipped = result.listed_at_calls | result.not_sites
        result.sites = [n for n in registration_lines(text, result.language) if n not in skipped]
        result.registering = registering_lines(text, result.language)
    return result


def _extract_one(
    path: Path, *, display_name: str | None, text: str | None, language: str | None, context: _Context,
    from_disk: bool = False,
) -> FileResult:
    display = display_name if display_name is not None else str(path)
    text = text if text is not None else _read(path, display)
    lang = language or detect_language(path, text)
    if lang is None:
        raise DefinitionError("not a Python, TypeScript, JavaScript or Go source file", file=display)
    try:
        kind = Language(lang)
    except ValueError:
        raise DefinitionError(f"unknown source language {lang!r}", file=display) from None
    if kind is Language.PYTHON:
        on_disk = path.exists()
        py_modules = context.py_modules.loader(path.resolve()) if on_disk else None
        opener = context.py_modules.opener(path.resolve()) if on_disk else None
        major = (fastmcp_major(path) if on_disk else None) or 3
        # Read from disk: the tree its importers may also need, parsed once per run.
        tree = context.py_modules.tree(path.resolve()) if from_disk else None
        return extract_python(text, file=display, modules=py_modules, fastmcp_major=major, opener=opener,
                              origin=path.resolve() if on_disk else None, tree=tree)
    if kind is Language.GO:
        from app.extract.go.source import extract_go
        from app.extract.paths import mcp_go_lists_empty_required

        empty_required = mcp_go_lists_empty_required(path) if path.exists() else True
        from app.extract.go.declarations import module_of

        module = module_of(path.resolve().parent) if path.exists() else None
        return extract_go(text, file=display, empty_required=empty_required, package=context.package(path),
                          module=module, folder=path.resolve().parent if path.exists() else None)
    from app.extract.paths import zod_is_v4
    from app.extract.typescript.source import extract_ts

    zod4 = zod_is_v4(path) if path.exists() else None
    modules = context.modules.loader(path.resolve()) if path.exists() else None
    return extract_ts(text, file=display, language=kind, zod4=zod4, modules=modules)


def _read(path: Path, display: str) -> str:
    try:
        if path.stat().st_size > MAX_SOURCE_BYTES:
            raise DefinitionError(f"larger than {MAX_SOURCE_BYTES} bytes; not read as source", file=display)
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DefinitionError("no such file", file=display) from None
    except UnicodeDecodeError as exc:
        raise DefinitionError(f"not UTF-8 text (byte {exc.start})", file=display) from None
    except OSError as exc:
        raise DefinitionError(f"cannot be read ({exc.strerror})", file=display) from None


def _relative(file: Path, base: Path | None) -> str:
    if base is None:
        return file.as_posix()
    try:
        return file.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return file.as_posix()


def _toolset(results: Sequence[FileResult]) -> ToolSet:
    tools = [tool for res in results for tool in res.tools()]
    for tool in tools:
        check_tool(tool, error=DefinitionError)
    findings = said_once([f for res in results for f in res.findings] + silent_files(results) + nothing_read(results))
    findings.sort(key=lambda f: (f.file or "", f.line or 0, f.message))
    return ToolSet(tools=tools, sources=[res.file for res in results], load_findings=findings)
