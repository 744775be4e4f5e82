"""The names a TS/JS file takes from relative modules: imports (named, default, `* as ns`) and re-exports."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from tree_sitter import Node

from app.extract.treesitter import captures, string_children, text


class ModuleScope(Protocol):
    """What a file's scope (ts_values.Scope) holds for the files that import it."""

    nodes: dict[str, Node]  # name -> the expression defining it
    namespaces: dict[str, dict[str, Node]]
    enums: dict[str, dict[str, Node]]
    enum_sizes: dict[str, int]
    owners: dict[Node, Any]  # root of each file read -> that file's scope


# Loads a relative module ("./schemas.js") and returns its scope (None when not found or not followed).
ModuleLoader = Callable[[str], "ModuleScope | None"]

_STATEMENTS = """
(import_statement source: (string)) @statement
(export_statement source: (string)) @statement
"""
# The name `export default <expr>` is filed under: a reserved word, so never a variable of the module.
DEFAULT_EXPORT = "default"


def bind_imports(scope: ModuleScope, root: Node, language: str, modules: ModuleLoader) -> None:
    """Adds to `scope` the values, enums and namespaces its relative imports and re-exports name; the
    imported values stay in their own module's scope, which resolves the names they use."""
    own = set(scope.nodes)
    for statement in captures(language, _STATEMENTS, root).get("statement", []):
        source = statement.child_by_field_name("source")
        spec = string_children(source) if source is not None else ""
        if not spec.startswith("."):
            continue
        foreign = modules(spec)
        if foreign is None:
            continue
        scope.owners.update(foreign.owners)
        if statement.type == "export_statement":
            _reexport(scope, statement, foreign, own)
            continue
        for clause in statement.named_children:
            if clause.type != "import_clause":
                continue
            for part in clause.named_children:
                if part.type == "identifier" and DEFAULT_EXPORT in foreign.nodes and text(part) not in own:
                    scope.nodes[text(part)] = foreign.nodes[DEFAULT_EXPORT]
                elif part.type == "namespace_import" and part.named_children:
                    scope.namespaces[text(part.named_children[-1])] = foreign.nodes
                elif part.type == "named_imports":
                    for spec_node in part.named_children:
                        _bind(scope, spec_node, foreign, own)


def _reexport(scope: ModuleScope, statement: Node, foreign: ModuleScope, own: set[str]) -> None:
    """`export * from "./x"`, `export { A as B } from "./x"`, `export * as ns from "./x"`."""
    clauses = [c for c in statement.named_children if c.type in {"export_clause", "namespace_export"}]
    if not clauses:
        for name, node in foreign.nodes.items():
            if name != DEFAULT_EXPORT and name not in own:
                scope.nodes.setdefault(name, node)
        for name, members in foreign.enums.items():
            scope.enums.setdefault(name, members)
            scope.enum_sizes.setdefault(name, foreign.enum_sizes.get(name, len(members)))
        return
    for clause in clauses:
        if clause.type == "namespace_export" and clause.named_children:
            scope.namespaces[text(clause.named_children[-1])] = foreign.nodes
        for spec_node in clause.named_children if clause.type == "export_clause" else []:
            _bind(scope, spec_node, foreign, own)


def _bind(scope: ModuleScope, spec_node: Node, foreign: ModuleScope, own: set[str]) -> None:
    name_node = spec_node.child_by_field_name("name")
    alias_node = spec_node.child_by_field_name("alias") or name_node
    if name_node is None or alias_node is None:
        return
    name, alias = text(name_node), text(alias_node)
    if alias in own:
        return  # the module's own declaration of that name wins
    if name in foreign.nodes:
        scope.nodes[alias] = foreign.nodes[name]
    if name in foreign.enums:
        scope.enums[alias] = foreign.enums[name]
        scope.enum_sizes[alias] = foreign.enum_sizes.get(name, len(foreign.enums[name]))
    if name in foreign.namespaces:
        scope.namespaces[alias] = foreign.namespaces[name]
