"""What the other files of a Go package contribute: package-level constants and mcp-go option helpers such as
`func WithPagination() mcp.ToolOption { return func(tool *mcp.Tool) { mcp.WithNumber(...)(tool) } }`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node, Tree

from app.extract.go_values import GoScope
from app.extract.treesitter import parser, text


@dataclass
class GoPackage:
    """Declarations shared by the files of one Go package folder (tests excluded)."""

    constants: dict[str, Node] = field(default_factory=dict)
    # Option helper name -> the mcp option calls it applies, in order.
    helpers: dict[str, list[Node]] = field(default_factory=dict)
    trees: list[Tree] = field(default_factory=list)  # keeps the nodes' trees alive


def index_package(folder: Path) -> GoPackage:
    """Parse every non-test .go file of `folder` (never built or run) for constants and option helpers."""
    package = GoPackage()
    for path in sorted(folder.glob("*.go")):
        if path.name.endswith("_test.go"):
            continue
        try:
            source = path.read_bytes()
        except OSError:
            continue
        tree = parser("go").parse(source)
        package.trees.append(tree)
        package.constants.update(GoScope(tree.root_node).nodes)
        for decl in tree.root_node.named_children:
            if decl.type == "function_declaration":
                options = _helper_options(decl)
                name = decl.child_by_field_name("name")
                if options is not None and name is not None:
                    package.helpers[text(name)] = options
    return package


def _helper_options(decl: Node) -> list[Node] | None:
    """The `mcp.WithX(...)` calls of `func H() mcp.ToolOption { return func(t *mcp.Tool) { mcp.WithX(...)(t) } }`."""
    params = decl.child_by_field_name("parameters")
    result = decl.child_by_field_name("result")
    body = decl.child_by_field_name("body")
    if params is None or params.named_children or result is None or "ToolOption" not in text(result) or body is None:
        return None
    statements = _statements(body)
    if len(statements) != 1 or statements[0].type != "return_statement":
        return None
    closure = next((n for n in _descendants(statements[0]) if n.type == "func_literal"), None)
    closure_body = closure.child_by_field_name("body") if closure is not None else None
    if closure_body is None:
        return None
    options: list[Node] = []
    for stmt in _statements(closure_body):
        if stmt.type == "comment":
            continue
        call = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else None
        inner = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
        if inner is None or inner.type != "call_expression":
            return None  # anything but `mcp.WithX(...)(tool)` needs the code to run
        options.append(inner)
    return options


def _statements(block: Node) -> list[Node]:
    """Statements of a block (newer grammars wrap them in a statement_list)."""
    nodes = [n for n in block.named_children if n.type != "comment"]
    if len(nodes) == 1 and nodes[0].type == "statement_list":
        nodes = [n for n in nodes[0].named_children if n.type != "comment"]
    return nodes


def _descendants(node: Node) -> list[Node]:
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(current.named_children)
    return out
