"""`toolchoice rules`: text and JSON listings of the shipped rules; a broken rules folder is a user error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from app import resources
from app.audit.rules import load_rules
from app.cli import app
from app.errors import RuleFileError

runner = CliRunner()


def test_text_lists_every_rule_with_its_rationale() -> None:
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0, result.output
    rules = load_rules()
    for rule in rules.rules:
        line = next(x for x in result.output.splitlines() if x.startswith(rule.id + " "))
        assert rule.dimension.value in line and rule.severity.value in line and rule.target.value in line
        assert rule.rationale in line
    assert f"{len(rules.rules)} rules" in result.output


def test_json_is_parseable_and_complete() -> None:
    result = runner.invoke(app, ["rules", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    rules = load_rules()
    assert data["hash"] == rules.hash
    assert [r["id"] for r in data["rules"]] == [r.id for r in rules.rules]
    assert data["rules"][0].keys() >= {"id", "dimension", "severity", "target", "rationale", "options"}


def test_a_broken_rules_folder_raises_a_rule_file_error(tmp_path: Path) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    shutil.copy(resources.rules_dir() / "schema.json", folder / "schema.json")
    (folder / "TC101-x.yml").write_text("id: TC101\nseverity: loud\n", encoding="utf-8")
    result = runner.invoke(app, ["rules", "--rules-dir", str(folder)])
    assert isinstance(result.exception, RuleFileError)
    assert "TC101-x.yml" in str(result.exception)
