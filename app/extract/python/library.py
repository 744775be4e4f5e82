"""Which server library lists a Python file's tools, following an imported server object to where it is built."""

from __future__ import annotations

import ast

from app.extract.python.calls import Module, Opener
from app.extract.python.imports import imported_names, server_library

# Re-exports followed from the importing file to the module that builds the server (`__init__` -> app -> server).
MAX_HOPS = 4
_REGISTERING = {"tool", "add_tool"}


def library_of(tree: ast.Module, opener: Opener | None) -> str | None:
    """SDK or STANDALONE (python_imports) for a module, or None when neither it nor its server's module says."""
    own = server_library(tree)
    if own is not None or opener is None:
        return own
    servers = _server_names(tree)
    for module, level, name, local in imported_names(tree):
        if local in servers:
            opened = opener(module, level)
            found = _library_for(name, opened, 1) if opened is not None else None
            if found is not None:
                return found
    return None


def _library_for(name: str, module: Module, hops: int) -> str | None:
    own = server_library(module.tree)
    if own is not None or hops >= MAX_HOPS:
        return own
    for source, level, imported, local in imported_names(module.tree):
        if local == name:
            opened = module.opener(source, level)
            return _library_for(imported, opened, hops + 1) if opened is not None else None
    return None


def _server_names(tree: ast.Module) -> set[str]:
    """The names tools are registered on: `mcp` of `@mcp.tool()`, `mcp.tool(name=...)(f)`, `app.mcp.add_tool(f)`."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in _REGISTERING:
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name):
                out.add(root.id)
    return out
