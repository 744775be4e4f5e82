"""Benchmark: a synthetic audit of 10, 100 and 1,000 tools (5 generated intents per tool + negatives).

Run by hand: `python bench/bench_audit.py [--sizes 10,100,1000]`. Each size runs in a fresh process so
peak memory (ru_maxrss) is its own. Tools are taken from ../shared/corpora/servers (real definitions,
renamed with a numeric suffix past the 464 available) or, without it, generated from a fixed vocabulary.
Prints one JSON line per size with the time of each phase of one audit with no sentence vector cached (the model's
graph built and kept before, as after a machine's first run), and with `--warm` of a second one with every vector
cached; the cache directory is a temporary one of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ROOT.parent / "shared" / "corpora" / "servers"
VERBS = ["get", "list", "create", "update", "delete", "search", "export", "archive", "send", "sync"]
NOUNS = [
    "invoice",
    "customer",
    "ticket",
    "order",
    "report",
    "file",
    "message",
    "event",
    "user",
    "project",
    "repository",
    "issue",
    "comment",
    "label",
    "webhook",
    "payment",
    "shipment",
    "contract",
    "device",
    "alert",
]


def tool_pool(n: int) -> list[dict]:
    tools: list[dict] = []
    if SERVERS.is_dir():
        for path in sorted(SERVERS.glob("*.json")):
            tools.extend(json.loads(path.read_text())["tools"])
    else:
        for verb in VERBS:
            for noun in NOUNS:
                tools.append(
                    {
                        "name": f"{verb}_{noun}",
                        "description": f"{verb.capitalize()}s a {noun} in the workspace and returns the {noun} record.",
                        "inputSchema": {
                            "type": "object",
                            "properties": {f"{noun}_id": {"type": "string", "description": f"Id of the {noun}."}},
                        },
                    }
                )
    out = []
    for i in range(n):
        tool = dict(tools[i % len(tools)])
        if i >= len(tools):
            tool["name"] = f"{tool['name']}_{i // len(tools)}"
        out.append(tool)
    return out


def run_one(n: int) -> dict:
    """One cold audit, phase by phase, exactly as app.audit.engine.audit runs them."""
    sys.path.insert(0, str(ROOT))
    from app.audit.loader import load_definitions
    from app.audit.rules.engine import evaluate
    from app.audit.rules.ruleset import load_rules
    from app.audit.scoring import score
    from app.audit.selection import run_suite
    from app.audit.suite.build import build_suite
    from app.selector_factory import synthetic_selector

    text = json.dumps({"tools": tool_pool(n)})
    selector = synthetic_selector()
    rules = load_rules()
    t0 = time.perf_counter()
    toolset = load_definitions("bench.json", text=text)
    t1 = time.perf_counter()
    results = evaluate(toolset, rules=rules)
    t2 = time.perf_counter()
    suite = build_suite([toolset])
    t3 = time.perf_counter()
    runs = run_suite(selector, toolset, suite)
    t4 = time.perf_counter()
    result = score(toolset, checks=results.checks, runs=runs)
    t5 = time.perf_counter()
    return {
        "tools": n,
        "cases": len(suite.cases),
        "load_s": round(t1 - t0, 3),
        "rules_s": round(t2 - t1, 3),
        "suite_s": round(t3 - t2, 3),
        "selection_s": round(t4 - t3, 3),
        "scoring_s": round(t5 - t4, 3),
        "total_s": round(t5 - t0, 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "overall": result.overall,
    }


WARM_UP = "from app.semantic.similarity import shared_similarity; shared_similarity().load()"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--warm", action="store_true", help="also a second audit of each size, every vector cached")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one)))
        return
    # A cache directory of its own: the model's graph is built and kept first (a machine's first run), then every
    # size starts with no vector cached (cold), and with --warm runs again with all of them cached.
    directory = Path(tempfile.mkdtemp(prefix="toolchoice-bench-audit-"))
    env = {**os.environ, "TOOLCHOICE_CACHE_DIR": str(directory), "PYTHONPATH": str(ROOT)}
    env.pop("TOOLCHOICE_NO_CACHE", None)
    try:
        subprocess.run([sys.executable, "-c", WARM_UP], env=env, check=True)
        for n in (int(s) for s in args.sizes.split(",")):
            with sqlite3.connect(directory / "vectors.sqlite3") as db:
                db.execute("DELETE FROM vectors")
            for run in ("cold", "warm") if args.warm else ("cold",):
                out = subprocess.run(
                    [sys.executable, __file__, "--one", str(n)], capture_output=True, text=True, check=True, env=env
                )
                print(json.dumps({"vectors": run} | json.loads(out.stdout)))
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
