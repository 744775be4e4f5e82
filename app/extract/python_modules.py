"""Python imports of constants: `from .texts import DESCRIPTION` or `from pkg.texts import ...` read from the
module's file when it is in the tree being read (never imported)."""

from __future__ import annotations

import ast
from pathlib import Path

from app.extract.python_calls import Module, Opener
from app.extract.python_values import ModuleLoader, module_definitions

# How many folders above the importing file an absolute `pkg.module` may start (src/ layouts, monorepos).
MAX_ANCESTORS = 6


class PyModules:
    """Reads each imported module once per extraction run; `loader(file)` gives the ModuleLoader of one file,
    `opener(file)` the modules it imports as trees (for the functions registered as tools)."""

    def __init__(self) -> None:
        self._cache: dict[Path, dict[str, ast.expr | ast.ClassDef] | None] = {}
        self._trees: dict[Path, Module | None] = {}

    def opener(self, importer: Path) -> Opener:
        def open_module(module: str, level: int) -> Module | None:
            target = _find(importer, module, level)
            if target is None:
                return None
            if target not in self._trees:
                self._trees[target] = None
                try:
                    tree = ast.parse(target.read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
                    return None
                self._trees[target] = Module(target, tree, self.loader(target), self.opener(target))
            return self._trees[target]

        return open_module

    def loader(self, importer: Path) -> ModuleLoader:
        def load(module: str, level: int) -> dict[str, ast.expr | ast.ClassDef] | None:
            target = _find(importer, module, level)
            if target is None:
                return None
            if target not in self._cache:
                self._cache[target] = None
                self._cache[target] = _read(target)
            return self._cache[target]

        return load


def _read(path: Path) -> dict[str, ast.expr | ast.ClassDef] | None:
    try:
        return module_definitions(ast.parse(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None


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
