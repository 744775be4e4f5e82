"""The repository config `.github/toolchoice.yml`: model, loader with line-accurate errors, path globs.

The model is in models.py, the loader (and the JSON Schema) in loader.py, the file's path and the globs in paths.py.
"""

from __future__ import annotations

from app.config.loader import config_change_note, config_json_schema, load_config
from app.config.models import (
    CommentPolicy,
    DefinitionFormat,
    LiveBudget,
    LiveConfig,
    RepoConfig,
    ServerConfig,
    SuccessorEntry,
    Thresholds,
)
from app.config.paths import CONFIG_PATH, DEFAULT_PATHS, glob_regex

__all__ = [
    "CONFIG_PATH",
    "DEFAULT_PATHS",
    "CommentPolicy",
    "DefinitionFormat",
    "LiveBudget",
    "LiveConfig",
    "RepoConfig",
    "ServerConfig",
    "SuccessorEntry",
    "Thresholds",
    "config_change_note",
    "config_json_schema",
    "glob_regex",
    "load_config",
]
