"""Shared pieces of the source extractors: the per-file result, line ranges, and the TC090 finding."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

from app.audit.models import Dimension, Finding, LineRange, Location, Severity, Tool

# Rule id of "could not be read statically"; a load finding, not a rule of the engine.
UNRESOLVED_RULE = "TC090"


class Language(StrEnum):
    PYTHON = "python"
    TYPESCRIPT = "typescript"
    JAVASCRIPT = "javascript"
    GO = "go"


class Unresolved(Exception):
    """A value that cannot be known without running the code; carries the lines and the reason."""

    def __init__(self, why: str, *, line: int, end_line: int | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.line = line
        self.end_line = end_line if end_line is not None else line


@dataclass
class Draft:
    """A tool being assembled from source: its MCP fields, its lines, and the server variable it belongs to."""

    name: str
    fields: dict[str, Any]
    tool_lines: LineRange
    name_lines: LineRange | None = None
    description_lines: LineRange | None = None
    parameter_lines: dict[str, LineRange] = field(default_factory=dict)
    # Python: the variable of the server object the tool was registered on (for mount prefixes), and the file
    # of that variable when another file mounted the tool's server (None: the tool's own file).
    server: str | None = None
    server_file: str | None = None
    # Go: "<package folder>:<Type>" of a Tool literal of the module's own type (a conversion may apply to it).
    source_type: str | None = None


@dataclass
class FileResult:
    """What one source file yielded: tool drafts in source order and the TC090 findings."""

    file: str
    language: Language
    drafts: list[Draft] = field(default_factory=list)
    # The file's absolute path when it is on disk (matches `from pkg.module import server` to this file).
    path: str | None = None
    findings: list[Finding] = field(default_factory=list)
    # Python only: `mount(sub, namespace=...)` calls and `from module import name` imports.
    mounts: list[tuple[str, str, str]] = field(default_factory=list)  # (parent var, child var, prefix)
    imports: dict[str, str] = field(default_factory=dict)  # local name -> "module.name"
    # Python: (server variable, function, the module's functions) a listing hook applies to every tool.
    listing_transforms: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)
    # Go: functions converting the module's own tool type into the SDK's (app/extract/go/conversions.py).
    conversions: list[tuple[str, Any]] = field(default_factory=list)  # (converted type, go_conversions.Conversion)
    # Lines that look like tool registration (app/extract/summary.py); left empty for files of another
    # framework (an agent library's `@agent.tool`), which are not MCP tools.
    sites: list[int] = field(default_factory=list)
    # Lines that register a tool built elsewhere (`s.AddTool(tool, h)`): said only when no tool at all was read.
    registering: list[int] = field(default_factory=list)
    # Registration-shaped lines that define no tool on purpose (`@mcp.tool(enabled=False)`): not missed sites.
    not_sites: set[int] = field(default_factory=set)
    other_framework: bool = False
    # Go: lines of functions building a tool from their parameters, listed at each call (not sites here).
    listed_at_calls: set[int] = field(default_factory=set)

    def unresolved(self, what: str, exc: Unresolved, *, tool: str | None = None, parameter: str | None = None) -> None:
        self.findings.append(
            unresolved_finding(
                f"{what}: {exc.why}",
                file=self.file,
                line=exc.line,
                end_line=exc.end_line,
                tool=tool,
                parameter=parameter,
            )
        )

    def rename_findings(self, renamed: dict[str, str]) -> None:
        """Findings name tools as listed: after a mount prefix, `get_issue` becomes `jira_get_issue`."""
        self.findings = [
            f.model_copy(update={
                "tool": renamed[f.tool],
                "message": f.message.replace(f"tool `{f.tool}`", f"tool `{renamed[f.tool]}`"),
            })
            if f.tool in renamed else f
            for f in self.findings
        ]

    def tools(self) -> list[Tool]:
        return [draft_to_tool(d, file=self.file, syntax=self.language.value) for d in self.drafts]


def unresolved_finding(
    detail: str,
    *,
    file: str,
    line: int,
    end_line: int | None = None,
    tool: str | None = None,
    parameter: str | None = None,
) -> Finding:
    return Finding(
        rule_id=UNRESOLVED_RULE,
        severity=Severity.WARNING,
        dimension=Dimension.INPUT,
        message=f"could not be read statically: {detail}",
        tool=tool,
        parameter=parameter,
        file=file,
        line=line,
        end_line=end_line,
    )


def draft_to_tool(draft: Draft, *, file: str, syntax: str) -> Tool:
    """A Tool whose to_mcp() is exactly `draft.fields` (known fields mapped, the rest kept in `extra`)."""
    fields = dict(draft.fields)
    known = {
        "name": draft.name,
        "title": fields.pop("title", None),
        "description": fields.pop("description", None),
        "inputSchema": fields.pop("inputSchema", {"type": "object"}),
        "outputSchema": fields.pop("outputSchema", None),
        "annotations": fields.pop("annotations", None),
    }
    fields.pop("name", None)
    location = Location(
        file=file,
        tool_lines=draft.tool_lines,
        name_lines=draft.name_lines,
        description_lines=draft.description_lines,
        parameter_description_lines=dict(draft.parameter_lines),
        syntax=syntax,
    )
    return Tool.model_validate({**known, "extra": fields, "location": location})


def lines(start: int, end: int | None = None) -> LineRange:
    return LineRange(start=start, end=end if end is not None else start)


# Errors an unusual but valid program can trigger in an extractor (a call with fewer arguments than usual...).
_ODD_INPUT = (IndexError, KeyError, ValueError, TypeError, AttributeError, RecursionError)


@contextmanager
def guarded(result: FileResult, line: int, end_line: int | None = None) -> Iterator[None]:
    """Read one candidate tool; a form the extractor does not expect becomes a TC090 finding, never a crash."""
    try:
        yield
    except Unresolved as exc:
        result.unresolved("a tool definition", exc)
    except _ODD_INPUT as exc:
        result.findings.append(
            unresolved_finding(
                f"a tool definition in a form ToolChoice does not read ({type(exc).__name__})",
                file=result.file, line=line, end_line=end_line,
            )
        )


_T = TypeVar("_T")


def nearest(file: Path, read: Callable[[Path], _T | None], *, levels: int = 8) -> _T | None:
    """What `read` finds in the folder of `file` or the nearest of its parents (at most `levels` up)."""
    folder = file.resolve().parent
    for _ in range(levels):
        found = read(folder)
        if found is not None:
            return found
        if folder.parent == folder:
            break
        folder = folder.parent
    return None
