"""TypeScript/JavaScript: `registerTool`, `tool`, fastmcp's `addTool`, `{name, inputSchema}` literals (tree-sitter)."""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Node

from app.audit.models import LineRange
from app.extract.common import Draft, FileResult, Language, Unresolved, guarded
from app.extract.treesitter import captures, fail, parser, short, span, text
from app.extract.typescript.classes import read_classes
from app.extract.typescript.entries import read_helper_entry
from app.extract.typescript.fastmcp import read_fastmcp_call
from app.extract.typescript.values import ModuleLoader, Scope
from app.extract.typescript.zod import Zod

_REGISTER = {"registerTool", "registerToolTask", "tool"}
# An import from an MCP package (the SDK, fastmcp, mcp-framework...): `.tool(...)` is then MCP's.
_MCP_IMPORT = re.compile(r"""(?:from|require\()\s*["'][^"']*mcp[^"']*["']""", re.IGNORECASE)
# Agent libraries with a `.tool(...)` of their own.
_OTHER_LIBRARIES = re.compile(
    r"""(?:from|require\()\s*["'](?:ai|@ai-sdk/[^"']*|langchain|@langchain/[^"']*|llamaindex|@openai/agents|"""
    r"""@mastra/[^"']*|genkit|@genkit-ai/[^"']*)["']"""
)
# Registration calls, and object literals with an `inputSchema` key (tools/list answers written by hand).
_CANDIDATES = """
(call_expression function: (member_expression property: (property_identifier) @method
  (#any-of? @method "registerTool" "registerToolTask" "tool"))) @call
(call_expression function: (member_expression property: (property_identifier) @added
  (#any-of? @added "addTool" "addTools"))) @fastmcp_call
(call_expression function: (identifier) @helper (#match? @helper "[tT]ool$")
  arguments: (arguments . (object))) @helper_call
(object [(pair key: (property_identifier) @key (#eq? @key "inputSchema"))
         (pair key: (string (string_fragment) @skey (#eq? @skey "inputSchema")))]) @object
"""
# What the TS SDK (zod 4 era) adds to every registered tool that does not run as a task.
_EXECUTION = {"taskSupport": "forbidden"}
_PLAIN_FIELDS = ("title", "annotations", "_meta", "icons")


def extract_ts(
    text_: str, *, file: str, language: Language, zod4: bool | None = None, modules: ModuleLoader | None = None
) -> FileResult:
    """Tools defined in one TS/JS file. `zod4` (from the package.json) picks the zod flavour; None: the import.
    `modules` loads the constants of relatively imported files."""
    result = FileResult(file=file, language=language)
    grammar = "tsx" if file.endswith(".tsx") else "javascript" if language is Language.JAVASCRIPT else "typescript"
    tree = parser(grammar).parse(text_.encode("utf-8"))
    if zod4 is None:
        zod4 = not re.search(r"""from\s+["']zod/v3["']""", text_)
    scope = Scope(tree.root_node, language=grammar, modules=modules)
    reader = _Reader(
        scope, result, zod4=zod4, speaks_mcp=_MCP_IMPORT.search(text_) is not None,
        other_library=_OTHER_LIBRARIES.search(text_) is not None,
    )
    result.other_framework = reader.other_library and not reader.speaks_mcp
    found = captures(grammar, _CANDIDATES, tree.root_node)
    # Calls first: a registerTool config object is claimed before it could be read as a tool literal.
    for node in sorted(found.get("call", []), key=lambda n: n.start_byte):
        with guarded(result, node.start_point[0] + 1, node.end_point[0] + 1):
            reader.call(node)
    for node in sorted(found.get("fastmcp_call", []), key=lambda n: n.start_byte):
        with guarded(result, node.start_point[0] + 1, node.end_point[0] + 1):
            read_fastmcp_call(reader, node)
    for node in sorted(found.get("helper_call", []), key=lambda n: n.start_byte):
        with guarded(result, node.start_point[0] + 1, node.end_point[0] + 1):
            read_helper_entry(reader, node)
    for node in sorted(found.get("object", []), key=lambda n: n.start_byte):
        with guarded(result, node.start_point[0] + 1, node.end_point[0] + 1):
            reader.literal(node)
    read_classes(reader, tree.root_node)
    result.drafts.sort(key=lambda d: d.tool_lines.start)
    return result


class _Reader:
    def __init__(
        self, scope: Scope, result: FileResult, *, zod4: bool, speaks_mcp: bool = True, other_library: bool = False
    ) -> None:
        self.scope = scope
        self.result = result
        self.zod = Zod(scope, zod4=zod4)
        self.zod3 = Zod(scope, zod4=False)
        self.zod4 = zod4
        self.claimed: set[int] = set()  # object literals already read as a registerTool config
        self.speaks_mcp = speaks_mcp
        self.other_library = other_library

    def call(self, node: Node) -> None:
        func = node.child_by_field_name("function")
        if func is None or func.type != "member_expression":
            return
        method = text(func.child_by_field_name("property") or func)
        if method not in _REGISTER or (method == "tool" and self.other_library and not self.speaks_mcp):
            return  # `.tool(...)` of an agent library in a file that imports nothing of MCP
        args = [a for a in (node.child_by_field_name("arguments") or node).named_children if a.type != "comment"]
        if args and args[0].type == "member_expression" and text(args[0]).startswith("this."):
            return  # `server.tool(this.name, ...)` in a tool class: read at each subclass (ts_classes.py)
        if len(args) < 2 or self.scope.resolve(args[0]).type not in {
            "string",
            "template_string",
            "identifier",
            "member_expression",
            "call_expression",
        }:
            return
        try:
            name = self.scope.string(args[0])
        except Unresolved as exc:
            if self.scope.resolve(args[0]).type in {"string", "template_string"} or method != "tool":
                self.result.unresolved(f"the name of a tool registered with `.{method}()`", exc)
            return
        name_lines = self.scope.lines(args[0], or_reference=True)
        draft = Draft(name=name, fields={}, tool_lines=span(node), name_lines=name_lines)
        if method != "tool":
            self._config(draft, args[1])
        else:
            self._legacy(draft, args[1:])
        self.result.drafts.append(draft)

    def _config(self, draft: Draft, config: Node) -> None:
        target = self.scope.resolve(config)
        self.claimed.add(target.id)
        try:
            pairs = {key: value for key, _k, value in self.scope.pairs(target)}
        except Unresolved as exc:
            self.result.unresolved(f"the configuration of tool `{draft.name}`", exc, tool=draft.name)
            return
        self._plain(draft, pairs, ("title",))
        if "description" in pairs:
            self._description(draft, pairs["description"])
        draft.fields["inputSchema"] = {"type": "object", "properties": {}}
        if "inputSchema" in pairs:
            self._schema(draft, "inputSchema", pairs["inputSchema"])
        if "outputSchema" in pairs:
            self._schema(draft, "outputSchema", pairs["outputSchema"], output=True)
        self._plain(draft, pairs, ("annotations", "_meta", "icons", "execution"))
        if self.zod4 and "execution" not in draft.fields:
            draft.fields["execution"] = dict(_EXECUTION)

    def _legacy(self, draft: Draft, rest: list[Node]) -> None:
        """server.tool(name, description?, paramsShape?, annotations?, handler)."""
        rest = [a for a in rest if a.type not in {"arrow_function", "function_expression", "function"}]
        if rest and self.scope.resolve(rest[0]).type in {"string", "template_string", "binary_expression"}:
            self._description(draft, rest.pop(0))
        draft.fields["inputSchema"] = {"type": "object", "properties": {}}
        for arg in rest:
            target = self.scope.resolve(arg)
            if target.type == "object" and self._is_shape(target):
                self._schema(draft, "inputSchema", target)
            elif target.type == "object":
                self._plain(draft, {"annotations": target}, ("annotations",))
        if self.zod4:
            draft.fields["execution"] = dict(_EXECUTION)

    def literal(self, node: Node) -> None:
        """`{name: "x", description: "...", inputSchema: {...}}`, e.g. in a ListTools handler."""
        if node.id in self.claimed:
            return
        try:
            pairs = {key: value for key, _k, value in self.scope.pairs(node)}
        except Unresolved:
            return
        if "name" not in pairs or "inputSchema" not in pairs:
            return
        try:
            name = self.scope.string(pairs["name"])
        except Unresolved as exc:
            self.result.unresolved("the name of a tool object literal", exc)
            return
        name_lines = self.scope.lines(pairs["name"], or_reference=True)
        draft = Draft(name=name, fields={}, tool_lines=span(node), name_lines=name_lines)
        self._plain(draft, pairs, ("title",))
        if "description" in pairs:
            self._description(draft, pairs["description"])
        self._schema(draft, "inputSchema", pairs["inputSchema"], literal=True)
        if "outputSchema" in pairs:
            self._schema(draft, "outputSchema", pairs["outputSchema"], literal=True)
        self._plain(draft, pairs, ("annotations", "_meta", "icons", "execution"))
        self.result.drafts.append(draft)

    def _description(self, draft: Draft, node: Node) -> None:
        try:
            draft.fields["description"] = self.scope.string(node)
            draft.description_lines = self.scope.lines(node)
        except Unresolved as exc:
            self.result.unresolved(f"the description of tool `{draft.name}`", exc, tool=draft.name)

    def _plain(self, draft: Draft, pairs: dict[str, Node], keys: tuple[str, ...]) -> None:
        for key in keys:
            if key in pairs:
                try:
                    draft.fields[key] = self.scope.value(pairs[key])
                except Unresolved as exc:
                    self.result.unresolved(f"`{key}` of tool `{draft.name}`", exc, tool=draft.name)

    def _schema(self, draft: Draft, key: str, node: Node, *, output: bool = False, literal: bool = False) -> None:
        target = self.scope.resolve(node)
        try:
            if literal and target.type == "call_expression":
                value = self._converted(target, output=output)
            elif literal:
                value = self.scope.value(target)
            else:
                value = self.zod.root(target, output=output)
        except Unresolved as exc:
            if exc.line == 0:
                exc = fail(target, exc.why)
            self.zod.problems.clear()
            self.zod3.problems.clear()
            draft.fields.pop(key, None)
            self.result.unresolved(f"the {key} of tool `{draft.name}`", exc, tool=draft.name)
            return
        draft.fields[key] = value
        for converter in (self.zod, self.zod3):
            for problem in converter.problems:
                self.result.unresolved(f"part of the {key} of tool `{draft.name}` (left out)", problem,
                                       tool=draft.name)
            converter.problems.clear()
        if key == "inputSchema":
            self._parameter_lines(draft, target)
            props = value.get("properties") if isinstance(value, dict) else None
            described = {k for k, v in (props or {}).items() if isinstance(v, dict) and "description" in v}
            draft.parameter_lines = {k: v for k, v in draft.parameter_lines.items() if k in described}

    def _converted(self, call: Node, *, output: bool) -> Any:
        """`zodToJsonSchema(X)` (zod 3 flavour) or `z.toJSONSchema(X)` / `toJSONSchema(X)` (zod 4)."""
        func = text(call.child_by_field_name("function") or call)
        args = [a for a in (call.child_by_field_name("arguments") or call).named_children if a.type != "comment"]
        if func == "zodToJsonSchema" and args:
            return self.zod3.root(args[0], output=output)
        if func in {"z.toJSONSchema", "toJSONSchema"} and args:
            return self.zod.root(args[0], output=output)
        try:  # a zod schema in the literal (`z.object(...)`, `base.extend(...)`): converted as the SDK does
            return self.zod.root(call, output=output)
        except Unresolved as exc:
            if func.startswith(("z.", "zod.")):
                raise
            raise fail(call, f"the schema comes from `{short(call.child_by_field_name('function') or call)}(...)` "
                       "at run time") from exc

    def _parameter_lines(self, draft: Draft, target: Node) -> None:
        shape = target
        if shape.type == "member_expression":
            shape = self.scope.resolve(shape.child_by_field_name("object"))  # type: ignore[arg-type]
        if shape.type == "call_expression" and text(shape.child_by_field_name("function") or shape).endswith("object"):
            args = (shape.child_by_field_name("arguments") or shape).named_children
            shape = self.scope.resolve(args[0]) if args else shape
        if shape.type != "object":
            return
        pairs = {k: v for k, _kn, v in self.scope.pairs(shape)}
        if "properties" in pairs and "type" in pairs:  # a JSON Schema literal
            try:
                pairs = {k: v for k, _kn, v in self.scope.pairs(pairs["properties"])}
            except Unresolved:
                return
            for name, value in pairs.items():
                lines = _json_description(self.scope, value)
                if lines:
                    draft.parameter_lines[name] = lines
            return
        for name, value in pairs.items():
            lines = _describe_lines(self.scope, value)
            if lines:
                draft.parameter_lines[name] = lines

    def _is_shape(self, node: Node) -> bool:
        pairs = self.scope.pairs(node)
        if not pairs:
            return True
        return any("z." in text(v) or self.scope.resolve(v).type == "call_expression" for _k, _kn, v in pairs)


def _describe_lines(scope: Scope, node: Node) -> LineRange | None:
    current = scope.resolve(node)
    while current.type == "call_expression":
        func = current.child_by_field_name("function")
        if func is None or func.type != "member_expression":
            return None
        args = (current.child_by_field_name("arguments") or current).named_children
        if text(func.child_by_field_name("property") or func) == "describe" and args:
            return scope.lines(args[0])
        current = func.child_by_field_name("object")  # type: ignore[assignment]
    return None


def _json_description(scope: Scope, node: Node) -> LineRange | None:
    try:
        for key, _kn, value in scope.pairs(node):
            if key == "description":
                return scope.lines(value)
    except Unresolved:
        return None
    return None
