"""The Similarity the synthetic selector is given: MiniLM cosines, tool texts' vectors cached, rounded."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import cache
from importlib.metadata import PackageNotFoundError, version

import numpy as np

from app.audit.synthetic.semantic import DECIMALS
from app.resources import cache_dir
from app.semantic.graph import GRAPH_VERSION
from app.semantic.minilm import MODEL_NAME, MiniLM, model_zip
from app.semantic.vector_cache import VectorCache, VectorStore

# Texts whose vectors are kept (least recently used dropped): 384 float32 each, about 30 MB in all; an
# audit's requests and tools are prepared together, so this bounds what one audit embeds at once.
CACHED_TEXTS = 20_000
# Tool lists whose vectors are kept stacked (most recent first): an audit's full lists (base, head) and the last
# near-miss lists taken from their rows (a near-miss list serves the one or two cases of the tool it leaves out).
_STACKED = 4
_DERIVED = 2


class MiniLMSimilarity:
    """Cosine of a request with tool texts; a tool list is reused across many requests, so its vectors are
    computed once. With a `cache` (app/semantic/vector_cache.py), vectors computed by earlier runs are read from
    it, and the model is loaded only when some text is new (`model` may then be a loader); `share_through` puts a
    store shared by other processes (Redis) in front of it."""

    def __init__(
        self,
        model: MiniLM | Callable[[], MiniLM],
        *,
        weights_sha256: str | None = None,
        cache: VectorStore | None = None,
    ) -> None:
        self._loaded = model if isinstance(model, MiniLM) else None
        self._loader = model if not isinstance(model, MiniLM) else None
        self._weights = weights_sha256
        self._stores: list[VectorStore] = [cache] if cache is not None and cache.usable else []
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        # Tool lists' vectors stacked from the vectors (the last _STACKED), and lists taken from their rows.
        self._stacked: list[_Stack] = []
        self._derived: list[_Stack] = []

    def _model(self) -> MiniLM:
        if self._loaded is None:
            assert self._loader is not None
            self._loaded = self._loader()
        return self._loaded

    def load(self) -> None:
        """Load the model now (a worker does, so that the jobs it forks start with it)."""
        with self._lock:
            self._model()

    def share_through(self, store: VectorStore) -> None:
        """Read vectors from `store` first and write every computed one to it too (once per store)."""
        with self._lock:
            if store.usable and all(s is not store for s in self._stores):
                self._stores.insert(0, store)

    @property
    def model(self) -> str:
        return MODEL_NAME

    @property
    def weights_sha256(self) -> str:
        return self._weights or self._model().weights_sha256

    @property
    def vector_key(self) -> str:
        """What a kept vector was computed with: the weights, the runtime's version and the graph (a vector moves in
        its last bits with either)."""
        return vector_key(self.weights_sha256)

    def prepare(self, texts: Sequence[str]) -> None:
        with self._lock:
            self._add(texts)

    def _add(self, texts: Sequence[str]) -> None:
        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        for at, store in enumerate(self._stores):
            if not missing:
                break
            stored = store.get_many(self.vector_key, missing)
            for text in missing:
                if text in stored:
                    self._vectors[text] = stored[text]
            if stored and at:  # found further down: kept where the next process looks first
                for nearer in self._stores[:at]:
                    nearer.put_many(self.vector_key, stored)
            missing = [t for t in missing if t not in stored]
        for start in range(0, len(missing), CACHED_TEXTS // 2):
            chunk = missing[start : start + CACHED_TEXTS // 2]
            computed = dict(zip(chunk, self._model().embed(chunk), strict=True))
            self._vectors.update(computed)
            for store in self._stores:
                store.put_many(self.vector_key, computed)

    def similarities(self, request: str, texts: Sequence[str]) -> list[float]:
        """Cosines of `request` with each of `texts`. A list of texts is taken as unchanging once passed in: the
        selector passes one list per tool list, and its vectors are stacked once."""
        with self._lock:
            matrix = self._matrix(texts)
            self._add([request])
            self._vectors.move_to_end(request)
            query = self._vectors[request]
            while len(self._vectors) > CACHED_TEXTS:
                self._vectors.popitem(last=False)
        # np.round of the float32 cosines widened to float64 is Python's round() of each, exactly: a float32 has 24
        # significant bits, so x * 1000 is exact in a double and rint then rounds it as round() does (half to even).
        # Adding 0.0 turns -0.0 into 0.0.
        return (np.round((matrix @ query).astype(np.float64), DECIMALS) + 0.0).tolist()

    def _matrix(self, texts: Sequence[str]) -> np.ndarray:
        for stacks in (self._stacked, self._derived):
            for at, stack in enumerate(stacks):
                if stack.texts is texts:
                    stacks.insert(0, stacks.pop(at))
                    return stack.matrix
        # A near-miss list (the full list less a tool) takes its rows from the full list's matrix: the same vectors,
        # copied in one step instead of gathered one by one, so its cosines are what stacking them gives.
        for stack in self._stacked:
            rows = stack.rows(texts)
            if rows is not None:
                derived = _Stack(texts, stack.matrix[rows])
                self._derived = [derived, *self._derived[: _DERIVED - 1]]
                return derived.matrix
        self._add(texts)
        for text in texts:
            self._vectors.move_to_end(text)
        matrix = np.stack([self._vectors[t] for t in texts]) if texts else np.zeros((0, 384), dtype=np.float32)
        self._stacked = [_Stack(texts, matrix), *self._stacked[: _STACKED - 1]]
        return matrix


class _Stack:
    """A tool list's texts and their vectors stacked in that order; `rows` finds a sublist's rows in it."""

    def __init__(self, texts: Sequence[str], matrix: np.ndarray) -> None:
        self.texts = texts
        self.matrix = matrix
        self._row_of: dict[str, int] | None = None

    def rows(self, texts: Sequence[str]) -> np.ndarray | None:
        """The row of each of `texts` in this stack, or None when one of them is not in it."""
        if not texts or len(texts) > len(self.texts):
            return None
        if self._row_of is None:
            self._row_of = {t: i for i, t in enumerate(self.texts)}
        row_of = self._row_of
        found = [row_of.get(t, -1) for t in texts]
        return None if -1 in found else np.array(found, dtype=np.intp)


def vector_key(weights_sha256: str) -> str:
    return f"{weights_sha256} onnxruntime {_runtime_version()} graph {GRAPH_VERSION}"


@cache
def _runtime_version() -> str:
    try:
        return version("onnxruntime")
    except PackageNotFoundError:
        return "missing"


@cache
def shared_similarity() -> MiniLMSimilarity:
    """One model per process, loaded only when a text is not in the vector cache (none when `TOOLCHOICE_NO_CACHE` is
    set), from the graph an earlier process kept in the cache directory when there is one (else built from the 90 MB
    of weights and kept); SelectorError when the model package is missing."""
    directory = cache_dir()
    if directory is None:
        return MiniLMSimilarity(MiniLM())
    vectors = VectorCache(directory)
    if not vectors.usable:
        return MiniLMSimilarity(MiniLM())
    path = model_zip()
    known = vectors.weights_sha256(path)
    if known is None:
        model = MiniLM(path, keep=directory)
        vectors.remember_weights(path, model.weights_sha256)
        return MiniLMSimilarity(model, cache=vectors)
    return MiniLMSimilarity(
        lambda: MiniLM(path, keep=directory, weights_sha256=known), weights_sha256=known, cache=vectors
    )
