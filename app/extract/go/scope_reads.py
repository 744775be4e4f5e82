"""What every mixin of GoScope may call on the scope it is mixed into: a node's value, its string, and the node an
identifier stands for (GoScope in app/extract/go/values.py provides them)."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node


class ScopeReads:
    """Declared once for the mixins of GoScope (LocalVariables, KnownCalls, CompositeLiterals)."""

    def value(self, node: Node) -> Any:  # provided by GoScope
        raise NotImplementedError

    def string(self, node: Node) -> str:  # provided by GoScope
        raise NotImplementedError

    def resolve(self, node: Node) -> Node:  # provided by GoScope
        raise NotImplementedError
