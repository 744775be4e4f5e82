"""Each test run works in a Redis database of its own, claimed in database 0, so parallel runs never meet."""

from __future__ import annotations

from conftest import CLAIM_KEY, REDIS_HOST
from redis import Redis


def test_this_run_holds_the_claim_on_its_database(redis_url: str) -> None:
    db = int(redis_url.rsplit("/", 1)[1])
    assert db != 0, "database 0 holds the claims and is never lent"
    owner = Redis.from_url(f"{REDIS_HOST}/0").get(CLAIM_KEY.format(db=db))
    assert owner is not None and owner.decode().startswith("pid ")


def test_another_run_claims_a_different_database(redis_url: str) -> None:
    claims = Redis.from_url(f"{REDIS_HOST}/0")
    mine = int(redis_url.rsplit("/", 1)[1])
    taken = claims.set(CLAIM_KEY.format(db=mine), "another run", nx=True, ex=60)
    assert not taken, "a second run must not get the database this run holds"


def test_flushing_this_runs_database_leaves_other_databases_alone(redis_db: Redis, redis_url: str) -> None:
    mine = int(redis_url.rsplit("/", 1)[1])
    other = Redis.from_url(f"{REDIS_HOST}/{15 if mine != 15 else 14}")
    other.set("toolchoice-tests:bystander", "kept", ex=60)
    redis_db.set("mine", "1")
    redis_db.flushdb()
    assert other.get("toolchoice-tests:bystander") == b"kept"
    other.delete("toolchoice-tests:bystander")
