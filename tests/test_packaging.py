"""A wheel carries rules/, selectors/, templates/, the demo and the schemas, and runs without the checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_has_the_data_and_runs_from_an_unpacked_copy(tmp_path: Path) -> None:
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = tmp_path.glob("toolchoice-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in (
        "app/_data/rules/schema.json",
        "app/_data/rules/TC101-description-present.yml",
        "app/_data/selectors/synthetic.yml",
        "app/_data/templates/pr_comment.md.j2",
        "app/demo/before.json",
        "app/schemas/export.schema.json",
        "app/redaction/secret_patterns.yml",
        "app/audit/suite/lexicon.yml",
        "app/audit/suite/frames.yml",
    ):
        assert required in names, f"{required} is missing from the wheel"
    assert not any(n.startswith("selectors/") or n.startswith("rules/") for n in names)
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    run = subprocess.run(
        [sys.executable, "-m", "app.cli", "demo", "--format", "md"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "| Selection accuracy |" in run.stdout and "mode: `synthetic" in run.stdout
    rules = subprocess.run(
        [sys.executable, "-c", "import app.resources as r; print(r.rules_dir())"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
    )
    assert "_data" in rules.stdout
