"""Bad input at scale: mutated real tool-definition files through loader -> rules -> suite -> selection -> render.

Seeds are the servers of ../shared/corpora/servers (their first 4 tools each). Every input is one mutation
(tests/audit/mutations.py: truncation, type confusion at any depth, 10 MB strings, 10,000-deep nesting, YAML alias
bombs and python tags, `$ref` cycles, 100,000-member enums, NaN and huge numbers, control and confusable characters,
invalid Unicode in any key or string, byte noise, YAML cut or noised) with its own seeded random generator, so a run
is reproducible. Counts per kind how inputs ended (ok, refused naming file and line, refused without a line, raised),
the slowest input and the process's peak memory; the address space is capped (--memory-mb) so an input that would
exhaust memory fails as MemoryError instead of taking the machine down.

    PYTHONPATH=. python bench/bench_fuzz.py [--inputs 10000] [--heavy 30] [--memory-mb 2048]
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path

from tests.audit.mutations import MUTATIONS, mutate, names_file_and_line, run_pipeline, seed_texts

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ROOT.parent / "shared" / "corpora" / "servers"
# Seconds-per-input kinds: run --heavy of each, the rest share the remaining inputs equally.
HEAVY = ("10 MB string", "100k-member enum")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--heavy", type=int, default=30, help="inputs of each heavy kind (10 MB, 100k enum)")
    parser.add_argument("--memory-mb", type=int, default=2048, help="address-space cap of this process")
    parser.add_argument("--seed", type=int, default=20261203)
    args = parser.parse_args()
    if not SERVERS.is_dir():
        raise SystemExit(f"{SERVERS} is absent: the shared corpora are not next to this checkout")
    cap = args.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    seeds = seed_texts(SERVERS)
    light = [k for k in MUTATIONS if k not in HEAVY]
    plan = [k for k in HEAVY for _ in range(args.heavy)]
    plan += [light[i % len(light)] for i in range(args.inputs - len(plan))]
    rng = random.Random(args.seed)
    rng.shuffle(plan)
    ended: dict[str, Counter[str]] = defaultdict(Counter)
    slowest: dict[str, float] = defaultdict(float)
    total: dict[str, float] = defaultdict(float)
    problems: list[str] = []
    started = time.perf_counter()
    for i, kind in enumerate(plan):
        case_rng = random.Random(f"{args.seed}:{i}")
        name, text = case_rng.choice(seeds)
        suffix, bad = mutate(kind, text, case_rng)
        fname = name.rsplit(".", 1)[0] + suffix
        t0 = time.perf_counter()
        try:
            result = run_pipeline(fname, bad)
            outcome = result.outcome
            if outcome == "refused" and not names_file_and_line(fname, result.message):
                outcome = "refused without file:line"
                problems.append(f"#{i} {kind}: {result.message[:200]}")
        except BaseException as exc:  # everything counts, MemoryError and RecursionError included
            if isinstance(exc, KeyboardInterrupt):
                raise
            outcome = f"raised {type(exc).__name__}"
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            problems.append(f"#{i} {kind}: {type(exc).__name__}: {str(exc)[:160]} at {frame.filename}:{frame.lineno}")
        spent = time.perf_counter() - t0
        ended[kind][outcome] += 1
        slowest[kind] = max(slowest[kind], spent)
        total[kind] += spent
        if (i + 1) % 1000 == 0:
            print(f"... {i + 1} inputs, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"inputs: {len(plan)} in {time.perf_counter() - started:.0f} s; peak RSS of the process {peak_mb:.0f} MB")
    print("| kind | inputs | ok | refused (file:line) | other | mean s | slowest s |")
    print("|---|---:|---:|---:|---|---:|---:|")
    for kind in MUTATIONS:
        counts = ended[kind]
        n = sum(counts.values())
        other = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k not in ("ok", "refused")) or "0"
        print(
            f"| {kind} | {n} | {counts['ok']} | {counts['refused']} | {other} | "
            f"{total[kind] / max(n, 1):.3f} | {slowest[kind]:.2f} |"
        )
    for line in problems[:40]:
        print("PROBLEM", line)
    print(f"problems: {len(problems)}")


if __name__ == "__main__":
    main()
