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
    assert summary.line().startswith("No tool could be read from the 2 tool registration sites found in 1 file")
    [finding] = tools.load_findings
    assert finding.rule_id == "TC090" and finding.line == 5 and finding.file == str(tmp_path / "factory.py")
    assert "2 lines here look like tool registration (first at line 5)" in finding.message


def test_a_repository_with_tools_and_a_silent_file(tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text(SERVER + '@mcp.tool\ndef ping() -> str:\n    """Answer pong."""\n')
    (tmp_path / "silent.py").write_text(SERVER + "mcp.add_tool(build_handler())\n")
    tools, summary = extract_paths_summarized([tmp_path])
    assert [t.name for t in tools.tools] == ["ping"]
    assert summary.line() == (
        "1 tool read from 2 source files (2 registration sites in 2 files); no tool could be read from 1 file that "
        f"registers tools: {tmp_path / 'silent.py'}; 1 part could not be read statically (TC090)."
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
