"""What the other files of a Go package contribute: package-level constants and mcp-go option helpers such as
`func WithPagination() mcp.ToolOption { return func(tool *mcp.Tool) { mcp.WithNumber(...)(tool) } }`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node, Tree

from app.extract.go.declarations import imports_of, type_specs
from app.extract.go.methods import receiver_type
from app.extract.go.values import GoScope
from app.extract.treesitter import captures, parser, text


@dataclass
class GoPackage:
    """Declarations shared by the files of one Go package folder (tests excluded)."""

    constants: dict[str, Node] = field(default_factory=dict)
    # Option helper name -> the mcp option calls it applies, in order.
    helpers: dict[str, list[Node]] = field(default_factory=dict)
    # go-sdk schema helper name -> properties it sets: `func H(s *jsonschema.Schema) *jsonschema.Schema`.
    schema_helpers: dict[str, list[tuple[str, Node]]] = field(default_factory=dict)
    # Function name -> its declaration and the imports of its file (helpers followed by go_calls).
    functions: dict[str, tuple[Node, dict[str, str]]] = field(default_factory=dict)
    types: dict[str, tuple[Node, dict[str, str]]] = field(default_factory=dict)  # type name -> its type, imports
    imports: dict[str, str] = field(default_factory=dict)  # of all its files
    trees: list[Tree] = field(default_factory=list)  # keeps the nodes' trees alive
    files: list[Path] = field(default_factory=list)  # the file of each tree
    _calls: dict[str, list[Node]] | None = None

    def calls_of(self, name: str) -> list[Node]:
        """The calls `name(...)` made anywhere in the package (indexed once)."""
        if self._calls is None:
            self._calls = {}
            for tree in self.trees:
                found = captures("go", _CALLS, tree.root_node).get("call", [])
                for call in sorted(found, key=lambda n: n.start_byte):
                    self._calls.setdefault(text(call.child_by_field_name("function")), []).append(call)  # type: ignore[arg-type]
        return self._calls.get(name, [])


_CALLS = "(call_expression function: (identifier)) @call"
# Package indexes by folder, reused while the folder's .go files are unchanged (extract_file per file of a
# large package would otherwise parse the package once per file).
_CACHE: dict[Path, tuple[tuple[tuple[str, int, int], ...], GoPackage]] = {}
_CACHE_SIZE = 64


def cached_package(folder: Path) -> GoPackage:
    """index_package(folder), reused while no .go file of the folder changed (name, size, mtime)."""
    try:
        stamp = tuple(
            (p.name, st.st_size, st.st_mtime_ns) for p in sorted(folder.glob("*.go")) for st in [p.stat()]
        )
    except OSError:
        return index_package(folder)
    hit = _CACHE.get(folder)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    package = index_package(folder)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[folder] = (stamp, package)
    return package


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
        package.files.append(path)
        package.constants.update(GoScope(tree.root_node).nodes)
        imports = imports_of(tree.root_node)
        package.imports.update(imports)
        package.types.update({name: (node, imports) for name, node in type_specs(tree.root_node).items()})
        for decl in tree.root_node.named_children:
            if decl.type == "function_declaration" and decl.child_by_field_name("name") is not None:
                package.functions[text(decl.child_by_field_name("name"))] = (decl, imports)  # type: ignore[arg-type]
            if decl.type == "method_declaration" and (owner := receiver_type(decl)) is not None:
                # "Type.Method": never an identifier, so no function name collides with it
                package.functions[f"{owner}.{text(decl.child_by_field_name('name') or decl)}"] = (decl, imports)
            if decl.type == "function_declaration":
                options = _helper_options(decl)
                name = decl.child_by_field_name("name")
                if options is not None and name is not None:
                    package.helpers[text(name)] = options
                properties = _schema_helper(decl)
                if properties is not None and name is not None:
                    package.schema_helpers[text(name)] = properties
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


def _schema_helper(decl: Node) -> list[tuple[str, Node]] | None:
    """`func H(s *jsonschema.Schema) *jsonschema.Schema { s.Properties["k"] = v; ...; return s }`: its (k, v)."""
    params = decl.child_by_field_name("parameters")
    result = decl.child_by_field_name("result")
    body = decl.child_by_field_name("body")
    if params is None or result is None or body is None or "jsonschema.Schema" not in text(result):
        return None
    declared = [p for p in params.named_children if p.type == "parameter_declaration"]
    if len(declared) != 1 or "jsonschema.Schema" not in text(declared[0]):
        return None
    name_node = declared[0].child_by_field_name("name")
    if name_node is None:
        return None
    name = text(name_node)
    statements = _statements(body)
    if not statements or statements[-1].type != "return_statement" or text(statements[-1]) != f"return {name}":
        return None
    out: list[tuple[str, Node]] = []
    for stmt in statements[:-1]:
        left = stmt.child_by_field_name("left") if stmt.type == "assignment_statement" else None
        right = stmt.child_by_field_name("right") if stmt.type == "assignment_statement" else None
        target = left.named_children[0] if left is not None and len(left.named_children) == 1 else None
        if target is None or right is None or target.type != "index_expression":
            return None
        operand, index = target.child_by_field_name("operand"), target.child_by_field_name("index")
        if operand is None or text(operand) != f"{name}.Properties" or index is None:
            return None
        if index.type != "interpreted_string_literal" or len(right.named_children) != 1:
            return None
        out.append((text(index).strip('"'), right.named_children[0]))
    return out


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
