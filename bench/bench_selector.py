"""Benchmark of the synthetic selector: accuracy beside the BM25 floor, and selections per second.

Run by hand: `PYTHONPATH=. python bench/bench_selector.py [--profile FILE] [--no-speed] [--check]`.

Accuracy: the synthetic selector and the BM25 floor (app/audit/bm25_floor.py) run in one process on every
`../shared/corpora/labeled/*.dev.json` file and on the natural-phrasing set
`tests/fixtures/natural/natural.dev.json` (its server files from ../shared/corpora/servers); one table per
set: cases, synthetic %, floor %, and the NO_TOOL / tool halves of each, then the overall halves and the
cases per second of both. A file where the synthetic selector is below the floor is marked.

Speed: each generated tool set (10, 100, 1,000 tools) is built deterministically; an audit runs about 7
selections per tool (positive, off-topic, near-miss cases), so the bench does the same: each request gets
its own tool list built the way run_suite builds it (fresh dicts per case), and one case in seven is a
near-miss whose target tool is removed from the list.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from pathlib import Path
from typing import Any

from app.audit.bm25_floor import FileComparison, beside_floor
from app.audit.evaluation import Metrics, load_cases
from app.audit.models import NO_TOOL
from app.audit.selection import SelectionRequest, Selector
from app.audit.synthetic.selector import SyntheticSelector
from app.selector_factory import synthetic_selector
from app.semantic.similarity import shared_similarity

ROOT = Path(__file__).resolve().parent.parent
LABELED = ROOT.parent / "shared" / "corpora" / "labeled"
NATURAL = ROOT / "tests" / "fixtures" / "natural" / "natural.dev.json"
# The kept-aside half: read only with --check, once a choice is made, never to make one.
NATURAL_CHECK = NATURAL.with_name("natural.check.json")

VERBS = "get list create update delete search send archive restore export import sync merge split rank".split()
NOUNS = (
    "invoice customer order ticket message file folder report user team project task comment label "
    "repository branch release build deployment alert metric dashboard calendar event meeting note "
    "document contract payment refund subscription product inventory shipment address contact lead"
).split()
QUALIFIERS = "recent archived shared pending draft public private weekly monthly external internal".split()
OFF_TOPIC = [
    "Tell me a joke about penguins",
    "Who won the world cup in 1998?",
    "Translate good morning into Japanese",
    "What is the meaning of life?",
]
SELECTIONS_PER_TOOL = 7


def make_tools(count: int, *, seed: int = 7) -> list[dict[str, Any]]:
    """`count` distinct, plausible MCP tools (same seed, same tools)."""
    rng = random.Random(seed)
    tools: list[dict[str, Any]] = []
    seen: set[str] = set()
    while len(tools) < count:
        verb, noun, qual = rng.choice(VERBS), rng.choice(NOUNS), rng.choice(QUALIFIERS)
        name = f"{verb}_{qual}_{noun}" if f"{verb}_{noun}" in seen else f"{verb}_{noun}"
        if name in seen:
            name = f"{name}_{len(tools)}"
        seen.add(name)
        other = rng.choice(NOUNS)
        tools.append(
            {
                "name": name,
                "description": (
                    f"{verb.capitalize()} {qual} {noun}s of the workspace, with their {other} details. "
                    f"Use this when the user wants to {verb} a {noun}. Do not use for {other}s."
                ),
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        f"{noun}_id": {"type": "integer", "description": f"Id of the {noun}"},
                        "query": {"type": "string", "description": f"Text to match in the {noun}"},
                        "limit": {"type": "integer", "description": "Maximum number of results"},
                        "include_archived": {"type": "boolean"},
                    },
                    "required": [f"{noun}_id"],
                },
            }
        )
    return tools


def make_requests(tools: list[dict[str, Any]], *, seed: int = 11) -> list[SelectionRequest]:
    """About SELECTIONS_PER_TOOL requests per tool, each with its own fresh tool list."""
    rng = random.Random(seed)
    requests: list[SelectionRequest] = []
    for i in range(len(tools) * SELECTIONS_PER_TOOL):
        target = tools[i % len(tools)]
        verb, _, noun = target["name"].partition("_")
        kind = i % SELECTIONS_PER_TOOL
        # Fresh outer dicts per case, as ToolSet.to_mcp() gives; a near-miss case drops its target.
        listed = [dict(t) for t in tools if kind != 0 or t is not target]
        if kind in (1, 2):
            intent = rng.choice(OFF_TOPIC)
        else:
            intent = f"please {verb} the {noun.replace('_', ' ')} {rng.randint(1, 9999)} and show {rng.randint(1, 50)}"
        requests.append(SelectionRequest(tools=listed, intent=intent))
    return requests


def bench(count: int) -> dict[str, float]:
    tools = make_tools(count)
    requests = make_requests(tools)
    selector = synthetic_selector()
    start = time.perf_counter()
    answers = selector.select_many(requests)
    seconds = time.perf_counter() - start
    assert len(answers) == len(requests)
    per = 1000 * seconds / len(requests)
    return {"tools": count, "selections": len(requests), "seconds": seconds, "ms_per_selection": per}


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _halves(m: Metrics) -> str:
    return f"{_pct(m.no_tool_accuracy)} / {_pct(m.tool_accuracy)}"


def _row(c: FileComparison) -> str:
    below = c.below_floor()
    mark = f" **below the floor: {', '.join(below)}**" if below else ""
    name = c.file.removesuffix(".json").removesuffix(".dev")
    return (
        f"| {name}{mark} | {c.selector.cases:,} | {_pct(c.selector.accuracy)} | {_pct(c.floor.accuracy)} "
        f"| {_halves(c.selector)} | {_halves(c.floor)} |"
    )


def accuracy_table(selector: Selector, title: str, files: list[Path]) -> str:
    """The per-file table of `selector` beside the BM25 floor on `files`, with the overall row."""
    if not files or not all(f.exists() for f in files):
        return f"{title}: skipped, {files[0].parent if files else 'no files'} is absent"
    rows, overall, ours, floor = beside_floor(selector, files)
    lines = [
        f"{title}",
        "",
        "| file | cases | synthetic | BM25 floor | synthetic NO_TOOL / tool | floor NO_TOOL / tool |",
        "|---|---:|---:|---:|---:|---:|",
        *(_row(c) for c in rows),
        _row(overall).replace("| overall", "| **overall**"),
        "",
        f"cases/s: synthetic {ours:,.0f}, floor {floor:,.0f}",
    ]
    return "\n".join(lines)


def ranking_table(selector: Selector, title: str, files: list[Path]) -> str:
    """The ranking apart from the abstention, on each file's tool cases: how often the selector's best-ranked tool
    is the expected one (top-1, as if it never abstained), how often it calls it, how often it abstains with the
    right tool first (what the NO_TOOL decision costs), and the top-1 of the plain MiniLM cosine of the request with
    "name: description" beside it."""
    if not isinstance(selector, SyntheticSelector) or not all(f.exists() for f in files):
        return f"{title}: skipped"
    similarity = shared_similarity()
    head = "| file | tool cases | ranked first | called right | abstained, right tool first | plain cosine first |"
    lines = [title, "", head,
             "|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    for path in files:
        cases = [c for c in load_cases(path) if c.expected != NO_TOOL]
        if not cases:
            continue
        first = called = abstained = cosine = 0
        for case in cases:
            texts = [f"{t['name']}: {(t.get('description') or '').strip()}" for t in case.tools]
            scores = similarity.similarities(case.intent, texts)
            cosine += case.tools[max(range(len(texts)), key=lambda i: (scores[i], -i))]["name"] == case.expected
            found = selector.evidence(case.tools, case.intent)
            top = found is not None and found[0] == case.expected
            answer = selector.select(case.tools, case.intent).tool
            first += top
            called += answer == case.expected
            abstained += top and answer == NO_TOOL
        pct = [f"{100 * k / len(cases):.1f}%" for k in (first, called, abstained, cosine)]
        lines.append(f"| {path.name} | {len(cases)} | {' | '.join(pct)} |")
    return "\n".join(lines)


def accuracy_tables(selector: Selector) -> str:
    labeled = sorted(LABELED.glob("*.dev.json"))
    return "\n\n".join(
        [
            accuracy_table(selector, "Labeled dev files (../shared/corpora/labeled)", labeled),
            accuracy_table(selector, "Natural phrasing (tests/fixtures/natural)", [NATURAL]),
            ranking_table(
                selector, "Ranking apart from abstention (tool cases)", [*sorted(LABELED.glob("*.dev.json")), NATURAL]
            ),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000", help="comma-separated tool counts")
    parser.add_argument("--profile", type=Path, help="synthetic selector profile (default: the shipped one)")
    parser.add_argument("--no-speed", action="store_true", help="only the accuracy tables")
    parser.add_argument("--no-accuracy", action="store_true", help="only the speed table")
    parser.add_argument(
        "--check", action="store_true", help="only the kept-aside natural.check half (report it, choose nothing on it)"
    )
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    if args.check:
        selector = synthetic_selector(args.profile)
        print(accuracy_table(selector, "Natural phrasing, kept-aside half", [NATURAL_CHECK]))
        print(ranking_table(selector, "\nRanking apart from abstention, kept-aside half", [NATURAL_CHECK]))
        return
    if not args.no_accuracy:
        print(accuracy_tables(synthetic_selector(args.profile)))
    if args.no_speed:
        return
    print("| tools | selections | total s | ms / selection |")
    print("|---:|---:|---:|---:|")
    for size in (int(s) for s in args.sizes.split(",")):
        r = bench(size)
        print(f"| {r['tools']:,} | {r['selections']:,} | {r['seconds']:.2f} | {r['ms_per_selection']:.3f} |")


if __name__ == "__main__":
    main()
