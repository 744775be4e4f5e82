"""Experiment for the learned scorer (issue 40): a trained late-interaction reading of request and tool, over the
token states the embedding computes once per text. Offline only (torch's CPU build trains it); nothing of it is
used at run time.

Run by hand: `PYTHONPATH=. python bench/train_late.py [--metatool 3000] [--in-servers 1000] [--epochs 8]`.

Each text's token states come from the encoder (bench/train_scorer.py's TokenStates; computed once per text, as
the embedding already does, so a pair costs a small matrix product, not a run of the encoder). The scorer projects
them (384 → 128), takes for each request token its best cosine with the tool's tokens, weighs the request's tokens
by a learned importance (a softmax over the request of a linear read of each state) and maps the weighted mean to a
probability that the tool serves the request: about 50,000 weights, a few hundred kB as numpy.

The split is bench/train_cross.py's, fixed before anything was measured (trained on MetaTool, bfcl_simple_python,
bfcl_multiple, bfcl_live_multiple, bfcl_irrelevance, metatool_reliability, and with `--in-servers` MetaTool requests
in the lists of the seven real servers the natural set never asks about; measured on the natural dev set,
bfcl_live_simple and bfcl_live_irrelevance), and so are its pairs, weights and reading: the cosine's five best tools
scored, the best called at probability ≥ 0.5.
"""

from __future__ import annotations

import argparse
import random

import numpy as np
import torch
import train_cross as tc
import train_scorer as ts
from torch import nn

from app.semantic.similarity import shared_similarity


class Late(nn.Module):
    def __init__(self, width: int = 128) -> None:
        super().__init__()
        self.project = nn.Linear(384, width, bias=False)
        self.importance = nn.Linear(384, 1)
        self.scale = nn.Parameter(torch.tensor(10.0))
        self.bias = nn.Parameter(torch.tensor(-5.0))

    def forward(self, request: torch.Tensor, tool: torch.Tensor) -> torch.Tensor:
        a = nn.functional.normalize(self.project(request), dim=-1)
        b = nn.functional.normalize(self.project(tool), dim=-1)
        best = (a @ b.T).max(1).values
        weight = self.importance(request).squeeze(-1).softmax(0)
        return self.scale * (weight * best).sum() + self.bias


def main() -> None:
    parser = argparse.ArgumentParser()
    ts.add_sources(parser, metatool=3000, in_servers=0)
    parser.add_argument("--epochs", type=int, default=8)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    episodes = [e for e in [*ts.metatool(args.metatool, args.seed), *ts.labeled(), *ts.natural()] if e.tools]
    episodes += ts.more_sources(args)
    train_sources = set(tc.TRAIN)
    if args.in_servers:
        train_sources.add("metatool_servers")
    if args.ours:
        train_sources |= {"ours_unasked", "ours_invented"}
    shared_similarity().prepare(list(dict.fromkeys([e.request for e in episodes] +
                                                   [tc.text(t) for e in episodes for t in e.tools])))
    pairs, weight = tc.training_pairs(episodes, train_sources)
    states = ts.TokenStates()
    tensors: dict[str, torch.Tensor] = {}

    def of(text: str) -> torch.Tensor:
        if text not in tensors:
            tensors[text] = torch.tensor(states.of(text), dtype=torch.float32)
        return tensors[text]

    model = Late()
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        rng.shuffle(pairs)
        total = 0.0
        for start in range(0, len(pairs), 32):
            chunk = pairs[start : start + 32]
            logits = torch.stack([model(of(r), of(t)) for r, t, _, _ in chunk])
            total += tc.step(optimiser, logits, chunk, weight)
        print(f"epoch {epoch + 1}: loss {total / len(pairs):.4f}")
    def read(e: ts.Episode, order: list[int]) -> np.ndarray:
        with torch.no_grad():
            return torch.sigmoid(torch.stack([model(of(e.request), of(tc.text(e.tools[i]))) for i in order])).numpy()

    tc.measure(episodes, read, "late top1")


if __name__ == "__main__":
    main()
