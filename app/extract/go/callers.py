"""Go: whether a function of a package is called, in its package or from another package of the module that
imports it (the files' text searched for the call; nothing run)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tree_sitter import Node

from app.extract.treesitter import text


def called(decl: Node, scope: Any) -> bool:
    """True when the function or method `decl` of this file's package is called in the package or the module."""
    package = scope.package
    if package is None:
        return False
    function = text(decl.child_by_field_name("name") or decl)
    before = r"\." if decl.type == "method_declaration" else r"(?<![\w.])"
    pattern = re.compile(rf"{before}{re.escape(function)}\s*[(\[]")
    if any(pattern.search(text(t.root_node).replace(f"func {function}", "")) for t in package.trees):
        return True
    if scope.module is None or scope.folder is None:
        return False
    try:
        relative = scope.folder.relative_to(scope.module.root).as_posix()
    except ValueError:
        return False
    path = scope.module.path + ("" if relative == "." else f"/{relative}")
    key = ("called from", str(scope.module.root), path, function)
    if key not in scope.wrapped:
        scope.wrapped[key] = _imported_call(scope.module.root, path, function)
    return bool(scope.wrapped[key])


def _imported_call(root: Path, import_path: str, function: str) -> bool:
    from app.extract.paths import walk

    quoted = f'"{import_path}"'
    pattern = re.compile(rf"\.{re.escape(function)}\s*[(\[]")
    for file in walk(root):
        if file.suffix != ".go" or file.name.endswith("_test.go"):
            continue
        try:
            source = file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if quoted in source and pattern.search(source):
            return True
    return False
