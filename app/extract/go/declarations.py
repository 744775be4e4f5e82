"""Go: what a file and its module declare, read without evaluating anything: the module of the nearest go.mod,
a file's imports and types, and a function's parameter names."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tree_sitter import Node

from app.extract.treesitter import text


@dataclass(frozen=True)
class GoModule:
    """The module a Go file belongs to: its go.mod folder and module path."""

    root: Path
    path: str

    def folder(self, import_path: str) -> Path | None:
        """The folder of an import path inside this module, None for other modules."""
        if import_path == self.path:
            return self.root
        if import_path.startswith(self.path + "/"):
            return self.root / import_path[len(self.path) + 1:]
        return None


@cache
def module_of(folder: Path) -> GoModule | None:
    """The module of the nearest go.mod at or above `folder`."""
    for candidate in [folder, *folder.parents]:
        mod = candidate / "go.mod"
        if mod.is_file():
            try:
                for line in mod.read_text(encoding="utf-8", errors="replace").splitlines():
                    if line.startswith("module "):
                        return GoModule(candidate, line.split()[1].strip('"'))
            except OSError:
                return None
            return None
    return None


def imports_of(root: Node) -> dict[str, str]:
    """Import name -> import path of one file (the last path element when no name is given)."""
    out: dict[str, str] = {}
    stack = [c for c in root.named_children if c.type == "import_declaration"]
    while stack:
        node = stack.pop()
        if node.type == "import_spec":
            path_node = node.child_by_field_name("path")
            name_node = node.child_by_field_name("name")
            if path_node is None:
                continue
            path = text(path_node).strip('"`')
            out[text(name_node) if name_node is not None else path.rsplit("/", 1)[-1]] = path
        else:
            stack.extend(node.named_children)
    return out


def type_specs(root: Node) -> dict[str, Node]:
    """Type name -> the type it declares (`type In struct {...}`, `type Mode = string`), for one file."""
    out: dict[str, Node] = {}
    for decl in root.named_children:
        if decl.type != "type_declaration":
            continue
        for spec in decl.named_children:
            name, value = spec.child_by_field_name("name"), spec.child_by_field_name("type")
            if spec.type in {"type_spec", "type_alias"} and name is not None and value is not None:
                out[text(name)] = value
    return out


def parameter_names(decl: Node) -> tuple[list[str], str | None]:
    """The names of a function's parameters in order, and the name of its variadic one (`opts ...Option`)."""
    names: list[str] = []
    variadic: str | None = None
    params = decl.child_by_field_name("parameters")
    for param in params.named_children if params is not None else []:
        if param.type == "variadic_parameter_declaration":
            name = param.child_by_field_name("name")
            variadic = text(name) if name is not None else "_"
        elif param.type == "parameter_declaration":
            names.extend(text(n) for n in param.children_by_field_name("name"))
    return names, variadic
