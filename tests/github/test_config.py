"""The repository config: defaults, errors naming key and line, short rule overrides, globs, the shipped schema."""

from __future__ import annotations

import json

import pytest
import yaml
from jsonschema import Draft202012Validator

from app.config import CONFIG_PATH, DEFAULT_PATHS, CommentPolicy, RepoConfig, config_json_schema, load_config
from app.errors import ConfigError
from app.resources import schemas_dir

EXAMPLE = """\
paths: ["mcp/**/*.json", "tools.yaml"]
format: auto
mode: synthetic
thresholds:
  min_score: 70
  max_drop: 2.5
  fail_on_regression: true
comment: on_change
suggestions: false
rules:
  overrides:
    TC101: off
    TC102: warning
    TC103: {severity: error, options: {min_words: 8}}
  ignore:
    - rule: TC104
      tool: legacy_search
      reason: kept for old clients until v3
cases: .github/toolchoice-cases.yml
drafts: true
"""


def _error(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        load_config(CONFIG_PATH, text=text)
    return info.value


def test_empty_or_comment_only_file_gives_the_defaults() -> None:
    for text in ("", "# nothing yet\n"):
        config = load_config(CONFIG_PATH, text=text)
        assert config == RepoConfig()
        assert config.paths == list(DEFAULT_PATHS) and config.comment == CommentPolicy.ON_CHANGE


def test_the_documented_example_loads_with_short_overrides_expanded() -> None:
    config = load_config(CONFIG_PATH, text=EXAMPLE)
    assert config.thresholds.min_score == 70 and config.thresholds.fail_on_regression
    assert config.rules.overrides["TC101"].enabled is False
    assert config.rules.overrides["TC102"].severity == "warning"
    assert config.rules.overrides["TC103"].options == {"min_words": 8}
    assert config.rules.ignore[0].reason.startswith("kept")
    assert config.drafts and not config.suggestions


@pytest.mark.parametrize(
    ("text", "key", "line", "problem"),
    [
        ("mode: synthetic\nbogus: 1\n", "bogus", 2, "unknown key"),
        ("thresholds:\n  min_score: 120\n", "thresholds.min_score", 2, "less than or equal to 100"),
        ("thresholds:\n  max_drop: lots\n", "thresholds.max_drop", 2, "valid number"),
        ("comment: sometimes\n", "comment", 1, "always"),
        ("mode: live\n", "mode", 1, "synthetic"),
        (
            "rules:\n  ignore:\n    - rule: TC1\n      tool: x\n      reason: ''\n",
            "rules.ignore[0].reason",
            5,
            "at least 1",
        ),
        ("paths:\n  - ok/tools.json\n  - /abs/tools.json\n", "paths", 2, "relative"),
        (
            "rules:\n  overrides:\n    TC101: {enabled: false, colour: red}\n",
            "rules.overrides.TC101.colour",
            3,
            "unknown key",
        ),
    ],
)
def test_errors_name_the_key_the_line_and_the_problem(text: str, key: str, line: int, problem: str) -> None:
    err = _error(text)
    assert err.key == key and err.line == line and err.file == CONFIG_PATH
    assert problem in str(err) and str(err).startswith(f"{CONFIG_PATH}:{line}: {key}: ")


def test_yaml_syntax_errors_and_odd_shapes_are_reported_with_a_line() -> None:
    assert _error("mode: synthetic\nthresholds: [1, 2\n").line == 3
    assert "mapping" in str(_error("- a\n- b\n"))
    dup = _error("mode: synthetic\ncomment: never\nmode: live_model\n")
    assert dup.key == "mode" and dup.line == 3 and "duplicate" in str(dup)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("tools.json", True),
        ("servers/a/tools.json", True),
        ("x.tools.json", True),
        ("src/tools/list.json", True),
        ("tools.json.bak", False),
        ("docs/tools.md", False),
    ],
)
def test_default_globs(path: str, expected: bool) -> None:
    assert RepoConfig().matches(path) is expected


def test_custom_globs_star_stays_within_a_directory() -> None:
    config = RepoConfig(paths=["mcp/*.json"])
    assert config.matches("mcp/a.json") and not config.matches("mcp/sub/a.json")


def test_shipped_schema_is_the_model_schema() -> None:
    shipped = json.loads((schemas_dir() / "toolchoice-config.schema.json").read_text(encoding="utf-8"))
    assert shipped == config_json_schema(), "regenerate app/schemas/toolchoice-config.schema.json"


def test_schema_and_loader_agree_on_good_and_bad_files() -> None:
    validator = Draft202012Validator(config_json_schema())
    assert not list(validator.iter_errors(yaml.safe_load(EXAMPLE)))
    for bad in (
        "bogus: 1\n",
        "thresholds:\n  min_score: 120\n",
        "comment: sometimes\n",
        "rules:\n  overrides:\n    TC101: maybe\n",
    ):
        assert list(validator.iter_errors(yaml.safe_load(bad))), bad
        with pytest.raises(ConfigError):
            load_config(CONFIG_PATH, text=bad)
