"""A successor's models: the configured rule, the target a removed tool's requests now reach, the successor."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class SuccessorRule(BaseModel):
    """One `successors:` entry of the config: the new tool and the argument values its call must carry."""

    tool: str = Field(min_length=1)
    arguments: dict[str, Any] = Field(default_factory=dict)
    # Where the entry is written, for errors (set by app/config/models.py; not part of the config's schema).
    file: str | None = Field(default=None, exclude=True)
    line: int | None = Field(default=None, exclude=True)


class Target(BaseModel):
    """One tool a removed tool's requests should now reach, with the argument values that select the operation."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)

    def label(self) -> str:
        args = ", ".join(f"{k}: {v}" for k, v in sorted(self.arguments.items()))
        return f"{self.tool} ({args})" if args else self.tool


class Successor(BaseModel):
    """Where a removed tool's requests go: one target (a merge or a rename) or several (a split)."""

    removed: str
    targets: list[Target]
    how: str  # "config", "renamed", "named", "action", "split", "matched"
    confidence: float

    def label(self) -> str:
        return " or ".join(t.label() for t in self.targets)
