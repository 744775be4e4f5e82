"""Benchmark of the rule engine: all rules over 10, 100 and 1,000 generated tools, and per rule at 1,000.

Run by hand: `python bench/bench_rules.py`; timed runs start with empty caches (cold). Tool sets are
generated deterministically (same seed, same tools) from a vocabulary of verbs, objects and sentence
templates, so descriptions share words the way a large real server's do (that is what the TF-IDF pair
rule pays for). Figures go into bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from typing import Any

from app.audit.models import Tool, ToolSet
from app.audit.rules import RuleSet, checks_pair, checks_tool, evaluate, load_rules

VERBS = "get list create update delete search send archive restore export import sync merge close assign".split()
OBJECTS = (
    "invoice customer order ticket message file folder report user team project task comment label "
    "repository branch release build deployment alert metric dashboard calendar event meeting note "
    "document contract payment refund subscription product inventory shipment address contact lead "
    "workflow pipeline secret variable webhook environment cluster node pod volume snapshot backup"
).split()
SCOPES = "in a workspace|of the current project|across all teams|for one account|in the given region".split("|")
WHEN = [
    "Use this when the user asks about {obj}s by name.",
    "Useful for audits and weekly reviews.",
    "Call it before changing a {obj} to see its state.",
    "",
]
RESULT = ["Returns a list of {obj}s with ids and timestamps.", "Returns the {obj} as JSON.", "", ""]
EXTRA = [
    "Results are paginated; pass a cursor to continue.",
    "Deleted items are not included unless asked for.",
    "This cannot be undone.",
    "The caller needs the {obj}:write permission.",
    "",
]
PARAMS: list[tuple[str, dict[str, Any]]] = [
    ("{obj}_id", {"type": "string", "description": "Id of the {obj}, e.g. '{obj}-123'."}),
    ("query", {"type": "string", "description": "Text to match in {obj} titles."}),
    ("limit", {"type": "integer", "description": "Maximum number of results (1-100)."}),
    ("since", {"type": "string", "description": "Only {obj}s changed after this date."}),
    ("state", {"type": "string", "enum": ["open", "closed", "all"], "description": "State filter."}),
    ("data", {"type": "object"}),
    ("path", {"type": "string", "description": "Where the {obj} lives."}),
]


def make_tools(count: int, *, seed: int = 11) -> list[Tool]:
    """`count` distinct tools with 2-4 sentence descriptions and 2-5 parameters."""
    rng = random.Random(seed)
    tools: list[Tool] = []
    seen: set[str] = set()
    while len(tools) < count:
        verb, obj = rng.choice(VERBS), rng.choice(OBJECTS)
        name = f"{verb}_{obj}s" if verb in ("list", "search", "export") else f"{verb}_{obj}"
        if name in seen:
            name = f"{name}_{rng.choice(OBJECTS)}"
        if name in seen:
            continue
        seen.add(name)
        sentences = [
            f"{verb.capitalize()} {obj}s {rng.choice(SCOPES)}.",
            rng.choice(WHEN),
            rng.choice(RESULT),
            rng.choice(EXTRA),
        ]
        description = " ".join(s.format(obj=obj) for s in sentences if s)
        chosen = rng.sample(PARAMS, rng.randint(2, 5))
        properties = {
            p.format(obj=obj): {k: (v.format(obj=obj) if isinstance(v, str) else v) for k, v in schema.items()}
            for p, schema in chosen
        }
        required = [next(iter(properties))]
        schema = {"type": "object", "properties": properties, "required": required}
        annotations = {"readOnlyHint": True} if verb in ("get", "list", "search", "export") else None
        tools.append(
            Tool.model_validate(
                {"name": name, "description": description, "inputSchema": schema, "annotations": annotations}
            )
        )
    return tools


def _cold() -> None:
    """Empty the engine's caches so every timed run pays for meta-schema validation and name bounds."""
    checks_tool._schema_problem.cache_clear()
    checks_pair._remainder_similarity.cache_clear()


def _time(func: Any, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        _cold()
        start = time.perf_counter()
        func()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, median of {args.repeat} runs")
    start = time.perf_counter()
    rules = load_rules()
    print(f"load_rules: {len(rules.rules)} rules in {(time.perf_counter() - start) * 1000:.1f} ms")
    print("| tools | parameters | findings | checks | evaluate (s) | ms per tool |")
    print("|---:|---:|---:|---:|---:|---:|")
    largest: list[Tool] = []
    for size in (int(s) for s in args.sizes.split(",")):
        tools = make_tools(size)
        largest = tools
        toolset = ToolSet(tools=tools)
        results = evaluate(toolset, rules=rules)
        seconds = _time(lambda ts=toolset: evaluate(ts, rules=rules), args.repeat)
        params = sum(len(t.properties) for t in tools)
        print(
            f"| {size:,} | {params:,} | {len(results.findings):,} | {len(results.checks):,} | "
            f"{seconds:.3f} | {seconds / size * 1000:.2f} |"
        )
    print(f"\nper rule at {len(largest):,} tools:")
    print("| rule | function | findings | seconds |")
    print("|---|---|---:|---:|")
    toolset = ToolSet(tools=largest)
    for rule in rules.rules:
        one = RuleSet.of([rule])
        found = len(evaluate(toolset, rules=one).findings)
        seconds = _time(lambda r=one: evaluate(toolset, rules=r), args.repeat)
        print(f"| {rule.id} | {rule.then.function} | {found:,} | {seconds:.3f} |")


if __name__ == "__main__":
    main()
