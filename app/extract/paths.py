"""Walking folders for source files, matching the config's `paths` globs, and mounts across Python files."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path, PurePosixPath

from app.extract.common import FileResult, nearest
from app.extract.python.mounts import apply_mounts

# Folders never walked: dependencies, build output, VCS data.
SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "vendor",
        "dist",
        "build",
        "out",
        ".venv",
        "venv",
        "__pycache__",
        ".tox",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        "site-packages",
        ".next",
        "coverage",
    }
)


# Test code is skipped when folders are walked without globs: its tool definitions are mocks, not the server's.
TEST_GLOBS = (
    "**/tests/**", "**/test/**", "**/__tests__/**", "**/testdata/**", "**/*.test.*", "**/*.spec.*",
    "**/*_test.go", "**/test_*.py", "**/*_test.py", "**/conftest.py",
)


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """fnmatch-style glob on `/`-separated relative paths: `*` and `?` stay in one segment, `**` spans any."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : end].replace("\\", "\\\\")
                out.append(f"[^{body[1:]}]" if body.startswith("!") else f"[{body}]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


def matches(relative: str, globs: Sequence[str]) -> bool:
    """True when the `/`-separated relative path matches one glob (a leading `./` or `/` is ignored)."""
    return any(
        glob_regex(g.strip().lstrip("./") if g.startswith("./") else g.lstrip("/")).match(relative) for g in globs
    )


def walk(folder: Path) -> Iterator[Path]:
    """Files under `folder`, sorted by relative path, skipping dependency and VCS folders."""
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            yield Path(current, name)


def apply_cross_file_mounts(results: Sequence[FileResult]) -> None:
    """Prefix tools of server objects that another file imports and mounts (`main.mount(sub, namespace=...)`)."""
    mounts: list[tuple[str, str, str, str]] = []  # (module of child, parent var, child var, prefix)
    parents: dict[str, str] = {}  # parent var -> the file that mounts into it
    for res in results:
        for parent, child, prefix in res.mounts:
            origin = res.imports.get(child)
            if origin:
                mounts.append((origin.rsplit(".", 1)[0], parent, child, prefix))
                parents[parent] = res.path or res.file
    if not mounts:
        return
    for res in results:
        module = _module_candidates(res.path or res.file)
        local = [(parent, child, prefix) for mod, parent, child, prefix in mounts if _same_module(mod, module)]
        renamed: dict[str, str] = {}
        for draft in res.drafts:
            before = draft.name
            apply_mounts(draft, local)
            if draft.name != before:
                renamed[before] = draft.name
                draft.server_file = parents.get(draft.server or "")
        res.rename_findings(renamed)


def _module_candidates(file: str) -> list[str]:
    parts = list(PurePosixPath(file.replace("\\", "/")).with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return [".".join(parts[i:]) for i in range(len(parts))]


def _same_module(module: str, candidates: list[str]) -> bool:
    return module in candidates




def zod_is_v4(file: Path) -> bool | None:
    """From the nearest package.json that names zod: True for zod 4, False for zod 3, None when unknown."""
    return nearest(file, _package_zod)


@lru_cache(maxsize=1024)
def _package_zod(folder: Path) -> bool | None:
    manifest = folder / "package.json"
    if not manifest.is_file():
        return None
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for section in ("dependencies", "peerDependencies", "devDependencies"):
        spec = (data.get(section) or {}).get("zod") if isinstance(data, dict) else None
        if isinstance(spec, str):
            major = re.search(r"\d+", spec)
            if major:
                return int(major.group()) >= 4
    return None


def mcp_go_lists_empty_required(file: Path) -> bool:
    """mcp-go v0.44 and later send `"required": []` for tools without required parameters; older ones omit it.
    Read from the nearest go.mod; the current behaviour when no go.mod names mcp-go."""
    folder = file.resolve().parent
    for _ in range(8):
        version = _go_mod_mcp_go(folder)
        if version is not None:
            return version >= (0, 44)
        if folder.parent == folder:
            break
        folder = folder.parent
    return True


@lru_cache(maxsize=1024)
def _go_mod_mcp_go(folder: Path) -> tuple[int, int] | None:
    manifest = folder / "go.mod"
    if not manifest.is_file():
        return None
    try:
        match = re.search(r"github\.com/mark3labs/mcp-go\s+v(\d+)\.(\d+)", manifest.read_text(encoding="utf-8"))
    except OSError:
        return None
    return (int(match.group(1)), int(match.group(2))) if match else None


def fastmcp_major(file: Path) -> int | None:
    """The standalone FastMCP major version a project uses, from the nearest uv.lock/poetry.lock (exact), else
    pyproject.toml or requirements*.txt (the first version number of the `fastmcp` requirement)."""
    return nearest(file, _fastmcp_in)


_LOCKED = re.compile(r'name\s*=\s*"fastmcp"\s*\nversion\s*=\s*"(\d+)')
_REQUIRED = re.compile(r"""fastmcp(?:\[[^\]]*\])?\s*((?:[=<>~!]=?|===)[^"'\n#;]*)""", re.IGNORECASE)
# Newest FastMCP major: what an open-ended requirement (`fastmcp>=2.3`) installs today.
FASTMCP_NEWEST = 3


@lru_cache(maxsize=1024)
def _fastmcp_in(folder: Path) -> int | None:
    for name, pattern in (("uv.lock", _LOCKED), ("poetry.lock", _LOCKED), ("pyproject.toml", _REQUIRED),
                          ("requirements.txt", _REQUIRED), ("requirements.in", _REQUIRED), ("setup.cfg", _REQUIRED)):
        path = folder / name
        if not path.is_file():
            continue
        try:
            match = pattern.search(path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if match:
            return int(match.group(1)) if pattern is _LOCKED else _major_of(match.group(1))
    return None


def _major_of(spec: str) -> int | None:
    """The major version a requirement installs: pinned (==, ~=), capped (<N), else the newest."""
    pinned = re.search(r"(?:===?|~=)\s*v?(\d+)", spec)
    if pinned:
        return int(pinned.group(1))
    cap = re.search(r"<\s*v?(\d+)(?:\.(\d+))?", spec)
    if cap:
        major, minor = int(cap.group(1)), int(cap.group(2) or 0)
        return major if minor > 0 else major - 1
    return FASTMCP_NEWEST if re.search(r">=?\s*v?\d", spec) else None


def mounting_files(path: Path) -> list[Path]:
    """Python files near `path` (its folder and the two above) that may mount the servers it defines."""
    out: list[Path] = []
    for folder in [path.parent, *list(path.parent.parents)[:2]]:
        out.extend(p for p, text in _mounting_in(folder) if p != path and path.stem in text)
    return out


# Per folder: its .py files that call mount()/import_server(), reused while the folder's files are unchanged.
_MOUNTING: dict[Path, tuple[tuple[tuple[str, int, int], ...], list[tuple[Path, str]]]] = {}


def _mounting_in(folder: Path) -> list[tuple[Path, str]]:
    try:
        files = sorted(p for p in folder.glob("*.py") if p.is_file())
        stamp = tuple((p.name, st.st_size, st.st_mtime_ns) for p in files for st in [p.stat()])
    except OSError:
        return []
    hit = _MOUNTING.get(folder)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    found: list[tuple[Path, str]] = []
    for candidate in files:
        try:
            text = candidate.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if "mount(" in text or "import_server(" in text:
            found.append((candidate, text))
    if len(_MOUNTING) >= 256:
        _MOUNTING.pop(next(iter(_MOUNTING)))
    _MOUNTING[folder] = (stamp, found)
    return found
