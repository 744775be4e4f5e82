"""The on-disk vector cache (app/semantic/vector_cache.py): same vectors bit for bit, no model load when warm,
several processes at once, and a cache that cannot be used is no error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from app.semantic import minilm
from app.semantic.graph import GRAPH_VERSION, kept_graph
from app.semantic.minilm import MiniLM
from app.semantic.similarity import MiniLMSimilarity, vector_key
from app.semantic.vector_cache import VectorCache, cache_dir

TEXTS = ["Water the tomatoes on the balcony.", "water plants: Waters the plants of a garden bed.", "Book a table."]


@pytest.fixture(scope="module")
def model() -> MiniLM:
    return MiniLM()


def _no_model() -> MiniLM:
    raise AssertionError("the model was loaded although every text was cached")


def test_a_warm_cache_gives_the_same_vectors_without_loading_the_model(model: MiniLM, tmp_path: Path) -> None:
    cold = MiniLMSimilarity(model, cache=VectorCache(tmp_path))
    first = cold.similarities(TEXTS[0], TEXTS[1:])
    warm = MiniLMSimilarity(_no_model, weights_sha256=model.weights_sha256, cache=VectorCache(tmp_path))
    assert warm.similarities(TEXTS[0], TEXTS[1:]) == first
    stored = VectorCache(tmp_path).get_many(vector_key(model.weights_sha256), TEXTS)
    assert all(np.array_equal(stored[t], v) for t, v in zip(TEXTS, model.embed(TEXTS), strict=True))
    assert VectorCache(tmp_path).get_many("another model", TEXTS) == {}
    # Vectors of the same weights run by another runtime version or graph are not taken for these.
    assert VectorCache(tmp_path).get_many(model.weights_sha256, TEXTS) == {}
    assert "onnxruntime" in vector_key("w") and f"graph {GRAPH_VERSION}" in vector_key("w")


def test_the_graph_built_once_is_kept_and_a_later_load_opens_it_without_the_weights(
    model: MiniLM, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = MiniLM(keep=tmp_path)
    kept = kept_graph(tmp_path, built.weights_sha256)
    assert kept.is_file() and built.weights_sha256 == model.weights_sha256

    def no_weights(data: bytes) -> None:
        raise AssertionError("the weights were unzipped although the graph was kept")

    monkeypatch.setattr(minilm, "read_safetensors", no_weights)
    opened = MiniLM(keep=tmp_path, weights_sha256=built.weights_sha256)
    assert np.array_equal(opened.embed(TEXTS), model.embed(TEXTS))
    assert not list(kept.parent.glob("*.part"))  # written atomically, nothing left half-written


def test_a_cache_that_cannot_be_opened_is_no_error(model: MiniLM, tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    cache = VectorCache(blocked)
    assert not cache.usable and cache.get_many("m", TEXTS) == {}
    assert MiniLMSimilarity(model, cache=cache).similarities(TEXTS[0], TEXTS[1:])


def test_the_switch_and_the_directory_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLCHOICE_CACHE_DIR", "/somewhere/vectors")
    assert cache_dir() == Path("/somewhere/vectors")
    monkeypatch.setenv("TOOLCHOICE_NO_CACHE", "1")
    assert cache_dir() is None


WRITER = """
import sys
from pathlib import Path
import numpy as np
from app.semantic.vector_cache import VectorCache
cache = VectorCache(Path(sys.argv[1]))
for round in range(30):
    vectors = {f"text {i}": np.full(384, i, dtype=np.float32) for i in range(int(sys.argv[2]), int(sys.argv[2]) + 40)}
    cache.put_many("m", vectors)
    assert len(cache.get_many("m", vectors)) == 40
"""


def test_several_processes_write_one_cache_at_once(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), str(start)], cwd=root, stderr=subprocess.PIPE)
        for start in (0, 20, 40)
    ]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], errors
    found = VectorCache(tmp_path).get_many("m", [f"text {i}" for i in range(80)])
    assert len(found) == 80 and float(found["text 79"][0]) == 79.0


def test_an_audit_is_byte_identical_cold_warm_and_without_the_cache(tmp_path: Path) -> None:
    import os

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "TOOLCHOICE_CACHE_DIR": str(tmp_path / "vectors")}
    command = [sys.executable, "-m", "app.cli", "audit", "app/demo/after.json", "-f", "json"]
    runs = [
        subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=300),
        subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=300),
        subprocess.run(
            [sys.executable, "-m", "app.cli", "--no-cache", *command[3:]],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        ),
    ]
    assert all(r.returncode in (0, 1) for r in runs), [r.stderr for r in runs]
    assert runs[0].stdout == runs[1].stdout == runs[2].stdout and runs[0].stdout.startswith("{")
    assert (tmp_path / "vectors" / "vectors.sqlite3").exists()


def test_a_damaged_kept_graph_is_built_again(model: MiniLM, tmp_path: Path) -> None:
    kept = kept_graph(tmp_path, model.weights_sha256)
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"not a graph")
    again = MiniLM(keep=tmp_path, weights_sha256=model.weights_sha256)
    assert np.array_equal(again.embed(TEXTS), model.embed(TEXTS))
    assert kept.stat().st_size > 1_000_000  # replaced by the graph built from the weights
