"""Shared test fixtures: where ../shared is (a skip when it is absent), and this run's own Redis database."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis import Redis

from app.egress.policy import ENV_ALLOW_HOSTS

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


# Our fakes (GitHub API, OpenAI server, llama.cpp) listen on loopback, which outbound connections refuse:
# the tests let them through the operator's allowlist, exactly as a deployment with a local model would.
# Set for the whole run (and inherited by the command-line runs the tests start).
TEST_ALLOW_HOSTS = "127.0.0.1,localhost"
os.environ[ENV_ALLOW_HOSTS] = TEST_ALLOW_HOSTS

# Sentence vectors are kept for this run only (app/semantic/vector_cache.py): warm across its tests and the command
# lines they start, never shared with another run or the user's own cache.
os.environ["TOOLCHOICE_CACHE_DIR"] = tempfile.mkdtemp(prefix="toolchoice-vectors-")
os.environ.pop("TOOLCHOICE_NO_CACHE", None)


def shared_path(*parts: str) -> Path:
    """A path under ../shared, skipping the test (with the reason) when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared corpora are not next to this checkout")
    return path


@pytest.fixture
def shared() -> Path:
    return shared_path()


REDIS_HOST = "redis://127.0.0.1:6379"
# Database 0 holds the claims; databases 1-15 are lent to test runs, one each, so runs at the same time
# (two checkouts, CI beside a developer) never flush each other's keys.
CLAIM_KEY = "toolchoice-tests:claim:{db}"
CLAIM_TTL_S = 3 * 3600  # longer than any test run; a run that dies frees its database when this runs out
LENDABLE_DBS = range(1, 16)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of a Redis database claimed for this test run alone (released at the end of the run)."""
    claims = Redis.from_url(f"{REDIS_HOST}/0")
    try:
        claims.ping()
    except Exception as exc:
        pytest.skip(f"no Redis at {REDIS_HOST}: {exc}")
    owner = f"pid {os.getpid()}"
    for db in LENDABLE_DBS:
        key = CLAIM_KEY.format(db=db)
        if claims.set(key, owner, nx=True, ex=CLAIM_TTL_S):
            break
    else:
        pytest.fail(f"every Redis database 1-15 at {REDIS_HOST} is claimed by another test run (keys {CLAIM_KEY})")
    url = f"{REDIS_HOST}/{db}"
    Redis.from_url(url).flushdb()
    try:
        yield url
    finally:
        Redis.from_url(url).flushdb()
        if claims.get(key) == owner.encode():
            claims.delete(key)


@pytest.fixture
def redis_db(redis_url: str) -> Iterator[Redis]:
    """This run's Redis database, empty at the start and end of the test."""
    redis = Redis.from_url(redis_url)
    redis.flushdb()
    yield redis
    redis.flushdb()
