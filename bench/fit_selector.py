"""Fitting the synthetic selector's decision weights: a weighted logistic regression on the dev cases.

Run by hand: `PYTHONPATH=. python bench/fit_selector.py [--l2 1.0]`. For every dev case
(`../shared/corpora/labeled/*.dev.json` and `tests/fixtures/natural/natural.dev.json`) it takes the
best-ranked tool's decision features (app/audit/synthetic/decision.py) and the label "calling it is right"
(1 when it is the expected tool, 0 when NO_TOOL is expected); a tool case whose best-ranked tool is wrong
teaches nothing about abstaining and is left out. Each file weighs the same in total, so the small files
(live_simple, irrelevance) count as much as the large ones. It prints the weights in the profile's units
(decision score = the logit; threshold = minus the intercept) for a person to round into
selectors/synthetic.yml. Nothing here is run by the selector or the tests.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import fields
from pathlib import Path

import yaml

from app.audit.evaluation import load_cases
from app.audit.models import NO_TOOL
from app.audit.synthetic.decision import Evidence
from app.audit.synthetic.selector import SyntheticSelector

ROOT = Path(__file__).resolve().parent.parent
LABELED = ROOT.parent / "shared" / "corpora" / "labeled"
NATURAL = ROOT / "tests" / "fixtures" / "natural" / "natural.dev.json"
# Features the score subtracts (profile weights are magnitudes): their sign is flipped before fitting.
SUBTRACTED = {"exclusion", "typed_unplaced", "unmatched_words"}
# Profile key of each feature (Evidence field name -> selectors/synthetic.yml decision key).
PROFILE_KEY = {"boundary": "boundary_bonus", "exclusion": "exclusion_penalty", "coverage_log": "coverage"}


def dev_files() -> list[Path]:
    return [*sorted(LABELED.glob("*.dev.json")), NATURAL]


def samples(selector: SyntheticSelector) -> list[tuple[list[float], int, float, str]]:
    """(features, label, weight, file) for every case whose best-ranked tool says something."""
    out: list[tuple[list[float], int, float, str]] = []
    names = [f.name for f in fields(Evidence)]
    for path in dev_files():
        rows = []
        for case in load_cases(path):
            found = selector.evidence(case.tools, case.intent)
            if found is None:
                continue
            tool, evidence = found
            if case.expected != NO_TOOL and tool != case.expected:
                continue
            x = [(-1.0 if n in SUBTRACTED else 1.0) * getattr(evidence, n) for n in names]
            rows.append((x, int(case.expected != NO_TOOL)))
        for x, y in rows:
            out.append((x, y, 1.0 / len(rows), path.name))
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems here are 11 x 11)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
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


def fit(data: list[tuple[list[float], int, float, str]], *, l2: float, steps: int = 30) -> list[float]:
    """Weighted L2-regularised logistic regression by Newton's method; the last weight is the intercept."""
    k = len(data[0][0]) + 1
    w = [0.0] * k
    for _ in range(steps):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y, weight, _ in data:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty on the weights")
    parser.add_argument("--profile", type=Path, help="profile whose ranking gives the features (default: shipped)")
    parser.add_argument("--write", type=Path, help="write the profile with the fitted weights (2 decimals) here")
    args = parser.parse_args()
    selector = SyntheticSelector.from_profile(args.profile)
    data = samples(selector)
    w = fit(data, l2=args.l2)
    print(f"{len(data)} cases from {len(dev_files())} files")
    for f, weight in zip(fields(Evidence), w, strict=False):
        print(f"  {PROFILE_KEY.get(f.name, f.name)}: {weight:.3f}")
    print(f"  threshold: {-w[-1]:.3f}")
    if args.write:
        data = selector.profile.settings()
        names = [PROFILE_KEY.get(f.name, f.name) for f in fields(Evidence)]
        data["decision"] = {"threshold": round(-w[-1], 2)} | {n: round(v, 2) for n, v in zip(names, w, strict=False)}
        args.write.write_text(yaml.safe_dump(data, sort_keys=False, width=110), encoding="utf-8")


if __name__ == "__main__":
    main()
