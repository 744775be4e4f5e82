"""`toolchoice extract`: the listing a client receives, locations and findings beside it, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "extract"


def toolchoice(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_extract_prints_the_client_listing_with_side_tables() -> None:
    source = FIXTURES / "typescript" / "register_tool.ts"
    done = toolchoice("extract", str(source))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    expected = json.loads((FIXTURES / "typescript" / "register_tool.ts.expected.json").read_text())
    assert out["tools"] == expected["tools"]
    assert list(out["x-toolchoice-locations"]) == [t["name"] for t in expected["tools"]]
    where = out["x-toolchoice-locations"]["search_recipes"]
    assert where["file"] == str(source) and where["syntax"] == "typescript"
    assert set(where) >= {"tool_lines", "name_lines", "description_lines", "parameter_description_lines"}
    assert out["x-toolchoice-findings"] == []
    assert all("x-toolchoice" not in json.dumps(t) for t in out["tools"])


def test_tools_only_and_output_file(tmp_path: Path) -> None:
    target = tmp_path / "listing.json"
    done = toolchoice("extract", str(FIXTURES / "go" / "gosdk"), "--tools-only", "--output", str(target))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert list(json.loads(target.read_text())) == ["tools"]


def test_findings_go_to_stderr_and_the_side_table() -> None:
    done = toolchoice("extract", str(FIXTURES / "python" / "unresolved.py"))
    assert done.returncode == 0
    out = json.loads(done.stdout)
    expected = json.loads((FIXTURES / "python" / "unresolved.py.findings.json").read_text())
    assert [f["line"] for f in out["x-toolchoice-findings"]] == [f["line"] for f in expected]
    assert done.stderr.count("TC090 could not be read statically") == len(expected) == 4
    assert f"unresolved.py:{expected[0]['line']}: TC090" in done.stderr


def test_globs_filter_a_folder() -> None:
    done = toolchoice("extract", str(FIXTURES), "--root", str(FIXTURES), "--glob", "go/**/*.go", "--tools-only")
    assert done.returncode == 0, done.stderr
    names = [t["name"] for t in json.loads(done.stdout)["tools"]]
    # A folder's own files come before its subfolders, each in name order.
    assert names == ["regional_lookup", "weather_forecast", "weather_alerts", "weather_history", "weather_history_raw",
                     "rename_city", "rename_station",
                     "list_items", "list_warehouses", "restock", "get_stock", "adjust_stock",
                     "list_cards", "move_card", "board_summary", "search_cards"]


def test_missing_path_exits_2_with_one_line() -> None:
    done = toolchoice("extract", "no/such/dir")
    assert done.returncode == 2
    assert done.stderr.strip() == "toolchoice: error: no/such/dir: no such file or folder"
    assert "Traceback" not in done.stderr


def test_language_per_glob_and_a_bad_option(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "server").write_text(
        'from fastmcp import FastMCP\nmcp = FastMCP("x")\n\n@mcp.tool\ndef hello() -> None:\n    """Say hello."""\n'
    )
    done = toolchoice("extract", str(tmp_path), "--language", "bin/*=python", "--tools-only")
    assert done.returncode == 0, done.stderr
    assert [t["name"] for t in json.loads(done.stdout)["tools"]] == ["hello"]
    bad = toolchoice("extract", str(tmp_path), "--language", "python")
    assert bad.returncode == 2 and "expected GLOB=LANGUAGE" in bad.stderr
