"""The call cache: an unchanged suite costs zero calls, fresh re-runs bypass it, Redis (db 3) or files."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from app.audit.models import NO_TOOL
from app.audit.selection import SelectionRequest
from app.llm.cache import REDIS_PREFIX, FileCache, RedisCache
from app.llm.factory import build_live_selector, default_cache
from app.llm.selector import LiveSelector
from app.llm.usage import usage_totals

from .conftest import TOOLS, fast_profile
from .fake_openai import MODEL, FakeOpenAI

# Tests may use Redis database 3 only, and flush only it.


def reqs(n: int, *, fresh: bool = False) -> list[SelectionRequest]:
    return [SelectionRequest(tools=TOOLS, intent=f"request number {i}", fresh=fresh) for i in range(n)]


def test_second_identical_run_makes_no_calls_and_is_marked_cached(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    first = make_selector().select_many(reqs(5))
    assert len(server.chat_requests) == 5
    second = make_selector().select_many(reqs(5))  # a new selector, same file cache
    assert len(server.chat_requests) == 5
    assert [s.tool for s in second] == [s.tool for s in first]
    assert all((s.usage or {})["cached"] for s in second)
    assert not any((s.usage or {})["cached"] for s in first)
    totals = usage_totals(second)
    assert totals["model_calls"] == 0 and totals["cached_calls"] == 5 and totals["prompt_tokens"] == 0


def test_fresh_requests_bypass_the_cache_and_leave_it_unchanged(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    selector = make_selector()
    selector.select_many(reqs(2))
    fresh = selector.select_many(reqs(2, fresh=True))
    assert len(server.chat_requests) == 4
    assert not any((s.usage or {})["cached"] for s in fresh)
    selector.select_many(reqs(2))
    assert len(server.chat_requests) == 4


def test_changed_tools_settings_or_model_miss_the_cache(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector], env: dict[str, str], file_cache: FileCache
) -> None:
    make_selector().select_many(reqs(1))
    changed = [{**TOOLS[0], "description": "Search issues."}, *TOOLS[1:]]
    make_selector().select_many([SelectionRequest(tools=changed, intent="request number 0")])
    assert len(server.chat_requests) == 2
    make_selector(max_tokens=100).select_many(reqs(1))
    assert len(server.chat_requests) == 3
    server.models = (MODEL, "other-model")
    other = build_live_selector(model="other-model", cache=file_cache, profile=fast_profile(), env=env)
    other.select_many(reqs(1))
    assert len(server.chat_requests) == 4
    # Timeouts and retries do not change answers, so they share entries.
    make_selector(timeout_s=9.0, max_retries=0).select_many(reqs(1))
    assert len(server.chat_requests) == 4


def test_failed_infrastructure_calls_are_not_cached(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector], file_cache: FileCache
) -> None:
    from .fake_openai import error

    server.script.extend([error(500, "x")] * 3)
    with pytest.raises(Exception, match="failing with 500"):
        make_selector().select_many(reqs(1))
    assert not list(file_cache.root.rglob("*.json"))


def test_malformed_answers_are_cached_as_answers(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    from .fake_openai import completion

    server.script.append(completion("not json"))
    (first,) = make_selector().select_many(reqs(1))
    (second,) = make_selector().select_many(reqs(1))
    assert first.error and second.error == first.error and second.raw == "not json"
    assert len(server.chat_requests) == 1


def test_redis_cache_when_redis_url_is_set(
    server: FakeOpenAI, env: dict[str, str], redis_db: redis.Redis, redis_url: str
) -> None:
    redis_env = {**env, "REDIS_URL": redis_url}
    assert isinstance(default_cache(redis_env), RedisCache)
    first = build_live_selector(model=MODEL, profile=fast_profile(), env=redis_env).select_many(reqs(3))
    keys = redis_db.keys(REDIS_PREFIX + "*")
    assert len(keys) == 3
    assert 0 < redis_db.ttl(keys[0]) <= 30 * 24 * 3600
    second = build_live_selector(model=MODEL, profile=fast_profile(), env=redis_env).select_many(reqs(3))
    assert len(server.chat_requests) == 3
    assert [s.raw for s in second] == [s.raw for s in first]
    assert all((s.usage or {})["cached"] for s in second)


def test_file_cache_location_from_the_environment(tmp_path: Path) -> None:
    cache = default_cache({"TOOLCHOICE_CACHE_DIR": str(tmp_path)})
    assert isinstance(cache, FileCache) and cache.root == tmp_path / "llm"
    cache.set("ab" + "0" * 62, {"content": NO_TOOL})
    assert cache.get("ab" + "0" * 62) == {"content": NO_TOOL}
    assert cache.get("cd" + "0" * 62) is None
    (tmp_path / "llm" / "ab" / ("ab" + "0" * 62 + ".json")).write_text("{broken", encoding="utf-8")
    assert cache.get("ab" + "0" * 62) is None
    home = default_cache({})
    assert isinstance(home, FileCache)
    assert home.root == Path(os.path.expanduser("~")) / ".cache" / "toolchoice" / "llm"
