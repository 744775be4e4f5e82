"""The extraction summary: registration sites found, tools read, and a statement when sites yield no tool."""

from __future__ import annotations

from pathlib import Path

from app.extract import extract_paths, extract_paths_summarized

SERVER = 'from fastmcp import FastMCP\n\nmcp = FastMCP("s")\n\n'


def test_sites_without_tools_are_said_and_found(tmp_path: Path) -> None:
    (tmp_path / "factory.py").write_text(SERVER + "mcp.add_tool(build_handler())\nmcp.add_tool(other_handler())\n")
    (tmp_path / "plain.py").write_text("def helper() -> int:\n    return 1\n")
    tools, summary = extract_paths_summarized([tmp_path])
    assert tools.tools == []
    assert (summary.files_read, summary.files_with_sites, summary.sites, summary.tools) == (2, 1, 2, 0)
    assert summary.files_without_tools == [str(tmp_path / "factory.py")]
    assert summary.line().startswith("No tool could be read from the 2 lines that look like tool registration in 1")
    [finding] = tools.load_findings
    assert finding.rule_id == "TC090" and finding.line == 5 and finding.file == str(tmp_path / "factory.py")
    assert "2 lines here (first at line 5; lines 5, 6) look like tool registration" in finding.message


def test_a_repository_with_tools_and_a_silent_file(tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text(SERVER + '@mcp.tool\ndef ping() -> str:\n    """Answer pong."""\n')
    (tmp_path / "silent.py").write_text(SERVER + "mcp.add_tool(build_handler())\n")
    tools, summary = extract_paths_summarized([tmp_path])
    assert [t.name for t in tools.tools] == ["ping"]
    assert summary.line() == (
        f"1 tool read from 2 source files; 1 line that looks like tool registration yielded no tool: "
        f"{tmp_path / 'silent.py'}:5; 1 part could not be read statically (TC090)."
    )
    assert extract_paths([tmp_path]).load_findings == tools.load_findings


def test_no_sites_no_statement_of_loss(tmp_path: Path) -> None:
    (tmp_path / "util.py").write_text("VALUE = 1\n")
    tools, summary = extract_paths_summarized([tmp_path])
    assert tools.load_findings == [] and summary.line() == "No tool definitions found in 1 source file."


def test_other_frameworks_count_no_sites(tmp_path: Path) -> None:
    agent = "from pydantic_ai import Agent\nagent = Agent('x')\n\n@agent.tool\ndef f(): ...\n"
    (tmp_path / "agent.py").write_text(agent)
    tools, summary = extract_paths_summarized([tmp_path])
    assert summary.sites == 0 and tools.load_findings == []


def test_a_server_class_rewriting_its_listing_is_named(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        "from fastmcp import FastMCP\n\n\nclass Patched(FastMCP):\n    async def _list_tools(self):\n"
        "        return []\n\n\nclass Client:\n    async def list_tools(self):\n        return []\n"
    )
    [finding] = extract_paths([tmp_path]).load_findings
    assert finding.line == 5 and "`Patched._list_tools` can change the listed tools at run time" in finding.message


def test_a_site_beside_read_tools_that_yields_none_is_named(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        SERVER + '@mcp.tool\ndef ping() -> str:\n    """Answer pong."""\n\n\nmcp.add_tool(make_tool())\n'
    )
    tools, summary = extract_paths_summarized([tmp_path])
    assert [t.name for t in tools.tools] == ["ping"]
    [finding] = tools.load_findings
    assert finding.line == 10 and finding.message.startswith("could not be read statically: line 10 looks like tool "
                                                             "registration, but no tool definition could be read")
    assert summary.unread_sites == [f"{tmp_path / 'server.py'}:10"]
    assert (summary.sites, summary.tools) == (2, 1)


def test_tools_made_by_a_loop_leave_its_line_unflagged(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        SERVER + "def a() -> str:\n    \"\"\"First.\"\"\"\n\n\ndef b() -> str:\n    \"\"\"Second.\"\"\"\n\n\n"
        "for fn in [a, b]:\n    mcp.tool(fn)\n"
    )
    tools, summary = extract_paths_summarized([tmp_path])
    assert [t.name for t in tools.tools] == ["a", "b"]
    assert tools.load_findings == [] and summary.unread_sites == []


def test_a_reason_repeated_in_a_file_is_said_once_with_its_lines() -> None:
    from app.extract.common import unresolved_finding
    from app.extract.summary import said_once

    same = [unresolved_finding("a value from the environment", file="s.py", line=n, tool=f"t{n}") for n in (9, 3, 5)]
    other = unresolved_finding("a value from the environment", file="t.py", line=2)
    [merged, kept] = said_once([*same, other])
    assert merged.line == 3 and merged.tool is None
    assert merged.message.endswith("a value from the environment (3 times in this file, at lines 3, 5, 9)")
    assert kept == other


def test_an_extraction_that_reads_nothing_says_where_tools_are_registered() -> None:
    from app.extract.common import FileResult, Language
    from app.extract.summary import nothing_read, registering_lines, summarize

    go = 'package main\n\nfunc main() {\n\ts := server.New()\n\ts.AddTool(catalog.Lookup(), handleLookup)\n}\n'
    assert registering_lines(go, Language.GO) == [5]
    results = [FileResult(file="cmd/main.go", language=Language.GO, registering=[5]),
               FileResult(file="cmd/util.go", language=Language.GO)]
    [finding] = nothing_read(results)
    assert (finding.file, finding.line) == ("cmd/main.go", 5)
    assert "no tool definition could be read, although 1 line in 1 file registers tools" in finding.message
    summary = summarize(results, [finding])
    assert summary.line() == ("No tool could be read from 2 source files, although 1 line registers tools: these "
                              "tools are not reviewed (see the TC090 finding).")
    results[1].sites = [3]  # a file with a tool-shaped line speaks for itself (silent_files)
    assert nothing_read(results) == []


def test_the_app_path_says_it_too() -> None:
    from app.extract.snapshot import load_snapshot

    files = {"srv/main.go": 'package main\n\nfunc main() {\n\ts.AddTool(catalog.Lookup(), handleLookup)\n}\n'}
    said: list[str] = []
    tools = load_snapshot(list(files), blobs={p: p for p in files}, read=lambda b, p: files[p], on_summary=said.append)
    assert not tools.tools
    assert [(f.file, f.line) for f in tools.load_findings if f.rule_id == "TC090"] == [("srv/main.go", 4)]
    assert said == ["No tool could be read from 1 source file, although 1 line registers tools: these tools are not "
                    "reviewed (see the TC090 finding)."]
