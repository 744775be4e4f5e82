"""What a Python module's imports say about it: an MCP server module, an agent framework's, the SDK's FastMCP."""

from __future__ import annotations

import ast

from app.extract.python_ast import dotted, statements

# Packages whose import marks a file as an MCP server module (FastMCP, the MCP SDK and its low-level types).
_MCP_PACKAGES = {"fastmcp", "mcp"}


def speaks_mcp(tree: ast.Module) -> bool:
    """True when the file imports an MCP package or builds a `...MCP(...)` server object itself."""
    for node in statements(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in _MCP_PACKAGES:
            return True
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] in _MCP_PACKAGES for a in node.names):
            return True
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and (
            (dotted(node.value.func) or "").endswith("MCP")
        ):
            return True
    return False


# Agent frameworks with their own `@x.tool` / `Tool(...)`: a file importing one (and no MCP package) is not
# an MCP server module. A tools module importing its server object from the project is.
OTHER_FRAMEWORKS = {
    "pydantic_ai", "langchain", "langchain_core", "langchain_community", "langgraph", "crewai", "smolagents",
    "llama_index", "autogen", "autogen_core", "semantic_kernel", "haystack", "strands",
}


def imports_any(tree: ast.Module, packages: set[str]) -> bool:
    for node in statements(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in packages and node.level == 0:
            return True
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] in packages for a in node.names):
            return True
    return False


def imports_sdk_fastmcp(tree: ast.Module) -> bool:
    return any(
        isinstance(n, ast.ImportFrom)
        and (n.module or "").startswith("mcp.server.fastmcp")
        and any(a.name == "FastMCP" for a in n.names)
        for n in tree.body
    )
