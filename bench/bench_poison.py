"""Benchmark of the security rules (TC5xx, tool poisoning): precision on real servers, recall on a labeled set,
and what they add to the rule engine's time.

Run by hand: `PYTHONPATH=. python bench/bench_poison.py [--repeat N]`. It prints

1. every security finding on the real servers of ../shared/corpora/servers (the issue's budget: at most 1% of
   tools flagged), so each flag can be judged in bench/RESULTS.md;
2. recall per family and false positives on tests/fixtures/poison/labeled.json, with every miss and false
   positive named;
3. the rule engine's CPU time over all real servers with the rules before (TC0xx-TC4xx) and after (all
   rules), cold caches, median of --repeat interleaved runs, and each security rule alone.

Figures go into bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections import Counter
from pathlib import Path

from app.audit.models import Dimension, Tool, ToolSet
from app.audit.rules import RuleSet, checks_pair, checks_tool, evaluate, load_rules, poison_text

ROOT = Path(__file__).resolve().parents[1]
SERVERS = ROOT.parent / "shared" / "corpora" / "servers"
LABELED = ROOT / "tests" / "fixtures" / "poison" / "labeled.json"


def _servers() -> list[tuple[str, ToolSet]]:
    out = []
    for path in sorted(SERVERS.glob("*.json")):
        tools = [Tool.model_validate(t) for t in json.loads(path.read_text(encoding="utf-8"))["tools"]]
        out.append((path.name, ToolSet(tools=tools)))
    return out


def corpus_flags(servers: list[tuple[str, ToolSet]], security: RuleSet) -> None:
    total = sum(len(ts.tools) for _, ts in servers)
    flagged: set[tuple[str, str]] = set()
    print("## security findings on the real servers")
    for name, toolset in servers:
        for finding in evaluate(toolset, rules=security).findings:
            flagged.add((name, finding.tool or ""))
            print(f"- {name} {finding.rule_id} {finding.message}")
    print(f"{len(flagged)} of {total} tools flagged ({len(flagged) / total:.1%}; budget 1%)\n")


def labeled_set(security: RuleSet) -> None:
    entries = json.loads(LABELED.read_text(encoding="utf-8"))["entries"]
    poisoned: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    clean: Counter[str] = Counter()
    false_pos: Counter[str] = Counter()
    notes: list[str] = []
    for entry in entries:
        toolset = ToolSet(tools=[Tool.model_validate(t) for t in entry["tools"]])
        findings = evaluate(toolset, rules=security).findings
        family = entry["family"]
        if entry["label"] == "poisoned":
            poisoned[family] += 1
            hit = any(f.rule_id == entry["rule"] and f.tool == entry["tool"] for f in findings)
            caught[family] += hit
            if not hit:
                notes.append(f"- missed {entry['id']} ({entry['rule']}): {[f.rule_id for f in findings] or 'nothing'}")
        else:
            clean[family] += 1
            if findings:
                false_pos[family] += 1
                notes.append(f"- false positive {entry['id']}: {findings[0].rule_id} {findings[0].message}")
    print("## labeled set (tests/fixtures/poison/labeled.json)")
    print("| family | poisoned | caught by its rule | recall | clean near-misses | flagged |")
    print("|---|---:|---:|---:|---:|---:|")
    for family in sorted(set(poisoned) | set(clean)):
        recall = caught[family] / poisoned[family] if poisoned[family] else 0.0
        print(f"| {family} | {poisoned[family]} | {caught[family]} | {recall:.0%} | {clean[family]} | "
              f"{false_pos[family]} |")
    all_p, all_c = sum(poisoned.values()), sum(clean.values())
    print(f"| all | {all_p} | {sum(caught.values())} | {sum(caught.values()) / all_p:.0%} | {all_c} | "
          f"{sum(false_pos.values())} |")
    print("\n".join(notes) or "- no misses, no false positives")
    print()


def _cold() -> None:
    """Empty the engine's caches (meta-schema verdicts, name bounds, the fields memo): every run starts cold."""
    checks_tool._schema_problem.cache_clear()
    checks_pair._remainder_similarity.cache_clear()
    poison_text._MEMO.clear()


def _seconds(servers: list[tuple[str, ToolSet]], rules: RuleSet) -> float:
    """CPU seconds of one cold pass (process time: the machine is shared, wall time swings with its load)."""
    _cold()
    start = time.process_time()
    for _, toolset in servers:
        evaluate(toolset, rules=rules)
    return time.process_time() - start


def timing(servers: list[tuple[str, ToolSet]], rules: RuleSet, repeat: int) -> None:
    tools = sum(len(ts.tools) for _, ts in servers)
    before = RuleSet.of([r for r in rules.rules if r.dimension != Dimension.SECURITY])
    sets = [("before (TC0xx-TC4xx)", before), ("after (all)", rules)]
    sets += [(f"{r.id} alone ({r.then.function})", RuleSet.of([r])) for r in rules.rules
             if r.dimension == Dimension.SECURITY]
    samples: dict[str, list[float]] = {label: [] for label, _ in sets}
    for _ in range(repeat):  # interleaved, so every rule set meets the same machine load
        for label, chosen in sets:
            samples[label].append(_seconds(servers, chosen))
    print(f"## rule engine CPU time over {tools} real tools (python {platform.python_version()}, "
          f"median of {repeat}, cold caches)")
    print("| rules | count | seconds | ms per tool |")
    print("|---|---:|---:|---:|")
    for label, chosen in sets:
        seconds = statistics.median(samples[label])
        print(f"| {label} | {len(chosen.rules)} | {seconds:.3f} | {seconds / tools * 1000:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rules = load_rules()
    security = RuleSet.of([r for r in rules.rules if r.dimension == Dimension.SECURITY])
    servers = _servers()
    corpus_flags(servers, security)
    labeled_set(security)
    timing(servers, rules, args.repeat)


if __name__ == "__main__":
    main()
