"""Extraction never runs submitted code: files whose import or execution would write a marker leave none."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.extract import extract_file, extract_paths

ROOT = Path(__file__).resolve().parents[2]

PYTHON = '''\
import pathlib
pathlib.Path({marker!r}).write_text("imported")

from fastmcp import FastMCP

mcp = FastMCP(name="trap")


def _touch(fn):
    pathlib.Path({marker!r}).write_text("decorated")
    return fn


class Meta(type):
    def __new__(mcs, *args):
        pathlib.Path({marker!r}).write_text("class built")
        return super().__new__(mcs, *args)


class Trap(metaclass=Meta):
    pass


@mcp.tool(description=str(pathlib.Path({marker!r}).write_text("evaluated")))
@_touch
def trapped(path: str = __import__("os").system("touch " + {marker!r})) -> str:
    """Never called."""
    return path


@mcp.tool
def plain(x: int) -> int:
    """A tool that is read, not run."""
    return x


from trap_handlers import trapped_handler  # noqa: E402

mcp.tool(name="imported")(trapped_handler)


if __name__ == "__main__":
    pathlib.Path({marker!r}).write_text("main")
'''

# A module whose function trap.py registers by a call: read for the handler, never imported.
HANDLERS = '''\
import pathlib
pathlib.Path({marker!r}).write_text("handler module imported")


def trapped_handler(city: str) -> str:
    """Read from its module, never run."""
    return city
'''

TYPESCRIPT = '''\
import {{ writeFileSync }} from "node:fs";
writeFileSync({marker!r}, "executed");
server.registerTool("ts_tool", {{ description: "Read, not run." }}, async () => {{
  writeFileSync({marker!r}, "called");
  return {{ content: [] }};
}});
'''

GO = '''\
package trap

import (
	"os"

	"github.com/mark3labs/mcp-go/mcp"
)

func init() {{ _ = os.WriteFile({marker_go}, []byte("init"), 0o644) }}

var Tool = mcp.NewTool("go_tool", mcp.WithDescription("Read, not run."))
'''


def _write_traps(folder: Path, marker: Path) -> None:
    (folder / "trap.py").write_text(PYTHON.format(marker=str(marker)))
    (folder / "trap_handlers.py").write_text(HANDLERS.format(marker=str(marker)))
    (folder / "setup.py").write_text(f"import pathlib\npathlib.Path({str(marker)!r}).write_text('setup')\n")
    (folder / "conftest.py").write_text(f"import pathlib\npathlib.Path({str(marker)!r}).write_text('conftest')\n")
    (folder / "trap.ts").write_text(TYPESCRIPT.format(marker=str(marker)))
    (folder / "trap.go").write_text(GO.format(marker_go='"' + str(marker) + '"'))


def test_extracting_a_file_leaves_no_marker(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    _write_traps(tmp_path, marker)
    modules_before = set(sys.modules)
    tools = extract_file(tmp_path / "trap.py")
    assert not marker.exists()
    assert not {"trap", "trap_handlers"} & (set(sys.modules) - modules_before)
    assert {"plain", "imported"} <= set(tools.names())  # the file and its handler's module were read


def test_extracting_a_folder_leaves_no_marker(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    _write_traps(tmp_path, marker)
    tools = extract_paths([tmp_path])
    assert not marker.exists()
    assert {"plain", "ts_tool", "go_tool"} <= set(tools.names())


def test_the_cli_leaves_no_marker(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    _write_traps(tmp_path, marker)
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "extract", str(tmp_path), "--tools-only"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    assert '"name": "go_tool"' in done.stdout
