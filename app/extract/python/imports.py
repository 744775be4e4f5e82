"""What a Python module's imports say about it: an MCP server module, an agent framework's, the SDK's FastMCP."""

from __future__ import annotations

import ast

from app.extract.python.syntax import dotted, statements

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
    return server_library(tree) == SDK


SDK, STANDALONE = "sdk", "fastmcp"
# The server classes of the MCP SDK: FastMCP (mcp 1.x, `mcp.server.fastmcp`) and MCPServer (mcp 2.x).
_SDK_SERVERS = {"FastMCP", "MCPServer"}


def server_library(tree: ast.Module) -> str | None:
    """SDK when the module imports the MCP SDK's server class, else STANDALONE when it imports from `fastmcp`."""
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            module = node.module or ""
            if module.startswith("mcp.server") and any(a.name in _SDK_SERVERS for a in node.names):
                found.add(SDK)
            elif module.split(".")[0] == "fastmcp":
                found.add(STANDALONE)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(("mcp.server.fastmcp", "mcp.server.mcpserver")):
                    found.add(SDK)
                elif alias.name.split(".")[0] == "fastmcp":
                    found.add(STANDALONE)
    return SDK if SDK in found else next(iter(found), None)


def imported_names(tree: ast.Module) -> list[tuple[str, int, str, str]]:
    """(module, level, name, local name) of each `from <module> import name` at module level, in source order."""
    return [(node.module or "", node.level, alias.name, alias.asname or alias.name) for node in tree.body
            if isinstance(node, ast.ImportFrom) for alias in node.names]
