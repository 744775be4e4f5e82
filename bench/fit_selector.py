"""Fitting the synthetic selector's decision weights on the dev cases: a logistic fit, then a search for the goals.

Run by hand: `PYTHONPATH=. python bench/fit_selector.py --search [--write PROFILE] [--folds]`. For every dev
case (`../shared/corpora/labeled/*.dev.json` and `tests/fixtures/natural/natural.dev.json`) it takes the
best-ranked tool's decision features (app/audit/synthetic/decision.py); the ranking does not depend on the
weights being fitted. A weighted logistic regression (each file weighs the same; a tool case whose best tool
is wrong is left out) gives the starting weights; `--search` then moves each weight by shrinking steps, from
that start and from seeded jittered ones, to maximise `objective` (no file below the BM25 floor first, then
the goals, then the natural set). `--write` writes the profile with the weights (what selectors/synthetic.yml
holds), `--folds` runs the same procedure on each half of a 2-fold split and scores the other half.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
from collections import Counter
from dataclasses import dataclass, fields
from pathlib import Path

import yaml

from app.audit.bm25_floor import Bm25Floor, beside_floor
from app.audit.evaluation import load_cases
from app.audit.models import NO_TOOL
from app.audit.synthetic.decision import Evidence
from app.audit.synthetic.selector import SyntheticSelector
from app.selector_factory import synthetic_selector

ROOT = Path(__file__).resolve().parent.parent
LABELED = ROOT.parent / "shared" / "corpora" / "labeled"
NATURAL = ROOT / "tests" / "fixtures" / "natural" / "natural.dev.json"
# Features the score subtracts (profile weights are magnitudes): their sign is flipped before fitting.
SUBTRACTED = {"exclusion", "typed_unplaced", "unmatched_words", "action_conflict"}
# Weights set by design, not fitted: the dev cases hardly have "Do not use for" clauses, yet the optimizer's
# rewrites rely on the selector heeding them (README, "Scores": synthetic mode rewards boundary sentences).
FIXED = {"exclusion": 0.8}
# Profile key of each feature (Evidence field name -> selectors/synthetic.yml decision key).
PROFILE_KEY = {"boundary": "boundary_bonus", "exclusion": "exclusion_penalty", "coverage_log": "coverage"}


def dev_files() -> list[Path]:
    return [*sorted(LABELED.glob("*.dev.json")), NATURAL]


@dataclass(slots=True)
class Sample:
    """One dev case as the fit sees it: the best-ranked tool's features, and whether calling it is right."""

    file: str
    case_id: str
    no_tool: bool  # NO_TOOL is expected
    x: list[float] | None  # None when no tool shares a word with the request (the answer is NO_TOOL)
    top_right: bool  # the best-ranked tool is the expected one


def samples(selector: SyntheticSelector) -> list[Sample]:
    names = [f.name for f in fields(Evidence)]
    out: list[Sample] = []
    for path in dev_files():
        for case in load_cases(path):
            found = selector.evidence(case.tools, case.intent)
            no_tool = case.expected == NO_TOOL
            if found is None:
                out.append(Sample(path.name, case.id, no_tool, None, False))
                continue
            tool, evidence = found
            x = [(-1.0 if n in SUBTRACTED else 1.0) * getattr(evidence, n) for n in names]
            out.append(Sample(path.name, case.id, no_tool, x, tool == case.expected))
    return out


def training_rows(data: list[Sample], *, balance: float) -> list[tuple[list[float], int, float]]:
    """(features, label, weight) of the cases that say something about abstaining. Each file weighs the
    same in total; `balance` (0..1) moves the weights towards equal totals for the two labels."""
    rows = [(s.x, int(not s.no_tool), s.file) for s in data if s.x is not None and (s.no_tool or s.top_right)]
    per_file = Counter(f for _, _, f in rows)
    weighted = [(x, y, 1.0 / per_file[f]) for x, y, f in rows]
    totals = {label: sum(w for _, y, w in weighted if y == label) for label in (0, 1)}
    mean = (totals[0] + totals[1]) / 2
    return [(x, y, w * (mean / totals[y]) ** balance) for x, y, w in weighted]


def accuracy(
    data: list[Sample], w: list[float], threshold: float
) -> dict[str, tuple[float, float | None, float | None]]:
    """Per file and overall: (accuracy, NO_TOOL accuracy, tool accuracy) with weights w and the threshold."""
    groups: dict[str, list[tuple[bool, bool]]] = {}
    for s in data:
        called = s.x is not None and sum(a * b for a, b in zip(w, s.x, strict=False)) >= threshold
        right = (not called) if s.no_tool else (called and s.top_right)
        for key in (s.file, "overall labeled" if s.file != NATURAL.name else "overall natural"):
            groups.setdefault(key, []).append((s.no_tool, right))
    out = {}
    for key, items in groups.items():
        nt = [r for n, r in items if n]
        tl = [r for n, r in items if not n]
        out[key] = (sum(r for _, r in items) / len(items), sum(nt) / len(nt) if nt else None,
                    sum(tl) / len(tl) if tl else None)  # fmt: skip
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems here are 11 x 11)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def with_fixed(w: list[float]) -> list[float]:
    """The weights with the FIXED ones put in place (after the fit and the search)."""
    return [FIXED.get(f.name, x) for f, x in zip(fields(Evidence), w, strict=False)] + w[len(fields(Evidence)) :]


def fit(data: list[tuple[list[float], int, float]], *, l2: float, steps: int = 30) -> list[float]:
    """Weighted L2-regularised logistic regression by Newton's method; the last weight is the intercept."""
    k = len(data[0][0]) + 1
    w = [0.0] * k
    for _ in range(steps):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y, weight in data:
            xs = [*x, 1.0]
            z = sum(wi * xi for wi, xi in zip(w, xs, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            for i in range(k):
                grad[i] += weight * (p - y) * xs[i]
                for j in range(k):
                    hess[i][j] += weight * p * (1 - p) * xs[i] * xs[j]
        for i in range(k - 1):
            grad[i] += l2 * w[i] / len(data) * 8
            hess[i][i] += l2 / len(data) * 8
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


# Goals a profile must meet on the dev files (issue: never below the floor; these three files at least).
GOALS = {"bfcl_live_simple.dev.json": 0.85, "bfcl_irrelevance.dev.json": 0.80, "bfcl_live_irrelevance.dev.json": 0.80}
# The NO_TOOL half of the labeled dev files before this fit (87.2%): a goal not to give it back.
NO_TOOL_KEPT = 0.872
# Margin past which a met goal no longer pulls the search (so the search turns to the natural set).
ENOUGH = 0.01
# How much the natural set's weaker half counts against the goals' slack.
NATURAL_WEIGHT = 1.0
# How much the labeled overall accuracy counts (it keeps the large files, live_multiple, from paying).
OVERALL_WEIGHT = 1.0


def objective(data: list[Sample], w: list[float], threshold: float, floor: dict[str, tuple]) -> float:
    """What the search maximises, in order of importance: the smallest slack of every file (and of the two
    halves overall) over the floor, then the sum of the slacks of GOALS and NO_TOOL_KEPT (each capped at
    ENOUGH once met), then
    the natural set's weaker half, and the labeled overall accuracy for ties."""
    acc = accuracy(data, w, threshold)
    above_floor = []
    for key, (a, nt, tl) in floor.items():
        ours = acc[key]
        above_floor.append(ours[0] - a)
        if key == "overall labeled":
            above_floor += [ours[1] - nt, ours[2] - tl]  # type: ignore[operator]
    slacks = [acc[f][0] - goal for f, goal in GOALS.items()] + [acc["overall labeled"][1] - NO_TOOL_KEPT]
    goals = sum(min(x, ENOUGH) for x in slacks)
    natural = acc["overall natural"]
    return (
        10 * min(min(above_floor), ENOUGH)
        + goals
        + NATURAL_WEIGHT * min(natural[1] or 0.0, natural[2] or 0.0)
        + OVERALL_WEIGHT * acc["overall labeled"][0]
    )


def search(data: list[Sample], w: list[float], threshold: float, floor: dict[str, tuple]) -> tuple[list[float], float]:
    """Coordinate search from the logistic fit: each weight and the threshold moved by shrinking steps while
    the objective improves. Deterministic: fixed order, fixed steps."""
    best = objective(data, w, threshold, floor)
    for step in (0.4, 0.2, 0.1, 0.05):
        improved = True
        while improved:
            improved = False
            for i in range(len(w)):
                for delta in (step, -step):
                    trial = w[:]
                    trial[i] += delta
                    if i == len(w) - 1:
                        value = objective(data, w, threshold + delta, floor)
                    else:
                        value = objective(data, trial, threshold, floor)
                    if value > best + 1e-9:
                        best, improved = value, True
                        if i == len(w) - 1:
                            threshold += delta
                        else:
                            w = trial
    return w, threshold


def best_of_restarts(
    data: list[Sample], w: list[float], threshold: float, floor: dict[str, tuple], *, restarts: int
) -> tuple[list[float], float]:
    """The best of `restarts` searches: the first from the logistic fit, the others from its weights each
    scaled by a factor in [0.5, 1.5] drawn from a seeded generator (so the result is reproducible)."""
    rng = random.Random(3)
    best: tuple[float, list[float], float] | None = None
    for r in range(restarts):
        start = [x * (1 + rng.uniform(-0.5, 0.5)) if r else x for x in w]
        found, t = search(data, start, threshold, floor)
        value = objective(data, found, t, floor)
        if best is None or value > best[0]:
            best = (value, found, t)
    assert best is not None
    return best[1], best[2]


def floor_accuracy() -> dict[str, tuple]:
    """The BM25 floor's (accuracy, NO_TOOL, tool) per labeled dev file and overall, in the same form."""
    rows, overall, _, _ = beside_floor(Bm25Floor([]), sorted(LABELED.glob("*.dev.json")))
    out = {r.file: (r.floor.accuracy, r.floor.no_tool_accuracy, r.floor.tool_accuracy) for r in rows}
    out["overall labeled"] = (overall.floor.accuracy, overall.floor.no_tool_accuracy, overall.floor.tool_accuracy)
    return out


def half(case_id: str) -> int:
    """Which half of a 2-fold split a case falls in (by the sha256 of its id, so the split is stable)."""
    return hashlib.sha256(case_id.encode()).digest()[0] % 2


def two_fold(data: list[Sample], args: argparse.Namespace) -> None:
    """Fit (and search) on each half, and print the other half's accuracy: what the fit does on cases it
    has not seen."""
    for fold in (0, 1):
        train = [s for s in data if half(s.case_id) == fold]
        test = [s for s in data if half(s.case_id) != fold]
        w = fit(training_rows(train, balance=args.balance), l2=args.l2)
        threshold, w = -w[-1], [*w[:-1], 0.0]
        if args.search:
            w, threshold = best_of_restarts(train, w, threshold, floor_accuracy(), restarts=args.restarts)
        w = with_fixed(w)
        for label, part in (("fitted on", train), ("held out", test)):
            acc = accuracy(part, w, threshold)
            row = "  ".join(f"{k.split('.')[0].removeprefix('bfcl_')} {100 * v[0]:.1f}" for k, v in sorted(acc.items()))
            print(f"fold {fold} {label}: {row}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty on the weights")
    parser.add_argument("--profile", type=Path, help="profile whose ranking gives the features (default: shipped)")
    parser.add_argument("--balance", type=float, default=0.5, help="0: files weigh alike; 1: labels too")
    parser.add_argument("--search", action="store_true", help="then search the weights for the goals")
    parser.add_argument("--restarts", type=int, default=6, help="searches from jittered starts (seeded)")
    parser.add_argument("--folds", action="store_true", help="2-fold check of the fit instead of one fit")
    parser.add_argument("--threshold", type=float, help="use this threshold instead of the fitted one")
    parser.add_argument("--write", type=Path, help="write the profile with the fitted weights (3 decimals) here")
    args = parser.parse_args()
    selector = synthetic_selector(args.profile)
    data = samples(selector)
    if args.folds:
        two_fold(data, args)
        return
    rows = training_rows(data, balance=args.balance)
    w = fit(rows, l2=args.l2)
    threshold = args.threshold if args.threshold is not None else -w[-1]
    w = [*w[:-1], 0.0]
    if args.search:
        w, threshold = best_of_restarts(data, w, threshold, floor_accuracy(), restarts=args.restarts)
    w = with_fixed(w)
    print(f"{len(rows)} of {len(data)} cases from {len(dev_files())} files")
    for key, (acc, nt, tl) in sorted(accuracy(data, w, threshold).items()):
        halves = "  ".join(f"{k} {'–' if v is None else f'{100 * v:.1f}%'}" for k, v in (("NO_TOOL", nt), ("tool", tl)))
        print(f"  {key:36} {100 * acc:5.1f}%  {halves}")
    for f, weight in zip(fields(Evidence), w, strict=False):
        print(f"  {PROFILE_KEY.get(f.name, f.name)}: {weight:.3f}")
    print(f"  threshold: {threshold:.3f}")
    if args.write:
        profile = selector.profile.settings()
        names = [PROFILE_KEY.get(f.name, f.name) for f in fields(Evidence)]
        profile["decision"] = {"threshold": round(threshold, 3)} | {
            n: round(v, 3) for n, v in zip(names, w, strict=False)
        }
        args.write.write_text(yaml.safe_dump(profile, sort_keys=False, width=110), encoding="utf-8")


if __name__ == "__main__":
    main()
