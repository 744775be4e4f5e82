"""Relative imports of TypeScript/JavaScript files: the scope of a `./schemas.js` module (read, never run)."""

from __future__ import annotations

from pathlib import Path

from tree_sitter import Tree

from app.extract.treesitter import parser
from app.extract.typescript.imports import ModuleLoader
from app.extract.typescript.values import Scope

# How deep imports are followed (a.ts imports b.ts, which imports c.ts): enough for schema modules.
MAX_DEPTH = 3
_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".jsx")


class Modules:
    """Parses imported modules once per extraction run; `loader(file)` gives the ModuleLoader of one file."""

    def __init__(self) -> None:
        self._cache: dict[Path, Scope | None] = {}
        self._depths: dict[Path, int] = {}  # how deep each cached module was read (its own imports: fewer)
        self._trees: list[Tree] = []  # keeps the nodes' trees alive

    def loader(self, importer: Path, depth: int = 0) -> ModuleLoader:
        def load(spec: str) -> Scope | None:
            target = _resolve(importer.parent, spec)
            if target is None or depth >= MAX_DEPTH:
                return None
            # Read again when reached by a shorter path: read deep first, it saw fewer of its own imports.
            if target not in self._cache or self._depths[target] > depth + 1:
                self._cache.setdefault(target, None)  # an import cycle sees nothing rather than looping
                self._depths[target] = depth + 1
                self._cache[target] = self._read(target, depth + 1)
            return self._cache[target]

        return load

    def _read(self, path: Path, depth: int) -> Scope | None:
        try:
            source = path.read_bytes()
        except OSError:
            return None
        grammar = "tsx" if path.suffix in {".tsx", ".jsx"} else "javascript" if path.suffix in {
            ".js", ".mjs", ".cjs"} else "typescript"
        tree = parser(grammar).parse(source)
        self._trees.append(tree)
        return Scope(tree.root_node, language=grammar, modules=self.loader(path, depth))


def _resolve(folder: Path, spec: str) -> Path | None:
    """`./x.js` -> x.ts (TypeScript's ESM convention), x.js, or x/index.ts."""
    base = (folder / spec).resolve()
    stem = base.with_suffix("") if base.suffix in _SUFFIXES else base
    for candidate in [*(stem.with_suffix(s) for s in _SUFFIXES), *(stem / f"index{s}" for s in _SUFFIXES)]:
        if candidate.is_file():
            return candidate
    return None
