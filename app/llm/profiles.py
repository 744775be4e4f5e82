"""The live selector's profile (selectors/live.yml): loaded, checked against its schema, and hashed."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from pydantic import BaseModel, ConfigDict

from app.audit.models import sha256_of
from app.errors import SelectorError
from app.resources import selectors_dir

PROFILE_FILE = "live.yml"
SCHEMA_FILE = "live.schema.json"


class NamedSchema(BaseModel):
    """A JSON Schema an answer must satisfy, and the name sent with it in `response_format`."""

    model_config = ConfigDict(frozen=True)

    name: str
    schema_: dict[str, Any]

    @classmethod
    def of(cls, data: dict[str, Any]) -> NamedSchema:
        return cls(name=data["name"], schema_=data["schema"])


class LiveSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    temperature: float
    seed: int | None = None
    max_tokens: int
    tool_choice: str
    strict_schema: bool
    timeout_s: float
    max_retries: int
    backoff_s: float
    max_retry_after_s: float
    concurrency: int


class LiveProfile(BaseModel):
    """The parsed profile; `hash` is the sha256 of its canonical JSON (recorded in every report)."""

    model_config = ConfigDict(frozen=True)

    name: str
    settings: LiveSettings
    system_prompt: str
    response: NamedSchema
    generation_system: str
    positive_prompt: str
    off_topic_prompt: str
    generation_response: NamedSchema
    validation_system: str
    validation_prompt: str
    validation_threshold: float
    validation_response: NamedSchema
    hash: str


def _schema_errors(data: Any) -> list[str]:
    schema = json.loads((selectors_dir() / SCHEMA_FILE).read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    out = []
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.path]):
        where = "/".join(str(p) for p in err.path) or "(top)"
        out.append(f"{where}: {err.message}")
    return out


def parse_profile(data: Any, *, source: str) -> LiveProfile:
    """Check `data` (the YAML document) against live.schema.json and build the profile."""
    problems = _schema_errors(data)
    if problems:
        raise SelectorError(f"{source}: invalid live selector profile: {'; '.join(problems[:5])}")
    gen, val = data["generation"], data["validation"]
    for where, template, fields in (
        ("generation/positive_prompt", gen["positive_prompt"], {"tools": "", "count": 1, "tool": ""}),
        ("generation/off_topic_prompt", gen["off_topic_prompt"], {"tools": "", "count": 1}),
        ("validation/user_prompt", val["user_prompt"], {"tools": "", "request": ""}),
    ):
        try:
            template.format(**fields)
        except (KeyError, IndexError, ValueError) as exc:
            allowed = ", ".join("{" + f + "}" for f in fields)
            raise SelectorError(
                f"{source}: {where} may use only {allowed} (write literal braces as {{{{ }}}}): {exc!r}"
            ) from exc
    for where, named in (("response_schema", data), ("generation", gen), ("validation", val)):
        try:
            Draft202012Validator.check_schema(named["response_schema"]["schema"])
        except SchemaError as exc:
            raise SelectorError(f"{source}: {where} response schema is not a JSON Schema: {exc.message}") from exc
    return LiveProfile(
        name=data["name"],
        settings=LiveSettings(**data["settings"]),
        system_prompt=data["system_prompt"],
        response=NamedSchema.of(data["response_schema"]),
        generation_system=gen["system_prompt"],
        positive_prompt=gen["positive_prompt"],
        off_topic_prompt=gen["off_topic_prompt"],
        generation_response=NamedSchema.of(gen["response_schema"]),
        validation_system=val["system_prompt"],
        validation_prompt=val["user_prompt"],
        validation_threshold=val["threshold"],
        validation_response=NamedSchema.of(val["response_schema"]),
        hash=sha256_of(data),
    )


def load_profile(path: Path | None = None) -> LiveProfile:
    """The shipped profile, or the one at `path`; a broken file raises SelectorError naming it."""
    if path is None:
        return _shipped_profile()
    return _load(path)


@cache
def _shipped_profile() -> LiveProfile:
    return _load(selectors_dir() / PROFILE_FILE)


def _load(path: Path) -> LiveProfile:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SelectorError(f"{path}: cannot read the live selector profile: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise SelectorError(f"{path}{line}: the live selector profile is not valid YAML") from exc
    return parse_profile(data, source=str(path))
