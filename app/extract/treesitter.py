"""tree-sitter parsers (built once) and small helpers over syntax nodes: text, lines, string literals."""

from __future__ import annotations

import re
from functools import cache

from tree_sitter import Language as TSLanguage
from tree_sitter import Node, Parser, Query, QueryCursor

from app.audit.models import LineRange
from app.extract.common import Unresolved

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "a": "\a"}
_ESCAPE = re.compile(
    r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[0-7]{1,3}|U[0-9a-fA-F]{8}|\r\n|.|\n)", re.S
)


@cache
def parser(language: str) -> Parser:
    """A parser for "typescript", "tsx", "javascript" or "go"."""
    if language == "go":
        import tree_sitter_go as grammar

        return Parser(TSLanguage(grammar.language()))
    if language == "javascript":
        import tree_sitter_javascript as js

        return Parser(TSLanguage(js.language()))
    import tree_sitter_typescript as ts

    return Parser(TSLanguage(ts.language_tsx() if language == "tsx" else ts.language_typescript()))


@cache
def _query(language: str, pattern: str) -> Query:
    grammar = parser(language).language
    assert grammar is not None  # every parser above is built with its language
    return Query(grammar, pattern)


def captures(language: str, pattern: str, root: Node) -> dict[str, list[Node]]:
    """Nodes captured by a tree-sitter query (matched in C, far faster than walking the tree in Python)."""
    return QueryCursor(_query(language, pattern)).captures(root)


def text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def call_args(call: Node) -> list[Node]:
    """A call's arguments, comments left out."""
    return [a for a in (call.child_by_field_name("arguments") or call).named_children if a.type != "comment"]


def callee(node: Node) -> str:
    """The called name of a Go call: `mcp.NewTool(...)` -> `NewTool`."""
    func = node.child_by_field_name("function")
    if func is None:
        return ""
    if func.type == "selector_expression":
        return text(func.child_by_field_name("field") or func)
    return text(func)


def span(node: Node) -> LineRange:
    return LineRange(start=node.start_point[0] + 1, end=node.end_point[0] + 1)


def local_span(root: Node, *nodes: Node) -> LineRange | None:
    """The lines of the first node that lies in `root`'s tree (values may come from other files)."""
    for node in nodes:
        top = node
        while top.parent is not None:
            top = top.parent
        if top == root:
            return span(node)
    return None


def fail(node: Node, why: str) -> Unresolved:
    return Unresolved(why, line=node.start_point[0] + 1, end_line=node.end_point[0] + 1)


def short(node: Node, limit: int = 40) -> str:
    value = " ".join(text(node).split())
    return value if len(value) <= limit else value[: limit - 3] + "..."


def unescape(raw: str, *, go: bool = False) -> str:
    """The value of the escape sequences of a JS or Go interpreted string literal body."""

    def one(match: re.Match[str]) -> str:
        seq = match.group(1)
        if seq in ("\n", "\r\n"):
            return ""  # JS line continuation
        if seq.startswith("u{"):
            return chr(int(seq[2:-1], 16))
        if seq[0] in "uU" and len(seq) > 1:
            return chr(int(seq[1:], 16))
        if seq[0] == "x" and len(seq) == 3:
            return chr(int(seq[1:], 16))
        if seq.isdigit() and (go or seq != "0"):
            return chr(int(seq, 8))
        return _ESCAPES.get(seq, seq)

    return _ESCAPE.sub(one, raw)


def string_children(node: Node) -> str:
    """Value of a tree-sitter `string` node of JS/TS (fragments and escape sequences)."""
    parts: list[str] = []
    for child in node.named_children:
        if child.type == "string_fragment":
            parts.append(text(child))
        elif child.type == "escape_sequence":
            parts.append(unescape(text(child)))
        elif child.type == "template_substitution":
            raise fail(child, "a template literal with a substitution")
        elif child.type != "comment":
            parts.append(text(child))
    return "".join(parts)


class ValueLines:
    """For scopes that resolve references to the expression defining a value (`root`, `resolve`)."""

    root: Node

    def resolve(self, node: Node) -> Node:
        raise NotImplementedError

    def lines(self, node: Node, *, or_reference: bool = False) -> LineRange | None:
        """Where the value of `node` is written in this file (None when another file holds it); with
        `or_reference`, the reference itself when the value lives elsewhere."""
        if or_reference:
            return local_span(self.root, self.resolve(node), node)
        return local_span(self.root, self.resolve(node))
