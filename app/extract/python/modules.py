"""Python imports of constants: `from .texts import DESCRIPTION` or `from pkg.texts import ...` read from the
module's file when it is in the tree being read (never imported)."""

from __future__ import annotations

import ast
from pathlib import Path

from app.extract.python.calls import Module, Opener
from app.extract.python.members import Definitions
from app.extract.python.values import ModuleLoader, module_definitions

# How many folders above the importing file an absolute `pkg.module` may start (src/ layouts, monorepos).
MAX_ANCESTORS = 6


class PyModules:
    """Reads each imported module once per extraction run; `loader(file)` gives the ModuleLoader of one file,
    `opener(file)` the modules it imports as trees (for the functions registered as tools)."""

    def __init__(self) -> None:
        self._cache: dict[Path, Definitions | None] = {}
        self._trees: dict[Path, ast.Module | None] = {}
        self._modules: dict[Path, Module | None] = {}
        self._found: dict[tuple[Path, str, int], Path | None] = {}

    def opener(self, importer: Path) -> Opener:
        def open_module(module: str, level: int) -> Module | None:
            target = self._find(importer, module, level)
            if target is None:
                return None
            if target not in self._modules:
                tree = self.tree(target)
                self._modules[target] = None if tree is None else Module(
                    target, tree, self.loader(target), self.opener(target))
            return self._modules[target]

        return open_module

    def loader(self, importer: Path) -> ModuleLoader:
        def load(module: str, level: int) -> Definitions | None:
            target = self._find(importer, module, level)
            if target is None:
                return None
            if target not in self._cache:
                self._cache[target] = None  # an import cycle sees nothing rather than looping
                tree = self.tree(target)
                self._cache[target] = module_definitions(tree) if tree is not None else None
            return self._cache[target]

        return load

    def tree(self, path: Path) -> ast.Module | None:
        """The module's syntax tree, parsed once per run (never imported)."""
        if path not in self._trees:
            try:
                self._trees[path] = ast.parse(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
                self._trees[path] = None
        return self._trees[path]

    def _find(self, importer: Path, module: str, level: int) -> Path | None:
        key = (importer, module, level)
        if key not in self._found:
            self._found[key] = _find(importer, module, level)
        return self._found[key]


def _find(importer: Path, module: str, level: int) -> Path | None:
    parts = [p for p in module.split(".") if p]
    if level > 0:
        bases = [importer.parent.parents[level - 2] if level > 1 else importer.parent]
    else:
        bases = [importer.parent, *list(importer.parents)[1:MAX_ANCESTORS]]
    for base in bases:
        stem = base.joinpath(*parts) if parts else base
        for candidate in (stem.with_suffix(".py") if parts else None, stem / "__init__.py"):
            if candidate is not None and candidate.is_file() and candidate.resolve() != importer.resolve():
                return candidate.resolve()
    return None
