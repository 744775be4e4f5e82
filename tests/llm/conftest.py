"""Fixtures of the live_model tests: the loopback fake server and selectors pointed at it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.llm.cache import Cache, FileCache
from app.llm.factory import build_live_selector
from app.llm.profiles import LiveProfile, load_profile
from app.llm.selector import LiveSelector

from .fake_openai import API_KEY, MODEL, FakeOpenAI

# Tools as a real MCP server lists them: a dotted name, a name past OpenAI's 64 characters, a plain one.
TOOLS: list[dict[str, Any]] = [
    {
        "name": "github.search_issues",
        "description": "Search issues and pull requests in a GitHub repository.",
        "inputSchema": {
            "type": "object",
            "properties": {"repo": {"type": "string", "description": "owner/name"}, "query": {"type": "string"}},
            "required": ["repo", "query"],
            "additionalProperties": False,
        },
    },
    {
        "name": "workspace.documents.spreadsheets.append_rows_to_the_named_sheet_of_a_spreadsheet_v2",
        "description": "Append rows to a sheet.",
        "inputSchema": {"type": "object", "properties": {"sheet": {"type": "string"}}},
    },
    {
        "name": "send_slack_message",
        "description": "Post a message to a Slack channel.",
        "inputSchema": {
            "type": "object",
            "properties": {"channel": {"type": "string"}, "text": {"type": "string"}},
            "required": ["channel", "text"],
        },
    },
]


def fast_profile(**settings: Any) -> LiveProfile:
    """The shipped profile with test-sized waits (retries, backoff, timeout) unless overridden."""
    base = load_profile()
    values = {"backoff_s": 0.01, "max_retries": 2, "timeout_s": 5.0, **settings}
    return base.model_copy(update={"settings": base.settings.model_copy(update=values)})


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def env(server: FakeOpenAI, tmp_path: Path) -> dict[str, str]:
    return {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": server.url,
        "TOOLCHOICE_CACHE_DIR": str(tmp_path / "env-cache"),
    }


@pytest.fixture
def file_cache(tmp_path: Path) -> FileCache:
    return FileCache(tmp_path / "cache")


@pytest.fixture
def make_selector(env: dict[str, str], file_cache: FileCache) -> Callable[..., LiveSelector]:
    def make(
        *, cache: Cache | None = None, concurrency: int = 4, extra_env: dict[str, str] | None = None, **settings: Any
    ) -> LiveSelector:
        return build_live_selector(
            model=MODEL,
            concurrency=concurrency,
            cache=cache if cache is not None else file_cache,
            profile=fast_profile(**settings),
            env={**env, **(extra_env or {})},
        )

    return make
