"""How the generated suite reads and how much of it is scored, on the real servers and pairs of ../shared/corpora.

Run by hand: `PYTHONPATH=. python bench/bench_suite.py [--samples 20] [--seed 7]`. Prints, per server: cases,
the share of generated cases that validation keeps as scored, scored cases per tool (min / median), tools with
a description and no scored case; per family (explicit, task, indirect, contrastive, near-miss, off-topic) the
scored share;
per real before/after pair the scored cases of each changed tool and the suite's notes; then `--samples`
random requests per server, so a person can read what a pull request's author would see.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from app.audit.loader import load_definitions
from app.audit.models import NO_TOOL, Case, CaseFamily, Provenance, Suite, ToolSet
from app.audit.suite.build import build_suite
from app.audit.suite.targeting import changed_tools
from app.audit.suite.validate import MIN_CONFIDENCE, CaseValidator

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"


def load(path: Path) -> ToolSet:
    return load_definitions(path.name, text=path.read_text(encoding="utf-8"))


def family(case_family: CaseFamily, phrasing: object) -> str:
    return getattr(phrasing, "value", "other") if case_family == CaseFamily.POSITIVE else case_family.value


def scored_per_tool(suite: Suite) -> Counter[str]:
    return Counter(c.expected for c in suite.cases if c.family == CaseFamily.POSITIVE and c.scored)


def validator_check(servers: list[Path]) -> None:
    """Does the validator reject what it should? Human-labeled requests relabeled wrongly, on the dev half."""
    natural = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "natural" / "natural.dev.json"
    sets = {p.stem: load(p) for p in servers}
    cases = [c for c in json.loads(natural.read_text(encoding="utf-8"))["cases"] if c["expected"] != NO_TOOL]
    rng = random.Random(1)
    wrong_tool = wrong_tool_kept = no_tool_kept = 0
    for item in cases:
        toolset = sets[item["server"]]
        validator = CaseValidator(toolset)
        others = [t.name for t in toolset.tools if t.name != item["expected"]]
        for label in [*rng.sample(others, min(3, len(others))), NO_TOOL]:
            case = Case(id="x", intent=item["intent"], expected=label, provenance=Provenance.AI_GENERATED)
            kept = validator.validate(case, min_confidence=MIN_CONFIDENCE).scored
            if label == NO_TOOL:
                no_tool_kept += kept
            else:
                wrong_tool += 1
                wrong_tool_kept += kept
    print(
        f"\nvalidator on {len(cases)} human-labeled natural tool requests (tests/fixtures/natural/natural.dev.json), "
        f"relabeled wrongly: another tool kept as scored {wrong_tool_kept} of {wrong_tool}; "
        f"NO_TOOL kept as scored {no_tool_kept} of {len(cases)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    servers = sorted((CORPORA / "servers").glob("*.json"))
    if not servers:
        print(f"{CORPORA / 'servers'} is absent", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    families: Counter[str] = Counter()
    families_scored: Counter[str] = Counter()
    total = total_scored = uncovered_all = described_all = 0
    samples: list[tuple[str, list[str]]] = []
    started = time.perf_counter()
    print("| server | tools | cases | generated scored | scored per tool min / median | described, none scored |")
    print("|---|---:|---:|---:|---:|---:|")
    for path in servers:
        toolset = load(path)
        suite = build_suite([toolset])
        generated = [c for c in suite.cases if c.provenance == Provenance.AI_GENERATED]
        scored = sum(c.scored for c in generated)
        per_tool = scored_per_tool(suite)
        counts = [per_tool[t.name] for t in toolset.tools]
        described = [t for t in toolset.tools if t.description]
        uncovered = sum(1 for t in described if not per_tool[t.name])
        for c in suite.cases:
            key = family(c.family, c.phrasing)
            families[key] += 1
            families_scored[key] += c.scored
        total += len(generated)
        total_scored += scored
        uncovered_all += uncovered
        described_all += len(described)
        print(
            f"| {path.stem} | {len(toolset.tools)} | {len(suite.cases)} | {scored / max(1, len(generated)):.0%} | "
            f"{min(counts)} / {statistics.median(counts):g} | {uncovered} |"
        )
        intents = [c.intent for c in suite.cases if c.family != CaseFamily.OFF_TOPIC]
        samples.append((path.stem, rng.sample(intents, min(args.samples, len(intents)))))
    elapsed = time.perf_counter() - started
    print(
        f"\nall servers: {total_scored / total:.1%} of {total} generated cases scored; "
        f"{uncovered_all} of {described_all} described tools without a scored case; {elapsed:.1f} s to build"
    )
    print("\n| family | cases | scored |\n|---|---:|---:|")
    for key in ("explicit", "task", "indirect", "contrastive", "near_miss", "off_topic"):
        print(f"| {key} | {families[key]} | {families_scored[key] / max(1, families[key]):.0%} |")
    pairs = sorted((CORPORA / "pairs").glob("*__base.json"))
    print("\n| pair | changed tools: scored cases | notes |\n|---|---|---|")
    for base_path in pairs:
        base, head = load(base_path), load(base_path.with_name(base_path.name.replace("__base", "__head")))
        suite = build_suite([base, head])
        per_tool = scored_per_tool(suite)
        changed = ", ".join(f"{n} {per_tool[n]}" for n in changed_tools(base, head)[:5])
        notes = " ".join(n for n in suite.notes if n.startswith("Changed tool")) or "-"
        print(f"| {base_path.name.removesuffix('__base.json')} | {changed} | {notes} |")
    validator_check(servers)
    for name, intents in samples:
        print(f"\n{name}:")
        for intent in intents:
            print(f"  - {intent}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
