"""MCP tools to OpenAI function tools, nothing rewritten but names a provider rejects (sent as safe aliases)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.audit.models import NO_TOOL

# What OpenAI accepts as a function name; MCP allows dots and up to 128 characters.
SAFE_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_UNSAFE_CHARS = re.compile(r"[^a-zA-Z0-9_-]")
_MAX_NAME = 64
# Length of the hash suffix that keeps shortened or colliding aliases apart.
_HASH_CHARS = 8


class FunctionTools(BaseModel):
    """The `tools` list sent to the endpoint and the alias map {alias: original MCP name}."""

    model_config = ConfigDict(frozen=True)

    tools: list[dict[str, Any]]
    aliases: dict[str, str] = Field(default_factory=dict)

    def original(self, name: str) -> str:
        """The MCP name behind an answered name (unchanged when it is no alias)."""
        return self.aliases.get(name, name)


def _short_hash(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8")).hexdigest()[:_HASH_CHARS]


def safe_alias(name: str) -> str:
    """A deterministic name matching SAFE_NAME: unsafe characters become `_`; long names are cut and
    end in a short hash of the original. Safe names are returned unchanged."""
    if SAFE_NAME.match(name):
        return name
    base = _UNSAFE_CHARS.sub("_", name) or "tool"
    if len(base) > _MAX_NAME:
        # The hash keeps two long names with one prefix apart.
        base = f"{base[: _MAX_NAME - _HASH_CHARS - 1]}_{_short_hash(name)}"
    return base


def assign_aliases(names: Sequence[str]) -> dict[str, str]:
    """{original: alias} for every name; collision-free across the set (and with the safe names)."""
    # An alias must not read as the abstain answer either.
    taken = {n for n in names if SAFE_NAME.match(n)} | {NO_TOOL}
    out: dict[str, str] = {}
    for name in names:
        if SAFE_NAME.match(name):
            out[name] = name
            continue
        alias = safe_alias(name)
        if alias in taken:
            alias = f"{alias[: _MAX_NAME - _HASH_CHARS - 1]}_{_short_hash(name)}"
        counter = 2
        while alias in taken:  # a hash clash as well: vanishingly rare, still never ambiguous
            alias = f"{alias[: _MAX_NAME - 4]}_{counter}"
            counter += 1
        taken.add(alias)
        out[name] = alias
    return out


def to_function_tool(mcp_tool: dict[str, Any], *, name: str) -> dict[str, Any]:
    """One MCP tool as an OpenAI function tool: name (or alias), description, parameters = inputSchema."""
    function: dict[str, Any] = {"name": name}
    if mcp_tool.get("description") is not None:
        function["description"] = mcp_tool["description"]
    function["parameters"] = mcp_tool.get("inputSchema", {"type": "object"})
    return {"type": "function", "function": function}


def map_tools(mcp_tools: Sequence[dict[str, Any]]) -> FunctionTools:
    """The MCP listing as function tools, in listing order, with the aliases that were needed."""
    names = [str(t.get("name", "")) for t in mcp_tools]
    aliases = assign_aliases(names)
    tools = [to_function_tool(t, name=aliases[n]) for t, n in zip(mcp_tools, names, strict=True)]
    return FunctionTools(tools=tools, aliases={a: n for n, a in aliases.items() if a != n})
