"""Experiment for the learned scorer (issue 40): a NO_TOOL decision that reads request and tool together,
measured leave one source out. Nothing here is used at run time.

Run by hand: `PYTHONPATH=. python bench/train_abstain.py [--metatool 2000] [--seed 20261206] [--hidden 32]`.

The episodes and the ranker are bench/train_scorer.py's (the ranker refitted on each fold's training sources).
The decision is a small network (one tanh layer of `--hidden` units, then a logistic unit) over the MiniLM
vectors of the request u and of the ranker's first tool v ("name: description"): [u·v element-wise, |u − v|],
beside the ranker's scalar features of that tool. It learns whether the list holds a tool for the request; each
source and each side (served or not) weighs the same. Fixed settings (300 full-batch Adam steps, rate 0.01, L2
1e-3), chosen before any fold was measured. Printed per held-out source: cases, the accuracy with the decision,
its NO_TOOL and tool halves.
"""

from __future__ import annotations

import argparse

import numpy as np
import train_scorer as ts

from app.semantic.similarity import shared_similarity

CHUNK = 5_000


def vectors(texts: list[str]) -> dict[str, np.ndarray]:
    """MiniLM vectors of `texts` (through the shared similarity and its caches)."""
    sim = shared_similarity()
    out: dict[str, np.ndarray] = {}
    unique = list(dict.fromkeys(texts))
    for start in range(0, len(unique), CHUNK):
        chunk = unique[start : start + CHUNK]
        sim.prepare(chunk)
        out.update({t: np.asarray(sim._vectors[t], dtype=np.float64) for t in chunk})
    return out


def fit_net(xs: np.ndarray, ys: np.ndarray, weights: np.ndarray, hidden: int, seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    w1 = rng.normal(0, 1 / np.sqrt(xs.shape[1]), (xs.shape[1], hidden))
    b1 = np.zeros(hidden)
    w2 = rng.normal(0, 1 / np.sqrt(hidden), hidden)
    b2 = np.zeros(1)
    params = [w1, b1, w2, b2]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    for step in range(1, 301):
        h = np.tanh(xs @ w1 + b1)
        p = 1 / (1 + np.exp(-(h @ w2 + b2)))
        d = (p - ys) * weights
        g2 = h.T @ d + 1e-3 * w2
        gb2 = np.array([d.sum()])
        dh = np.outer(d, w2) * (1 - h**2)
        g1 = xs.T @ dh + 1e-3 * w1
        gb1 = dh.sum(0)
        for i, g in enumerate((g1, gb1, g2, gb2)):
            m, v = moments[i]
            m[:] = 0.9 * m + 0.1 * g
            v[:] = 0.999 * v + 0.001 * g**2
            params[i] -= 0.01 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return tuple(params)


def serves(params: tuple[np.ndarray, ...], xs: np.ndarray) -> np.ndarray:
    w1, b1, w2, b2 = params
    return 1 / (1 + np.exp(-(np.tanh(xs @ w1 + b1) @ w2 + b2))) >= 0.5


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--metatool", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20261206)
    parser.add_argument("--hidden", type=int, default=32)
    args = parser.parse_args()
    episodes = [e for e in [*ts.metatool(args.metatool, args.seed), *ts.labeled(), *ts.natural()] if e.tools]
    table = []
    for e in episodes:
        names = [t["name"] for t in e.tools]
        table.append((e, ts.features(e), names.index(e.expected) if e.expected in names else None))
    whole = {e.request for e in episodes} | {
        ts.tool_text(t) for e in episodes for t in e.tools
    }
    vec = vectors(sorted(whole))
    sources = sorted({e.source for e in episodes})
    print(f"{'held out':28} {'cases':>6} {'with NO_TOOL':>13} {'NO_TOOL':>8} {'tool':>6}")
    for held in sources:
        w = ts.fit_ranker([(x, t) for e, x, t in table if e.source != held and t is not None and len(e.tools) > 1])
        rows, ys, groups, tops, targets, test = [], [], [], [], [], []
        for e, x, t in table:
            top, scalars = ts.best_of(x, w)
            tool = e.tools[top]
            u = vec[e.request]
            v = vec[ts.tool_text(tool)]
            rows.append(np.concatenate([u * v * 10, np.abs(u - v) * 10, scalars]))
            ys.append(1.0 if t is not None else 0.0)
            groups.append((e.source, t is not None))
            tops.append(top)
            targets.append(t)
            test.append(e.source == held)
        xs, y, is_test = np.stack(rows), np.array(ys), np.array(test)
        train = ~is_test
        sizes: dict[tuple[str, bool], int] = {}
        for g, tr in zip(groups, train, strict=True):
            if tr:
                sizes[g] = sizes.get(g, 0) + 1
        weights = np.array([1.0 / sizes[g] if tr else 0.0 for g, tr in zip(groups, train, strict=True)])
        weights /= weights.sum()
        params = fit_net(xs[train], y[train], weights[train], args.hidden, args.seed)
        calls = serves(params, xs[is_test])
        right_none = right_tool = nones = tools = 0
        held_targets = [t for t, s in zip(targets, test, strict=True) if s]
        for call, top, t in zip(calls, np.array(tops)[is_test], held_targets, strict=True):
            if t is None:
                nones += 1
                right_none += not call
            else:
                tools += 1
                right_tool += bool(call) and top == t
        n = int(is_test.sum())
        pct = lambda a, b: f"{100 * a / b:.1f}%" if b else "-"  # noqa: E731
        print(f"{held:28} {n:>6} {pct(right_none + right_tool, n):>13} {pct(right_none, nones):>8} "
              f"{pct(right_tool, tools):>6}")


if __name__ == "__main__":
    main()
