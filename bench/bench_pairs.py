"""The 14 real before/after pairs of ../shared/corpora/pairs through the synthetic before/after, as a reviewer reads
them: every regression the comment would show, and whether `--fail-on-regression` fails.

Run by hand from the repository root: `PYTHONPATH=. python bench/bench_pairs.py [--json OUT]`. Each pair goes
through `app.audit.engine.audit_pair` as `toolchoice diff BASE HEAD` would (5 intents per tool, negatives, no
config) with one synthetic selector. Printed per pair: the overall scores and their change, the changed tools,
counts of regressions (firm / near ties), improvements and coverage changes, whether the default gate with
fail_on_regression fails, then each regression (intent, expected, before -> after, near tie or firm). The reading
of each regression by a person is in bench/RESULTS.md, not here.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.audit.engine import audit_pair  # noqa: E402
from app.audit.gate import Conclusion, evaluate_gate  # noqa: E402
from app.audit.loader import load_definitions  # noqa: E402
from app.audit.rules.ruleset import load_rules  # noqa: E402
from app.selector_factory import synthetic_selector  # noqa: E402

PAIRS = ROOT.parent / "shared" / "corpora" / "pairs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write every pair's record here")
    args = parser.parse_args()
    selector = synthetic_selector()
    rules = load_rules()
    records = []
    started = time.perf_counter()
    totals = {"pairs": 0, "with_regressions": 0, "regressions": 0, "near_ties": 0, "gate_fails": 0}
    for base_path in sorted(PAIRS.glob("*__base.json")):
        head_path = base_path.with_name(base_path.name.replace("__base.json", "__head.json"))
        base = load_definitions(base_path.name, text=base_path.read_text(encoding="utf-8"))
        head = load_definitions(head_path.name, text=head_path.read_text(encoding="utf-8"))
        comparison = audit_pair(base, head, selector=selector, rules=rules)
        gate = evaluate_gate(comparison, fail_on_regression=True)
        name = base_path.name.removesuffix("__base.json")
        regressions = [
            {
                "intent": r.intent,
                "expected": r.expected,
                "before": r.before_selected,
                "after": r.after_selected,
                "near_tie": r.borderline,
            }
            for r in comparison.regressions
        ]
        record = {
            "pair": name,
            "base_overall": comparison.base.overall,
            "head_overall": comparison.head.overall,
            "overall_delta": comparison.overall_delta,
            "changed": [f"{c.tool} ({c.change})" for c in comparison.tool_changes],
            "regressions": regressions,
            "improvements": len(comparison.improvements),
            "coverage": len(comparison.coverage),
            "gate": gate.conclusion.value,
        }
        records.append(record)
        near = sum(r["near_tie"] for r in regressions)
        totals["pairs"] += 1
        totals["with_regressions"] += bool(regressions)
        totals["regressions"] += len(regressions)
        totals["near_ties"] += near
        totals["gate_fails"] += gate.conclusion == Conclusion.FAILURE
        print(
            f"{name}: overall {record['base_overall']:.1f} -> {record['head_overall']:.1f} "
            f"({record['overall_delta']:+.1f}); regressions {len(regressions) - near} firm, {near} near ties; "
            f"improvements {record['improvements']}; coverage changes {record['coverage']}; gate {record['gate']}"
        )
        print("  changed: " + ", ".join(record["changed"]))
        for r in regressions:
            kind = "near tie" if r["near_tie"] else "firm"
            print(f"  - {r['intent']!r} expected {r['expected']}: {r['before']} -> {r['after']} ({kind})")
    print(
        f"\n{totals['pairs']} pairs: {totals['with_regressions']} with regressions, "
        f"{totals['regressions']} regressions ({totals['near_ties']} near ties); "
        f"the gate with fail_on_regression fails on {totals['gate_fails']}; "
        f"{time.perf_counter() - started:.0f} s"
    )
    if args.json:
        args.json.write_text(json.dumps({"totals": totals, "pairs": records}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
