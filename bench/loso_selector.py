"""Experiment for the learned scorer (issue 40): the synthetic selector's own NO_TOOL decision refitted leave one
source out, with more sources than the dev files. Nothing here changes the shipped profile.

Run by hand: `PYTHONPATH=. python bench/loso_selector.py [--metatool 2000] [--in-servers 1000]`.

The decision features are the selector's (app/audit/synthetic/decision.py, read through bench/fit_selector.py);
the ranking is the shipped one. Sources: every labeled dev file, the natural dev set, and (bench/train_scorer.py's)
MetaTool requests in ten-tool lists and in the union of the real servers the natural set never asks about. For each
source held out, bench/fit_selector.py's weighted logistic fit (its default settings: each source weighs the same,
balance 0.5, L2 1.0; no goal search, since the search reads the natural set) is fitted on the others and measured on
it; beside it, the shipped weights (fitted with the search on every dev file, the held-out one included).
"""

from __future__ import annotations

import argparse
from dataclasses import fields

import fit_selector as fs
import train_scorer as ts

from app.audit.evaluation import load_cases
from app.audit.models import NO_TOOL
from app.audit.synthetic.decision import Evidence
from app.audit.synthetic.selector import SyntheticSelector
from app.selector_factory import synthetic_selector
from app.semantic.similarity import shared_similarity


def dev_episodes() -> list[ts.Episode]:
    """The dev files' cases as episodes (source = the file's name, as bench/fit_selector.py names them)."""
    return [
        ts.Episode(path.name, case.intent, case.tools, None if case.expected == NO_TOOL else case.expected)
        for path in fs.dev_files()
        for case in load_cases(path)
    ]


def episode_samples(
    selector: SyntheticSelector, episodes: list[ts.Episode], floors: dict[str, float]
) -> list[fs.Sample]:
    names = [f.name for f in fields(Evidence)]
    out = []
    for i, e in enumerate(episodes):
        found = selector.evidence(e.tools, e.request)
        no_tool = e.expected is None
        if found is None:
            out.append(fs.Sample(e.source, f"{e.source}-{i}", no_tool, None, False))
            continue
        tool, evidence = found
        x = [(-1.0 if n in fs.SUBTRACTED else 1.0) * getattr(evidence, n) for n in names]
        if floors:
            x += [evidence.semantic_cosine - floors[e.request], floors[e.request]]
        out.append(fs.Sample(e.source, f"{e.source}-{i}", no_tool, x, tool == (e.expected or NO_TOOL)))
    return out


def shipped(selector: SyntheticSelector) -> tuple[list[float], float]:
    decision = selector.profile.decision
    weights = [getattr(decision, fs.PROFILE_KEY.get(f.name, f.name)) for f in fields(Evidence)]
    return weights, decision.threshold


def searched(
    train: list[fs.Sample], w: list[float], threshold: float, held: str, restarts: int
) -> tuple[list[float], float]:
    """bench/fit_selector.py's goal search on the training sources: the held-out file's floor and goal left out,
    and the natural term too when the natural set is held out."""
    floor = {k: v for k, v in fs.floor_accuracy().items() if k != held}
    saved_goals, saved_weight = dict(fs.GOALS), fs.NATURAL_WEIGHT
    fs.GOALS.pop(held, None)
    labeled = [s for s in train if s.file.endswith(".dev.json")]
    try:
        if held == fs.NATURAL.name:
            fs.NATURAL_WEIGHT = 0.0
            # objective() reads the natural set's row: give it a stand-in that weighs nothing.
            labeled = [*labeled, fs.Sample(fs.NATURAL.name, "stand-in", True, None, False)]
        return fs.best_of_restarts(labeled, w, threshold, floor, restarts=restarts)
    finally:
        fs.GOALS.clear()
        fs.GOALS.update(saved_goals)
        fs.NATURAL_WEIGHT = saved_weight


def main() -> None:
    parser = argparse.ArgumentParser()
    ts.add_sources(parser, metatool=2000, in_servers=1000)
    parser.add_argument(
        "--all", action="store_true",
        help="instead of the folds, fit on every source and print each source's (in-sample) accuracy",
    )
    parser.add_argument(
        "--search", type=int, default=0, metavar="RESTARTS",
        help="refit as the shipped weights were: the logistic fit, then bench/fit_selector.py's goal search with this "
        "many restarts (on the training sources only: goals of a held-out file, and the natural term when the "
        "natural set is held out, are left out)",
    )
    parser.add_argument(
        "--background", action="store_true",
        help="the refitted decision also reads the best tool's cosine less the request's floor against a fixed pool "
        "of our own fixture tools (bench/train_scorer.py's), and the floor",
    )  # fmt: skip
    args = parser.parse_args()
    selector = synthetic_selector(None)
    episodes = [*dev_episodes(), *ts.metatool(args.metatool, args.seed), *ts.more_sources(args)]
    floors: dict[str, float] = {}
    if args.background:
        pool = ts.background_texts()
        shared_similarity().prepare(list(dict.fromkeys([*pool, *(e.request for e in episodes)])))
        floors = {e.request: ts.request_floor(e.request, pool) for e in episodes}
    data = episode_samples(selector, episodes, floors)
    w0, t0 = shipped(selector)
    w0 = [*w0, 0.0, 0.0] if floors else w0
    sources = sorted({s.file for s in data})
    pct = lambda v: "–" if v is None else f"{100 * v:.1f}%"  # noqa: E731
    first = "measured on" if args.all else "held out"
    print(f"{first:34} {'cases':>6}  {'shipped: all':>12} {'NO_TOOL':>8} {'tool':>6}  "
          f"{'refitted: all':>13} {'NO_TOOL':>8} {'tool':>6}")
    for held in sources:
        train = [s for s in data if s.file != held or args.all]
        test = [s for s in data if s.file == held]
        w = fs.fit(fs.training_rows(train, balance=0.5), l2=1.0)
        threshold, w = -w[-1], [*w[:-1], 0.0]
        if args.search:
            w, threshold = searched(train, w, threshold, held, args.search)
        w = fs.with_fixed(w)
        a = fs.accuracy(test, w0, t0)[held]
        b = fs.accuracy(test, w, threshold)[held]
        print(f"{held:34} {len(test):>6}  {pct(a[0]):>12} {pct(a[1]):>8} {pct(a[2]):>6}  "
              f"{pct(b[0]):>13} {pct(b[1]):>8} {pct(b[2]):>6}")


if __name__ == "__main__":
    main()
