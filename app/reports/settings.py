"""Settings of the report store and the public audit API, from the environment (read by entry points only)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

# Anonymous audits (POST /api/audits, no installation) are kept a week: long enough to share a link.
ANONYMOUS_RETENTION_DAYS = 7
# An installation's reports are kept this long unless the operator says otherwise.
DEFAULT_RETENTION_DAYS = 90


def default_data_dir() -> Path:
    return Path.home() / ".local" / "share" / "toolchoice"


class ReportSettings(BaseSettings):
    """Environment: REDIS_URL, PUBLIC_URL, TOOLCHOICE_DATA_DIR, TOOLCHOICE_REPORT_RETENTION_DAYS,
    TOOLCHOICE_ANONYMOUS_RETENTION_DAYS, TOOLCHOICE_LINK_SECRET, TOOLCHOICE_AUDIT_MAX_BYTES,
    TOOLCHOICE_AUDIT_RATE_LIMIT (audits per client address per hour), TOOLCHOICE_AUDIT_MAX_TOOLS."""

    model_config = SettingsConfigDict(env_file=None, extra="ignore", case_sensitive=False)

    redis_url: str | None = Field(default=None, validation_alias=AliasChoices("redis_url", "REDIS_URL"))
    public_url: str = Field(default="http://localhost:8000", validation_alias=AliasChoices("public_url", "PUBLIC_URL"))
    data_dir: Path = Field(
        default_factory=default_data_dir, validation_alias=AliasChoices("data_dir", "TOOLCHOICE_DATA_DIR")
    )
    retention_days: float = Field(
        default=DEFAULT_RETENTION_DAYS,
        gt=0,
        validation_alias=AliasChoices("retention_days", "TOOLCHOICE_REPORT_RETENTION_DAYS"),
    )
    anonymous_retention_days: float = Field(
        default=ANONYMOUS_RETENTION_DAYS,
        gt=0,
        validation_alias=AliasChoices("anonymous_retention_days", "TOOLCHOICE_ANONYMOUS_RETENTION_DAYS"),
    )
    # Key of the HMAC that signs private reports' links; without it private reports cannot be linked.
    link_secret: str | None = Field(
        default=None, validation_alias=AliasChoices("link_secret", "TOOLCHOICE_LINK_SECRET")
    )
    # 2 MB holds a few thousand tool definitions; bigger bodies are refused with 413.
    max_body_bytes: int = Field(
        default=2 * 1024 * 1024, gt=0, validation_alias=AliasChoices("max_body_bytes", "TOOLCHOICE_AUDIT_MAX_BYTES")
    )
    # A synthetic audit costs about a second of CPU; 30 an hour per address keeps one client from hogging it.
    rate_limit: int = Field(
        default=30, ge=1, validation_alias=AliasChoices("rate_limit", "TOOLCHOICE_AUDIT_RATE_LIMIT")
    )
    rate_window_seconds: int = 3600
    # Rules and selection at 1,000 tools take ~17 s of CPU (bench/RESULTS.md); 300 keeps one audit to a few seconds.
    max_tools: int = Field(default=300, ge=1, validation_alias=AliasChoices("max_tools", "TOOLCHOICE_AUDIT_MAX_TOOLS"))

    @property
    def reports_dir(self) -> Path:
        return self.data_dir / "reports"


@cache
def get_report_settings() -> ReportSettings:
    """The process's report settings, read once on first use."""
    return ReportSettings()
