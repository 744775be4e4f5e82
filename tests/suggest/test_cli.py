"""`toolchoice suggest` as a user meets it: the diff with effects, --write, JSON, errors in one line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.audit.loader import load_definitions

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "app" / "demo"


def toolchoice(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )


@pytest.fixture
def work(tmp_path: Path) -> Path:
    shutil.copy(DEMO / "before.json", tmp_path / "tools.json")
    shutil.copy(DEMO / "cases.yaml", tmp_path / "cases.yaml")
    return tmp_path


def test_prints_a_diff_with_each_effect_and_the_synthetic_caveat(work: Path) -> None:
    out = toolchoice("suggest", "tools.json", "--cases", "cases.yaml", cwd=work)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "mode: synthetic" in text
    assert "is not evidence that a real model improves" in text
    assert "--- a/tools.json\n+++ b/tools.json\n" in text
    assert "Accepted (" in text and "Rejected (" in text
    assert "overall " in text and "->" in text
    # Nothing is written without --write.
    assert (work / "tools.json").read_text() == (DEMO / "before.json").read_text()


def test_write_applies_accepted_suggestions_and_keeps_the_rest(work: Path) -> None:
    before = (work / "tools.json").read_text()
    out = toolchoice("suggest", "tools.json", "--cases", "cases.yaml", "--format", "json", cwd=work)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    accepted = [s for s in data["suggestions"] if s["accepted"]]
    assert accepted
    out = toolchoice("suggest", "tools.json", "--cases", "cases.yaml", "--write", cwd=work)
    assert out.returncode == 0, out.stderr
    assert "wrote" in out.stderr
    after = (work / "tools.json").read_text()
    tools = load_definitions("tools.json", text=after).by_name()
    for s in accepted:
        if s["field"] == "description":
            assert tools[s["tool"]].description == s["new"]
    # Lines that held no changed string are byte-identical.
    changed = {s["lines"]["start"] for s in accepted}
    for n, (a, b) in enumerate(zip(before.splitlines(), after.splitlines(), strict=True), start=1):
        if n not in changed:
            assert a == b


def test_json_output_has_effects_and_diffs(work: Path) -> None:
    out = toolchoice("suggest", "tools.json", "--format", "json", "--max", "2", cwd=work)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["mode"] == "synthetic" and data["rewriter"] == "synthetic"
    rewritten = {s["tool"] for s in data["suggestions"]}
    assert len(rewritten) <= 2
    assert any("over the limit of 2" in k["reason"] for k in data["skipped"])
    for s in data["suggestions"]:
        assert s["effect"] is not None or s["reason"].startswith("rejected:")
    assert set(data["diffs"]) <= {"tools.json"}


def test_bad_input_exits_2_with_one_line(work: Path) -> None:
    out = toolchoice("suggest", "missing.json", cwd=work)
    assert out.returncode == 2
    assert out.stderr.startswith("toolchoice: error: missing.json") and "Traceback" not in out.stderr
    (work / "broken.json").write_text('{"tools": [')
    out = toolchoice("suggest", "broken.json", cwd=work)
    assert out.returncode == 2 and "broken.json:1" in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_source_files_get_their_plain_literals_edited(tmp_path: Path) -> None:
    fixture = ROOT / "tests" / "fixtures" / "extract" / "python" / "lowlevel_server.py"
    shutil.copy(fixture, tmp_path / "server.py")
    out = toolchoice("suggest", "server.py", "--write", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    after = (tmp_path / "server.py").read_text()
    compile(after, "server.py", "exec")  # still Python
    assert "Use this to add note" in after
    # A description built from pieces is reported, never half-edited.
    assert "not one plain string literal" in out.stdout
    assert after.count("\n") == fixture.read_text().count("\n")
