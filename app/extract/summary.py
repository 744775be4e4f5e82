"""How much of the tool registrations in the files read became tools: registration sites found by a line scan,
tools extracted, parts that could not be read, and a one-line statement for people (a PR comment, the CLI).
A file with registration sites from which no tool was read gets a TC090 finding of its own, so an extraction
that reads nothing never passes for a repository without tools."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

from app.audit.models import Finding
from app.extract.common import UNRESOLVED_RULE, FileResult, Language, unresolved_finding

# Lines that register or define a tool, per language (decorators, registration calls, tool literals, helpers).
_SITES = {
    # Not `super().tool(...)`: a server subclass overriding `tool` registers nothing itself.
    Language.PYTHON: re.compile(
        r"@[\w.]+\.tool\b|(?<!\))\.(?:add_)?tool\(|\bTool\.from_function\(|\bTool\(\s*name\s*="
    ),
    # `name: tool({` entries of an object, not a helper's own `return tool({...})`.
    Language.TYPESCRIPT: re.compile(
        r"\.registerTool\(|\.addTools?\(|\.tool\(\s*(?:['\"`]|this\.)|^\s*['\"]?\w+['\"]?\s*:\s*\w*[tT]ool\(\s*\{"
    ),
    Language.GO: re.compile(r"\bNewTool\(|(?<!\[\])\b(?:\w+\.)?Tool\{"),
}
_SITES[Language.JAVASCRIPT] = _SITES[Language.TYPESCRIPT]
# Calls that register a tool object made elsewhere (another file, a helper): no sign of a missed tool by themselves,
# but when a whole extraction reads no tool they are what says the repository has tools.
_REGISTERING = {
    Language.PYTHON: re.compile(r"\.add_tools?\(|\.register_tools?\("),
    Language.TYPESCRIPT: re.compile(r"\.registerTools\(|\.tool\("),
    Language.GO: re.compile(r"\.AddTools?\(|\bAddTool\(|\bRegisterTools?\("),
}
_REGISTERING[Language.JAVASCRIPT] = _REGISTERING[Language.TYPESCRIPT]
# A cheap test before the line scan: files without these substrings register nothing.
_HINTS = (".tool", "Tool(", "Tool{", "ool({", "registerTool", "add_tool", "addTool", "from_function")
_REGISTERING_HINTS = ("ddTool", "dd_tool", "egisterTool", "egister_tool", ".tool(")


def registering_lines(text: str, language: Language) -> list[int]:
    """1-based lines of `text` that register a tool object (`server.AddTool(tool, handler)`, `addTools([...])`)."""
    if not any(hint in text for hint in _REGISTERING_HINTS):
        return []
    pattern = _REGISTERING[language]
    return [n for n, line in enumerate(text.splitlines(), 1) if pattern.search(line)]


def registration_lines(text: str, language: Language) -> list[int]:
    """1-based lines of `text` that look like a tool registration site."""
    if not any(hint in text for hint in _HINTS):
        return []
    pattern = _SITES[language]
    return [n for n, line in enumerate(text.splitlines(), 1) if pattern.search(line)]


class ExtractionSummary(BaseModel):
    """Counts over the files one extraction read. `line()` says it in one sentence."""

    files_read: int = 0
    files_with_sites: int = 0
    sites: int = 0  # lines that look like a tool registration (a line scan, independent of the extractor)
    tools: int = 0
    unresolved: int = 0
    # Files with registration sites from which no tool was read (each also has a TC090 finding).
    files_without_tools: list[str] = Field(default_factory=list)
    # "file:line" of each registration-shaped line no tool and no TC090 accounts for (each file has a TC090 for them).
    unread_sites: list[str] = Field(default_factory=list)
    registering: int = 0  # lines that register a tool object made elsewhere (`AddTool(tool, handler)`)
    registering_at: list[tuple[str, int]] = Field(default_factory=list, exclude=True)

    def line(self) -> str:
        read = f"{self.files_read} source file{_s(self.files_read)}"
        if self.sites and not self.tools:
            return (f"No tool could be read from the {self.sites} line{_s(self.sites)} that look{_verb(self.sites)} "
                    f"like tool registration in {self.files_with_sites} file{_s(self.files_with_sites)}: these "
                    f"tools are not reviewed (see the {self.unresolved} TC090 finding{_s(self.unresolved)}).")
        if not self.tools and self.registering:
            return (f"No tool could be read from {read}, although {self.registering} line{_s(self.registering)} "
                    f"register{_verb(self.registering)} tools: these tools are not reviewed (see the TC090 finding).")
        if not self.tools:
            return f"No tool definitions found in {read}."
        text = f"{self.tools} tool{_s(self.tools)} read from {read}"
        if self.unread_sites:
            n = len(self.unread_sites)
            shown = ", ".join(self.unread_sites[:3]) + (", ..." if n > 3 else "")
            text += f"; {n} line{_s(n)} that look{_verb(n)} like tool registration yielded no tool: {shown}"
        if self.unresolved:
            text += f"; {self.unresolved} part{_s(self.unresolved)} could not be read statically (TC090)"
        return text + "."

    def add(
        self, file: str, *, sites: Sequence[int], tools: int, unread: Sequence[int], unresolved: int,
        registering: int = 0,
    ) -> None:
        """Count one file: its registration-shaped lines, its tools, those lines no tool accounts for, its TC090s."""
        self.files_read += 1
        self.registering += registering
        self.sites += len(sites)
        self.files_with_sites += bool(sites)
        self.tools += tools
        self.unresolved += unresolved
        if sites and not tools:
            self.files_without_tools.append(file)
        self.unread_sites.extend(f"{file}:{n}" for n in unread)


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _verb(n: int) -> str:
    return "s" if n == 1 else ""


Span = tuple[int, int]
# A registration line may open a call whose tool definition starts a little below it (`return NewTool(meta,` then
# `mcp.Tool{` on the next lines): such a line belongs to the tool that starts at most this many lines later.
OPENING_LINES = 3


def unread_sites(sites: Sequence[int], tools: Sequence[Span], findings: Sequence[Finding]) -> list[int]:
    """The registration-shaped lines that neither a tool's lines (`tools`: first and last line of each) nor a TC090
    finding's lines cover. None when a tool's lines hold no such line: then a line elsewhere made it (a loop over a
    list, a helper called with its name), and lines are not one per tool."""
    spans = [(a - OPENING_LINES, b) for a, b in tools]
    if any(not any(a <= n <= b for n in sites) for a, b in spans):
        return []
    said = [(f.line - OPENING_LINES, f.end_line or f.line) for f in findings if f.rule_id == UNRESOLVED_RULE and f.line]
    return [n for n in sites if not any(a <= n <= b for a, b in (*spans, *said))]


def unread_finding(file: str, unread: Sequence[int], *, text: str | None = None) -> Finding:
    """One TC090 for the registration-shaped lines of a file from which no tool was read, with the first line's
    code when there is one line, else the lines."""
    n = len(unread)
    if n == 1:
        code = ""
        if text is not None:
            source = text.splitlines()[unread[0] - 1].strip()
            code = f" (`{source[:80]}{'...' if len(source) > 80 else ''}`)"
        where = f"line {unread[0]}{code} looks"
    else:
        shown = ", ".join(str(x) for x in unread[:8]) + (", ..." if n > 8 else "")
        where = f"{n} lines here (first at line {unread[0]}; lines {shown}) look"
    return unresolved_finding(
        f"{where} like tool registration, but no tool definition could be read from {'it' if n == 1 else 'them'}: "
        "a form ToolChoice does not read, or tools made at run time. To review such tools exactly, list the running "
        "server (`toolchoice snapshots DIR --server-command CMD`, README)",
        file=file, line=unread[0],
    )


def silent_files(results: Sequence[FileResult], texts: Mapping[str, str] | None = None) -> list[Finding]:
    """A TC090 finding for each file with registration-shaped lines that no tool and no TC090 accounts for."""
    out: list[Finding] = []
    for res in results:
        unread = _unread(res)
        if unread:
            out.append(unread_finding(res.file, unread, text=(texts or {}).get(res.file)))
    return out


def _unread(res: FileResult) -> list[int]:
    if not res.sites or res.conversions:
        return []
    spans = [(d.tool_lines.start, d.tool_lines.end) for d in res.drafts]
    return unread_sites(res.sites, spans, res.findings)


def said_once(findings: Sequence[Finding]) -> list[Finding]:
    """TC090 findings with the same message in one file become one, at the first line, saying how many times and
    where: a reason repeated for every tool of a file is read once."""
    groups: dict[tuple[str | None, str], list[Finding]] = {}
    order: list[Finding | tuple[str | None, str]] = []
    for f in findings:
        if f.rule_id != UNRESOLVED_RULE:
            order.append(f)
            continue
        key = (f.file, f.message)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(f)
    out: list[Finding] = []
    for item in order:
        if isinstance(item, Finding):
            out.append(item)
            continue
        same = groups[item]
        if len(same) == 1:
            out.append(same[0])
            continue
        first = min(same, key=lambda f: (f.line or 0, f.tool or ""))
        lines = sorted({f.line for f in same if f.line})
        shown = ", ".join(str(x) for x in lines[:8]) + (", ..." if len(lines) > 8 else "")
        tools = {f.tool for f in same}
        out.append(first.model_copy(update={
            "message": f"{first.message} ({len(same)} times in this file, at line{_s(len(lines))} {shown})",
            "tool": first.tool if len(tools) == 1 else None,
            "parameter": first.parameter if len({f.parameter for f in same}) == 1 else None,
        }))
    return out


def nothing_read(results: Sequence[FileResult]) -> list[Finding]:
    """When no file yielded a tool and none has registration-shaped lines, but some register tool objects (a project's
    own wrappers around `AddTool`), one TC090 at the first such line: an extraction that read nothing must say so."""
    if any(res.drafts or res.sites for res in results):
        return []
    return nothing_read_in([(res.file, n) for res in results if not res.other_framework for n in res.registering])


def nothing_read_in(calls: Sequence[tuple[str, int]]) -> list[Finding]:
    """The finding of nothing_read() for (file, line) registering calls of an extraction that read no tool."""
    if not calls:
        return []
    file, line = calls[0]
    n = len(calls)
    files = len({f for f, _ in calls})
    return [unresolved_finding(
        f"no tool definition could be read, although {n} line{_s(n)} in {files} file{_s(files)} register{_verb(n)} "
        "tools (first here): the tools are built in a form ToolChoice does not read. To review them exactly, list the "
        "running server (`toolchoice snapshots DIR --server-command CMD`, README)",
        file=file, line=line,
    )]


def summarize(results: Sequence[FileResult], findings: Sequence[Finding]) -> ExtractionSummary:
    summary = ExtractionSummary()
    for res in results:
        mine = [f for f in findings if f.rule_id == UNRESOLVED_RULE and f.file == res.file]
        summary.add(res.file, sites=res.sites, tools=len(res.drafts), unread=_unread(res), unresolved=len(mine),
                    registering=0 if res.other_framework else len(res.registering))
    return summary
