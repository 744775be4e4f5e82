"""One commit's definition files from their texts: data and source, neighbours for imported values, errors."""

from __future__ import annotations

import json

import pytest

from app.errors import DefinitionError
from app.extract import snapshot
from app.extract.snapshot import context_paths, load_snapshot

SERVER = '''from mcp.server.fastmcp import FastMCP
from .texts import PING

mcp = FastMCP("hosts")


@mcp.tool(description=PING)
def ping_host(host: str) -> str:
    return host
'''
FILES = {
    "pkg/server.py": SERVER,
    "pkg/texts.py": 'PING = "Pings a host and returns the round-trip time."\n',
    "pyproject.toml": '[project]\nname = "hosts"\ndependencies = ["mcp>=1.2"]\n',
    "pkg/deep/other.py": "X = 1\n",
    "docs/guide.md": "# guide\n",
    "tools.json": json.dumps({"tools": [{"name": "get_time", "description": "Returns the time.", "inputSchema": {}}]}),
}
BLOBS = {path: f"blob-{path}" for path in FILES}


def read(blob: str, path: str) -> str:
    return FILES[blob.removeprefix("blob-")]


def test_neighbours_manifests_first_then_own_folder_then_above(monkeypatch: pytest.MonkeyPatch) -> None:
    assert context_paths(["pkg/server.py"], BLOBS) == ["pyproject.toml", "pkg/texts.py"]
    assert context_paths(["tools.json"], BLOBS) == []  # data files need no neighbours
    monkeypatch.setattr(snapshot, "MAX_CONTEXT_FILES", 1)
    assert context_paths(["pkg/server.py"], BLOBS) == ["pyproject.toml"]


def test_data_and_source_with_an_imported_value() -> None:
    tools = load_snapshot(["pkg/server.py", "tools.json", "missing.json"], blobs=BLOBS, read=read)
    assert tools.names() == ["ping_host", "get_time"]
    assert tools.by_name()["ping_host"].description == "Pings a host and returns the round-trip time."
    assert tools.by_name()["ping_host"].location.file == "pkg/server.py"


def test_unreadable_file_raises_or_is_reported() -> None:
    blobs = {"tools.json": "blob-tools.json", "bad.json": "bad"}

    def reader(blob: str, path: str) -> str:
        return "{not json" if blob == "bad" else read(blob, path)

    with pytest.raises(DefinitionError, match=r"bad\.json:1"):
        load_snapshot(["bad.json", "tools.json"], blobs=blobs, read=reader)
    skipped: list[str] = []
    tools = load_snapshot(["bad.json", "tools.json"], blobs=blobs, read=reader, on_error=lambda p, e: skipped.append(p))
    assert skipped == ["bad.json"] and tools.names() == ["get_time"]


def test_registrations_that_yield_no_tool_are_said_and_found() -> None:
    unreadable = (
        "from mcp.server.fastmcp import FastMCP\n"
        "from .names import build\n\n"
        "mcp = FastMCP('x')\n\n"
        "for spec in build():\n"
        "    mcp.tool(name=spec.name, description=spec.text)(spec.handler)\n"
    )
    files = {"srv/server.py": unreadable}
    said: list[str] = []
    tools = load_snapshot(
        list(files), blobs={p: p for p in files}, read=lambda blob, path: files[path], on_summary=said.append
    )
    assert not tools.tools
    assert len(said) == 1 and said[0].startswith("No tool could be read from the 1 line that looks like tool")
    assert any(f.rule_id == "TC090" and f.file == "srv/server.py" for f in tools.load_findings)


def test_a_readable_source_file_says_nothing() -> None:
    said: list[str] = []
    load_snapshot(["pkg/server.py"], blobs={p: p for p in FILES}, read=lambda b, p: FILES[p], on_summary=said.append)
    assert said == []
