"""Loading the repository config: YAML with line-accurate errors, the short override form, what a PR's copy would
change, the JSON Schema of the file."""

from __future__ import annotations

from typing import Any

import yaml
from pydantic import ValidationError

from app.audit.models import Severity
from app.config.models import RepoConfig
from app.config.paths import CONFIG_PATH
from app.errors import ConfigError

_SHORT_OFF = {False, "off", "disabled", "false"}
_SHORT_ON = {True, "on", "enabled", "true"}
_SEVERITIES = {s.value for s in Severity}


def _expand_short_overrides(data: dict[str, Any]) -> None:
    """`rules.overrides.TC101: off` -> {enabled: false}; `: on` -> {enabled: true}; `: warning` -> severity."""
    rules = data.get("rules")
    overrides = rules.get("overrides") if isinstance(rules, dict) else None
    if not isinstance(overrides, dict):
        return
    for rule_id, value in list(overrides.items()):
        key = value.lower() if isinstance(value, str) else value
        if isinstance(key, bool | str) and key in _SHORT_OFF:
            overrides[rule_id] = {"enabled": False}
        elif isinstance(key, bool | str) and key in _SHORT_ON:
            overrides[rule_id] = {"enabled": True}
        elif isinstance(key, str) and key in _SEVERITIES:
            overrides[rule_id] = {"severity": key}


def _dotted(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _node_for(root: yaml.Node, loc: tuple[int | str, ...]) -> tuple[yaml.Node, bool]:
    """The deepest YAML node along `loc`, and whether the whole path was found."""
    node = root
    for part in loc:
        child: yaml.Node | None = None
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(part):
                    child = value_node
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            child = node.value[part]
        if child is None:
            return node, False
        node = child
    return node, True


def _key_node(root: yaml.Node, loc: tuple[int | str, ...]) -> yaml.Node | None:
    parent, found = _node_for(root, loc[:-1])
    if found and isinstance(parent, yaml.MappingNode):
        for key_node, _ in parent.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(loc[-1]):
                return key_node
    return None


def _check_duplicate_keys(node: yaml.Node, name: str, path: str = "") -> None:
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value)
            where = f"{path}.{key}" if path else key
            if key in seen:
                raise ConfigError(f"{where}: duplicate key", file=name, line=key_node.start_mark.line + 1, key=where)
            seen.add(key)
            _check_duplicate_keys(value_node, name, where)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _check_duplicate_keys(item, name, f"{path}[{index}]")


def _problem(err: Any) -> str:
    if err["type"] == "extra_forbidden":
        return "unknown key"
    msg = str(err["msg"])
    return msg.removeprefix("Value error, ")


def load_config(name: str, *, text: str) -> RepoConfig:
    """Parse and validate a config file's text; raises ConfigError naming the key, the line and the problem."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise ConfigError(f"not valid YAML: {exc.problem or exc}", file=name, line=line) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"not valid YAML: {exc}", file=name) from None
    if data is None or root is None:
        return RepoConfig()
    if not isinstance(data, dict):
        raise ConfigError(
            f"the top level must be a mapping of keys, not {type(data).__name__}",
            file=name,
            line=root.start_mark.line + 1,
        )
    _check_duplicate_keys(root, name)
    _expand_short_overrides(data)
    try:
        config = RepoConfig.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(p for p in err["loc"] if p != "[key]")
        key = _dotted(loc)
        if err["type"] == "extra_forbidden":
            node = _key_node(root, loc) or _node_for(root, loc)[0]
        else:
            node = _node_for(root, loc)[0]
        raise ConfigError(f"{key}: {_problem(err)}", file=name, line=node.start_mark.line + 1, key=key) from None
    lines: dict[str, int] = {}
    for old in config.successors:
        entry = _key_node(root, ("successors", old))
        if entry is not None:
            lines[old] = entry.start_mark.line + 1
    config._where = (name, lines)
    return config


def config_change_note(base: RepoConfig, head_text: str | None) -> str:
    """What the PR's own copy of the config would change (it takes effect only once merged)."""
    if head_text is None:
        return f"This pull request deletes {CONFIG_PATH}; the base branch's copy still applies."
    try:
        head = load_config(CONFIG_PATH, text=head_text)
    except ConfigError as exc:
        return f"This pull request's {CONFIG_PATH} is invalid and would not load: {exc}"
    before, after = base.model_dump(mode="json"), head.model_dump(mode="json")
    changed = sorted(k for k in after if before.get(k) != after.get(k))
    if not changed:
        return f"This pull request edits {CONFIG_PATH} without changing any setting."
    listed = ", ".join(changed)  # plain text: the renderer escapes notes
    return f"This pull request changes {CONFIG_PATH} ({listed}); the base branch's copy applies until it is merged."


def config_json_schema() -> dict[str, Any]:
    """The JSON Schema of the YAML file (shipped as app/schemas/toolchoice-config.schema.json)."""
    schema = RepoConfig.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://toolchoice.dev/schemas/toolchoice-config.schema.json"
    # The YAML allows the short form `TC101: off` (or on, or a severity) for an override.
    override_ref = {"$ref": "#/$defs/RuleOverride"}
    short = {
        "anyOf": [
            override_ref,
            {"type": "boolean"},
            {"enum": sorted(str(v) for v in (_SHORT_OFF | _SHORT_ON | _SEVERITIES) if isinstance(v, str))},
        ]
    }
    schema["$defs"]["RuleSettings"]["properties"]["overrides"]["additionalProperties"] = short
    return schema
