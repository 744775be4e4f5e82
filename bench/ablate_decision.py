"""Which of the synthetic selector's decision features add accuracy where they were not fitted (issue 40, deliverable
3 for the weights, as bench/ablate_synonyms.py is for the synonym groups).

Run by hand: `PYTHONPATH=. python bench/ablate_decision.py [--metatool 2000] [--in-servers 1000] [--ours]
[--choose-on SOURCE,...]`.

The features are the selector's (app/audit/synthetic/decision.py, as bench/loso_selector.py reads them, the shipped
ranking). For each source held out in turn, bench/fit_selector.py's plain logistic fit (each source weighing the
same, balance 0.5, L2 1.0; its arithmetic in numpy here) is fitted on the other sources, once with every feature and
once without each feature, and measured on the held-out source. A feature adds accuracy where it was not fitted when
the held-out accuracy falls without it; the table gives, per feature, the mean change over the folds (each fold
weighing the same) and the folds it helps and hurts. `--choose-on` makes the choice on some folds and reports the
others, to see whether the choice itself carries.
"""

from __future__ import annotations

import argparse
from dataclasses import fields

import fit_selector as fs
import loso_selector as ls
import numpy as np
import train_scorer as ts

from app.audit.synthetic.decision import Evidence
from app.selector_factory import synthetic_selector

NAMES = [f.name for f in fields(Evidence)]
# A feature is worth keeping when leaving it out costs the held-out folds at least this much accuracy on average.
KEEP_AT = 0.001


def fit(x: np.ndarray, y: np.ndarray, weight: np.ndarray, *, l2: float = 1.0, steps: int = 30) -> np.ndarray:
    """bench/fit_selector.py's `fit` (weighted L2 logistic regression by Newton's method) in numpy."""
    xs = np.hstack([x, np.ones((len(x), 1))])
    k = xs.shape[1]
    w = np.zeros(k)
    reg = np.full(k, l2 / len(x) * 8)
    reg[-1] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(xs @ w, -30, 30)))
        grad = xs.T @ (weight * (p - y)) + reg * w
        hess = (xs * (weight * p * (1 - p))[:, None]).T @ xs + np.diag(reg)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def rows(samples: list[fs.Sample]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    data = fs.training_rows(samples, balance=0.5)
    return (
        np.array([x for x, _, _ in data]),
        np.array([y for _, y, _ in data], dtype=float),
        np.array([w for _, _, w in data]),
    )


def held_accuracy(test: list[fs.Sample], w: np.ndarray, drop: int | None) -> float:
    """Accuracy on the held-out cases with the fitted weights (the intercept read as the threshold)."""
    right = 0
    for s in test:
        called = False
        if s.x is not None:
            x = np.array(s.x)
            if drop is not None:
                x[drop] = 0.0
            called = float(x @ w[:-1]) + w[-1] >= 0
        right += (not called) if s.no_tool else (called and s.top_right)
    return right / len(test)


def fold_table(data: list[fs.Sample]) -> dict[str, list[float]]:
    """Per held-out source: the accuracy with every feature, then without each of NAMES in turn."""
    sources = sorted({s.file for s in data})
    out: dict[str, list[float]] = {}
    for held in sources:
        train = [s for s in data if s.file != held]
        test = [s for s in data if s.file == held]
        x, y, weight = rows(train)
        row = [held_accuracy(test, fit(x, y, weight), None)]
        for j in range(len(NAMES)):
            xd = x.copy()
            xd[:, j] = 0.0
            row.append(held_accuracy(test, fit(xd, y, weight), j))
        out[held] = row
        print(f"  {held}: {100 * row[0]:.1f}%", flush=True)
    return out


# Folds this small say nothing about a feature (bfcl_live_relevance has 2 cases): left out of the means.
MIN_FOLD = 20


def loso(data: list[fs.Sample], kept: list[int], folds: list[str]) -> dict[str, float]:
    """Held-out accuracy per fold with only the `kept` features (the others zeroed before the fit)."""
    out = {}
    drop = [j for j in range(len(NAMES)) if j not in kept]
    for held in folds:
        train = [s for s in data if s.file != held]
        test = [s for s in data if s.file == held]
        x, y, weight = rows(train)
        x[:, drop] = 0.0
        w = fit(x, y, weight)
        w[drop] = 0.0
        out[held] = held_accuracy(test, w, None)
    return out


def backward(data: list[fs.Sample], folds: list[str]) -> list[int]:
    """Backward elimination: drop the feature whose absence raises the folds' mean accuracy most, while one does."""
    kept = list(range(len(NAMES)))
    mean = lambda r: sum(r.values()) / len(r)  # noqa: E731
    best = mean(loso(data, kept, folds))
    while len(kept) > 1:
        trials = {j: mean(loso(data, [k for k in kept if k != j], folds)) for j in kept}
        j = max(trials, key=lambda k: (trials[k], -k))
        if trials[j] < best:
            break
        best = trials[j]
        kept.remove(j)
        print(f"  without {NAMES[j]}: {100 * best:.2f}% mean over {len(folds)} folds", flush=True)
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ts.add_sources(parser, metatool=2000, in_servers=1000)
    parser.add_argument("--choose-on", default="", help="comma-separated sources the choice is made on")
    parser.add_argument(
        "--backward", action="store_true",
        help="backward elimination instead of one feature at a time; with --choose-on, checked on the other folds",
    )  # fmt: skip
    args = parser.parse_args()
    selector = synthetic_selector(None)
    episodes = [*ls.dev_episodes(), *ts.metatool(args.metatool, args.seed), *ts.more_sources(args)]
    data = ls.episode_samples(selector, episodes, {})
    if args.backward:
        sizes: dict[str, int] = {}
        for s in data:
            sizes[s.file] = sizes.get(s.file, 0) + 1
        folds = sorted(f for f, n in sizes.items() if n >= MIN_FOLD)
        choose = [f for f in args.choose_on.split(",") if f] or folds
        kept = backward(data, choose)
        print("kept:", ", ".join(NAMES[j] for j in kept))
        every, only = loso(data, list(range(len(NAMES))), folds), loso(data, kept, folds)
        print("| held out | chosen on it | every feature | kept only |\n|---|---|---:|---:|")
        for f in folds:
            print(f"| {f} | {'yes' if f in choose else 'no'} | {100 * every[f]:.1f}% | {100 * only[f]:.1f}% |")
        return
    table = fold_table(data)
    chosen_on = [s for s in args.choose_on.split(",") if s] or sorted(table)
    measured_on = [s for s in sorted(table) if s not in chosen_on] if args.choose_on else []
    print("\n| feature | mean change without it (choice folds) | folds it helps / hurts | kept |")
    print("|---|---:|---:|---|")
    kept = []
    for j, name in enumerate(NAMES):
        deltas = [table[s][0] - table[s][j + 1] for s in chosen_on]
        mean = sum(deltas) / len(deltas)
        helps, hurts = sum(d > 0 for d in deltas), sum(d < 0 for d in deltas)
        keep = mean >= KEEP_AT
        kept.append(keep)
        print(f"| {name} | {100 * mean:+.2f} | {helps} / {hurts} | {'yes' if keep else 'no'} |")
    if measured_on:
        drop = [j for j, k in enumerate(kept) if not k]
        for held in measured_on:
            train = [s for s in data if s.file != held]
            test = [s for s in data if s.file == held]
            x, y, weight = rows(train)
            full = held_accuracy(test, fit(x, y, weight), None)
            xd = x.copy()
            xd[:, drop] = 0.0
            w = fit(xd, y, weight)
            w[drop] = 0.0
            only = held_accuracy(test, w, None)
            print(f"measured on {held}: every feature {100 * full:.1f}%, the kept ones only {100 * only:.1f}%")


if __name__ == "__main__":
    main()
