"""The synthetic selector's profile: its weights and thresholds, read from selectors/synthetic.yml."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml
from jsonschema import Draft202012Validator
from pydantic import BaseModel, ConfigDict

from app.audit.identifiers import remember
from app.audit.models import sha256_of
from app.errors import InputError

PROFILE_FILE = "synthetic.yml"
SCHEMA_FILE = "synthetic.schema.json"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Bm25(_Frozen):
    k1: float
    b: float
    typed_boost: float = 0.0


class FieldWeights(_Frozen):
    name: float
    description: float
    parameters: float
    boundary: float


class WordWeights(_Frozen):
    weak_weight: float
    weak: tuple[str, ...]
    synonym_weight: float = 0.0
    synonyms: tuple[tuple[str, ...], ...] = ()
    identifier: tuple[str, ...] = ()


class Actions(_Frozen):
    penalty: float
    verbs: dict[str, tuple[str, ...]]


class Decision(_Frozen):
    threshold: float
    coverage: float
    specific_words: float
    required_filled: float
    name_words: float
    request_values: float
    boundary_bonus: float
    exclusion_penalty: float
    typed_values: float = 0.0
    typed_unplaced: float = 0.0
    unmatched_words: float = 0.0
    synonym_share: float = 0.0
    core_share: float = 0.0
    name_objects: float = 0.0
    margin: float = 0.0
    long_words: float = 0.0
    question: float = 0.0
    action_conflict: float = 0.0
    semantic_cosine: float = 0.0
    semantic_margin: float = 0.0
    semantic_agree: float = 0.0


class Semantic(_Frozen):
    """The sentence embedding read (app/semantic/ supplies it), pinned by the sha256 of its weights."""

    model: str
    weights_sha256: str
    blend: float
    reads: Literal["whole", "clauses"] = "whole"  # what a tool's ranking cosine is of (semantic.tool_pieces)


class ConfidenceSettings(_Frozen):
    scale: float


class CacheSizes(_Frozen):
    tool_sets: int
    tools: int


class Profile(_Frozen):
    """A validated profile; `hash` is the sha256 of its canonical JSON (the file's data, not its text)."""

    version: int
    name: str
    description: str = ""
    bm25: Bm25
    fields: FieldWeights
    words: WordWeights
    actions: Actions
    semantic: Semantic | None = None
    decision: Decision
    confidence: ConfidenceSettings
    cache: CacheSizes
    hash: str = ""

    def settings(self) -> dict[str, Any]:
        """The weights as reported in SelectorInfo.settings (everything but the hash)."""
        return self.model_dump(mode="json", exclude={"hash"}, exclude_none=True)


@cache
def _validator(schema_path: Path) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_path.read_text(encoding="utf-8")))


# Profiles already read in this process, by file and version: a worker's jobs, and both sides of a review, build
# their selector from the same file (YAML parsing and schema validation took 40 ms a review).
_LOADED: dict[tuple[str, int, int, str], Profile] = {}


def load_profile(path: Path, *, schema_path: Path) -> Profile:
    """Read and validate a profile file (once per version of the file); InputError names the file and the
    problem."""
    try:
        stat = path.stat()
    except OSError:
        return _load_profile(path, schema_path=schema_path)  # says why the file cannot be read
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, str(schema_path))
    profile = _LOADED.get(key)
    if profile is None:
        profile = _LOADED[key] = _load_profile(path, schema_path=schema_path)
    if profile.semantic is not None:  # the model it pins is named by hash in every report's settings
        remember(profile.semantic.weights_sha256)
    return profile


def _load_profile(path: Path, *, schema_path: Path) -> Profile:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read selector profile: {exc.strerror or exc}", file=str(path)) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise InputError(f"selector profile is not valid YAML: {exc}", file=str(path), line=line) from exc
    if not isinstance(data, dict):
        raise InputError("selector profile must be a mapping", file=str(path))
    errors = sorted(_validator(schema_path).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "(top level)"
        raise InputError(f"selector profile is invalid at {where}: {first.message}", file=str(path))
    profile = Profile.model_validate(data)
    return profile.model_copy(update={"hash": sha256_of(profile.settings())})


def read_profile(path: Path | None = None) -> Profile:
    """The profile at `path` (default: the shipped selectors/synthetic.yml), validated."""
    from app.resources import selectors_dir

    base = selectors_dir()
    return load_profile(path or base / PROFILE_FILE, schema_path=base / SCHEMA_FILE)
