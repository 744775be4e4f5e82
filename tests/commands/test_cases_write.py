"""`toolchoice cases write`: the generated suite as a cases file, read back as the repository's own cases, and
reviews that run only those once the config says `generate: false`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from app.audit.loader import load_definitions
from app.audit.models import NO_TOOL, CaseFamily, Provenance
from app.audit.suite.build import build_suite
from app.audit.suite.cases_file import load_cases
from app.cli import app
from app.commands.audit import DEMO_DIR
from app.commands.inputs import read_text
from app.errors import InputError


def test_written_cases_read_back_as_the_same_suite_owned_by_the_user(tmp_path: Path) -> None:
    out = tmp_path / "cases.yaml"
    result = CliRunner().invoke(app, ["cases", "write", str(out), str(DEMO_DIR / "after.json")])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Written by `toolchoice cases write`") and "generate: false" in text
    read = {c.id: c for c in load_cases(str(out), text=text)}
    toolset = load_definitions("after.json", text=read_text(DEMO_DIR / "after.json"))
    generated = {c.id: c for c in build_suite([toolset]).cases}
    assert read.keys() == generated.keys()
    for cid, case in generated.items():
        mine = read[cid]
        assert (mine.intent, mine.expected, mine.scored, mine.removed_tools) == (
            case.intent, case.expected, case.scored, case.removed_tools
        )  # fmt: skip
        assert mine.provenance == Provenance.USER_DEFINED
    near = [c for c in read.values() if c.removed_tools]
    assert near and all(c.expected == NO_TOOL and c.family == CaseFamily.NEAR_MISS for c in near)


def test_an_existing_file_is_kept_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "cases.yaml"
    out.write_text("cases: []\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["cases", "write", str(out), str(DEMO_DIR / "after.json")])
    assert isinstance(result.exception, InputError) and "pass --force" in str(result.exception)
    assert out.read_text(encoding="utf-8") == "cases: []\n"


def test_with_generate_false_a_review_runs_only_the_committed_cases(tmp_path: Path) -> None:
    cases = tmp_path / "cases.yaml"
    cases.write_text(
        "cases:\n"
        "  - {id: mine, intent: 'Show me the helpdesk ticket T-1042.', expected: get_ticket}\n"
        "  - {id: near, intent: 'Show me the helpdesk ticket T-1042.', expected: NO_TOOL, without: [get_ticket]}\n",
        encoding="utf-8",
    )
    config = tmp_path / "toolchoice.yml"
    config.write_text("cases: cases.yaml\ngenerate: false\n", encoding="utf-8")
    args = ["diff", str(DEMO_DIR / "before.json"), str(DEMO_DIR / "after.json"), "--config", str(config)]
    result = CliRunner().invoke(app, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    runs = json.loads(result.output)["comparison"]["head"]["runs"]
    assert sorted(r["case_id"] for r in runs) == ["mine", "near"]
