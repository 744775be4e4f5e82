"""How much of the tool registrations in the files read became tools: registration sites found by a line scan,
tools extracted, parts that could not be read, and a one-line statement for people (a PR comment, the CLI).
A file with registration sites from which no tool was read gets a TC090 finding of its own, so an extraction
that reads nothing never passes for a repository without tools."""

from __future__ import annotations

import re
from collections.abc import Sequence

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
        r"\.registerTool\(|\.tool\(\s*['\"`]|^\s*['\"]?\w+['\"]?\s*:\s*\w*[tT]ool\(\s*\{"
    ),
    Language.GO: re.compile(r"\bNewTool\(|(?<!\[\])\b(?:\w+\.)?Tool\{"),
}
_SITES[Language.JAVASCRIPT] = _SITES[Language.TYPESCRIPT]
# A cheap test before the line scan: files without these substrings register nothing.
_HINTS = (".tool", "Tool(", "Tool{", "ool({", "registerTool", "add_tool", "from_function")


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
    sites: int = 0
    tools: int = 0
    unresolved: int = 0
    # Files with registration sites from which no tool was read (each also has a TC090 finding).
    files_without_tools: list[str] = Field(default_factory=list)

    def line(self) -> str:
        read = f"{self.files_read} source file{'s' if self.files_read != 1 else ''}"
        if self.sites and not self.tools:
            return (f"No tool could be read from the {self.sites} tool registration site{_s(self.sites)} found in "
                    f"{self.files_with_sites} file{_s(self.files_with_sites)}: these tools are not reviewed "
                    f"(see the {self.unresolved} TC090 finding{_s(self.unresolved)}).")
        if not self.tools:
            return f"No tool definitions found in {read}."
        text = (f"{self.tools} tool{_s(self.tools)} read from {read} ({self.sites} registration "
                f"site{_s(self.sites)} in {self.files_with_sites} file{_s(self.files_with_sites)})")
        if self.files_without_tools:
            n = len(self.files_without_tools)
            shown = ", ".join(self.files_without_tools[:3]) + (", ..." if n > 3 else "")
            text += f"; no tool could be read from {n} file{_s(n)} that register{'s' if n == 1 else ''} tools: {shown}"
        if self.unresolved:
            text += f"; {self.unresolved} part{_s(self.unresolved)} could not be read statically (TC090)"
        return text + "."


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def silent_files(results: Sequence[FileResult]) -> list[Finding]:
    """A TC090 finding for each file with registration sites that yielded no tool and no other TC090."""
    out: list[Finding] = []
    for res in results:
        if res.sites and not res.drafts and not res.conversions \
                and not any(f.rule_id == UNRESOLVED_RULE for f in res.findings):
            n = len(res.sites)
            out.append(unresolved_finding(
                f"{n} line{_s(n)} here look{'s' if n == 1 else ''} like tool registration (first at line "
                f"{res.sites[0]}), but no tool definition could be read from {'it' if n == 1 else 'them'}",
                file=res.file, line=res.sites[0]))
    return out


def summarize(results: Sequence[FileResult], findings: Sequence[Finding]) -> ExtractionSummary:
    with_sites = [res for res in results if res.sites]
    return ExtractionSummary(
        files_read=len(results),
        files_with_sites=len(with_sites),
        sites=sum(len(res.sites) for res in with_sites),
        tools=sum(len(res.drafts) for res in results),
        unresolved=sum(1 for f in findings if f.rule_id == UNRESOLVED_RULE),
        files_without_tools=[res.file for res in with_sites if not res.drafts],
    )
