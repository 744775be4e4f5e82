"""Tool lists of the real servers that labeled cases name by file (`"server": "<name>"`) instead of inlining.

The natural-phrasing cases (tests/fixtures/natural/) reference a file of `../shared/corpora/servers/`, whose
`tools` array is the case's tool list; the third-party definitions are never copied into the project. The
folder is the one given, else the first `../shared/corpora/servers` found beside the cases file's folders.
Each server is read once, and all its cases share the same list (so selectors index it once).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.errors import CasesError

SERVERS_FOLDER = ("shared", "corpora", "servers")


def find_servers_dir(cases_file: Path) -> Path | None:
    """`../shared/corpora/servers` next to the cases file's folder or one of its parents, if any."""
    for folder in cases_file.resolve().parents:
        candidate = folder.parent.joinpath(*SERVERS_FOLDER)
        if candidate.is_dir():
            return candidate
    return None


class ServerTools:
    """Reads `<folder>/<server>.json` once per server; errors name the cases file and line."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._tools: dict[str, list[dict[str, Any]]] = {}

    def tools(self, server: str, *, file: str, line: int | None, case_id: str) -> list[dict[str, Any]]:
        if server in self._tools:
            return self._tools[server]

        def fail(problem: str) -> CasesError:
            return CasesError(f"case {case_id!r}: {problem}", file=file, line=line)

        if self.folder is None:
            raise fail(
                f"names server {server!r}, but no ../shared/corpora/servers folder was found next to the cases "
                "file; pass the folder of server files (--servers)"
            )
        if "/" in server or "\\" in server or server.startswith("."):
            raise fail(f"server {server!r} must be a file name without folders")
        path = self.folder / f"{server}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise fail(f"server file {path} does not exist") from None
        except OSError as exc:
            raise fail(f"cannot read server file {path}: {exc.strerror or exc}") from exc
        except json.JSONDecodeError as exc:
            raise fail(f"server file {path} is not valid JSON (line {exc.lineno}: {exc.msg})") from exc
        tools = data.get("tools") if isinstance(data, dict) else None
        named = isinstance(tools, list) and all(isinstance(t, dict) and isinstance(t.get("name"), str) for t in tools)
        if not named:
            raise fail(f'server file {path} has no "tools" list of objects with a string "name"')
        assert isinstance(tools, list)
        self._tools[server] = tools
        return tools
