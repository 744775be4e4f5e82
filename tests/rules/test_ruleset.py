"""Loading rule files: schema validation with file and line, unknown checks, bad options, the hash."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app import resources
from app.audit.rules import load_rules
from app.errors import RuleFileError

GOOD = """\
id: TC101
dimension: description_quality
severity: error
target: tool
message: "{tool} has no description"
then:
  function: description_present
rationale: Models choose tools by their descriptions.
"""


@pytest.fixture
def rules_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    folder.mkdir()
    shutil.copy(resources.rules_dir() / "schema.json", folder / "schema.json")
    return folder


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _error(folder: Path) -> RuleFileError:
    with pytest.raises(RuleFileError) as info:
        load_rules(folder)
    return info.value


def test_shipped_rules_load_sorted_by_id() -> None:
    rules = load_rules()
    ids = [r.id for r in rules.rules]
    assert ids == sorted(ids)
    assert len(ids) >= 20
    assert {r.dimension.value for r in rules.rules} == {
        "input", "description_quality", "parameter_clarity", "distinguishability", "safety", "security"
    }


def test_a_good_file_loads(rules_dir: Path) -> None:
    _write(rules_dir, "TC101-description.yml", GOOD)
    assert [r.id for r in load_rules(rules_dir).rules] == ["TC101"]


def test_unknown_key_names_file_and_line(rules_dir: Path) -> None:
    _write(rules_dir, "TC101-description.yml", GOOD + "colour: red\n")
    err = _error(rules_dir)
    assert err.file == "rules/TC101-description.yml"
    assert "colour" in str(err)
    assert "rules/TC101-description.yml" in str(err)


def test_bad_severity_points_at_its_line(rules_dir: Path) -> None:
    _write(rules_dir, "TC101-description.yml", GOOD.replace("severity: error", "severity: fatal"))
    err = _error(rules_dir)
    assert err.line == 3
    assert "severity" in str(err)


def test_missing_required_key(rules_dir: Path) -> None:
    text = GOOD.replace("rationale: Models choose tools by their descriptions.\n", "")
    _write(rules_dir, "TC101-description.yml", text)
    assert "rationale" in str(_error(rules_dir))


def test_invalid_yaml_gives_the_line(rules_dir: Path) -> None:
    _write(rules_dir, "TC101-description.yml", GOOD + "then: [unclosed\n")
    err = _error(rules_dir)
    assert err.line is not None and err.line >= 9
    assert "YAML" in str(err)


def test_unknown_check_function(rules_dir: Path) -> None:
    _write(rules_dir, "TC101-description.yml", GOOD.replace("description_present", "description_is_lovely"))
    err = _error(rules_dir)
    assert "unknown check function 'description_is_lovely'" in str(err)
    assert err.line == 7  # the `function:` line


def test_bad_options_are_rejected(rules_dir: Path) -> None:
    text = GOOD.replace(
        "function: description_present", "function: description_max_length\n  options:\n    max_chars: -3"
    )
    _write(rules_dir, "TC101-description.yml", text)
    assert "max_chars" in str(_error(rules_dir))


def test_unknown_option_is_rejected(rules_dir: Path) -> None:
    text = GOOD.replace("function: description_present", "function: description_present\n  options:\n    loud: true")
    _write(rules_dir, "TC101-description.yml", text)
    assert "loud" in str(_error(rules_dir))


def test_bad_regex_option_is_rejected(rules_dir: Path) -> None:
    text = GOOD.replace(
        "function: description_present", "function: description_mentions\n  options:\n    patterns: ['(']"
    )
    _write(rules_dir, "TC101-description.yml", text)
    err = _error(rules_dir)
    assert "patterns/0" in str(err)
    assert err.line == 9  # the pattern's line


def test_check_on_the_wrong_target(rules_dir: Path) -> None:
    _write(rules_dir, "TC101-description.yml", GOOD.replace("target: tool", "target: parameter"))
    assert "target" in str(_error(rules_dir))


def test_unknown_message_placeholder(rules_dir: Path) -> None:
    _write(rules_dir, "TC101-description.yml", GOOD.replace("{tool} has", "{tool} has {colour} and"))
    err = _error(rules_dir)
    assert "{colour}" in str(err)
    assert err.line == 5


def test_file_name_must_start_with_the_id(rules_dir: Path) -> None:
    _write(rules_dir, "TC999-description.yml", GOOD)
    assert "TC101" in str(_error(rules_dir))


def test_hash_is_of_the_data_not_the_bytes(rules_dir: Path) -> None:
    path = _write(rules_dir, "TC101-description.yml", GOOD)
    first = load_rules(rules_dir).hash
    path.write_text("# a comment changes the bytes, not the rule\n" + GOOD, encoding="utf-8")
    assert load_rules(rules_dir).hash == first
    path.write_text(GOOD.replace("severity: error", "severity: warning"), encoding="utf-8")
    assert load_rules(rules_dir).hash != first
