"""Service settings from the environment (Probot's names), built by a cached factory, never at import time."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from pydantic import Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.errors import ConfigError


class Settings(BaseSettings):
    """What the web service and the workers need. Field names map to the environment variables in capitals."""

    model_config = SettingsConfigDict(env_file=None, extra="ignore", case_sensitive=False)

    app_id: int
    private_key: str | None = None
    private_key_path: Path | None = None
    webhook_secret: str = Field(min_length=1)
    github_api_url: str = "https://api.github.com"
    redis_url: str | None = None
    public_url: str | None = None
    queue_name: str = "toolchoice"

    @model_validator(mode="after")
    def _key_given(self) -> Settings:
        if not self.private_key and not self.private_key_path:
            raise ValueError("PRIVATE_KEY or PRIVATE_KEY_PATH must be set")
        return self

    def private_key_pem(self) -> str:
        """The App's private key text; a Probot-style key with literal "\\n" is accepted too."""
        if self.private_key:
            return self.private_key.replace("\\n", "\n")
        assert self.private_key_path is not None
        try:
            return self.private_key_path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"PRIVATE_KEY_PATH {self.private_key_path}: {exc.strerror}") from None


_ENV_NAMES = {"app_id": "APP_ID", "webhook_secret": "WEBHOOK_SECRET", "private_key": "PRIVATE_KEY"}


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment (and `overrides`); raises ConfigError naming every missing variable."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems: list[str] = []
        for err in exc.errors():
            field = str(err["loc"][0]) if err["loc"] else ""
            name = _ENV_NAMES.get(field, field.upper())
            if err["type"] == "missing":
                problems.append(f"{name} is not set")
            elif not field:
                problems.append(str(err["msg"]).removeprefix("Value error, "))
            else:
                problems.append(f"{name}: {err['msg']}")
        key_problem = "PRIVATE_KEY or PRIVATE_KEY_PATH must be set"
        given = {k.lower() for k in overrides} | {k.lower() for k in os.environ}
        if key_problem not in problems and not given & {"private_key", "private_key_path"}:
            problems.append(key_problem)
        raise ConfigError("the service cannot start: " + "; ".join(problems)) from None


@cache
def get_settings() -> Settings:
    """The process's settings, read once on first use (by the entry points only)."""
    return load_settings()
