"""Suggestions on the real tool sets: rewrites offered, accepted and rejected, the rerun's effect, the time.

    python bench/bench_suggest.py [--max 10] [FILE...]   (default: every ../shared/corpora/servers/*.json)

Synthetic mode: the simulator rewards the boundary sentences the optimizer writes, so the gains estimate
added structure, not a real model's improvement.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from app.audit.loader import load_definitions
from app.audit.rules import load_rules
from app.audit.suite.build import build_suite
from app.selector_factory import synthetic_selector
from app.suggest.run import suggest

SERVERS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "servers"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--max", type=int, default=10)
    args = parser.parse_args()
    files = args.files or sorted(SERVERS.glob("*.json"))
    selector = synthetic_selector()
    rules = load_rules()
    print("| tool set | tools | cases | rewritten | accepted | rejected (rerun) | rejected (check) | "
          "steals caught | cases newly passing | overall before -> after (accepted together) | s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    totals = [0, 0, 0, 0, 0, 0]
    for path in files:
        toolset = load_definitions(path.name, text=path.read_text(encoding="utf-8"))
        suite = build_suite([toolset])
        start = time.perf_counter()
        report = suggest(toolset, suite=suite, selector=selector, rules=rules, limit=args.max)
        seconds = time.perf_counter() - start
        tools = {s.tool for s in report.suggestions}
        accepted = {s.tool for s in report.accepted}
        rerun = {s.tool for s in report.rejected if s.reason.startswith("rejected by the rerun")}
        checked = {s.tool for s in report.rejected if s.reason.startswith("rejected:")}
        steals = {s.tool for s in report.rejected if s.effect and s.effect.stolen}
        fixed = len(report.combined.improved) if report.combined else 0
        combined = report.combined
        effect = f"{combined.overall_before:.1f} -> {combined.overall_after:.1f}" if combined else "-"
        name = path.name.removesuffix(".json")
        print(f"| {name} | {len(toolset.tools)} | {len(suite.cases)} | {len(tools)} | {len(accepted)} | "
              f"{len(rerun)} | {len(checked)} | {len(steals)} | {fixed} | {effect} | {seconds:.1f} |")
        for i, n in enumerate((len(tools), len(accepted), len(rerun), len(checked), len(steals), fixed)):
            totals[i] += n
    print(f"| total | | | {' | '.join(str(t) for t in totals)} | | |")


if __name__ == "__main__":
    main()
