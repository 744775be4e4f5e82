"""live_model benchmark: a 200-case audit at concurrency 16 against a loopback server answering after 200 ms.

Run by hand from the repository root: `python bench/bench_live.py [--cases 200] [--concurrency 16]`.
Target (issue 4): wall time within 1.25 x ceil(cases / concurrency) x 0.2 s, and a second identical
run makes 0 model calls (served from the cache).
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.audit.engine import audit  # noqa: E402
from app.audit.models import NO_TOOL, Case, Provenance, Suite, ToolSet  # noqa: E402
from app.audit.rules.ruleset import load_rules  # noqa: E402
from app.llm.cache import FileCache  # noqa: E402
from app.llm.factory import build_live_selector  # noqa: E402
from app.llm.usage import usage_totals  # noqa: E402
from tests.llm.fake_openai import API_KEY, MODEL, FakeOpenAI, Reply, mention_handler  # noqa: E402

DELAY_S = 0.2
TOOLS: list[dict[str, Any]] = [
    {
        "name": f"svc.tool{i:02d}",
        "description": f"Does task number {i} for the user.",
        "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}},
    }
    for i in range(12)
]


def delayed(request: dict[str, Any]) -> Reply:
    reply = mention_handler(request)
    reply.delay = DELAY_S
    return reply


def serve() -> None:
    """The server process: prints its URL, counts chat requests on GET /count, runs until killed."""
    with FakeOpenAI(handler=delayed) as server:
        print(server.url, flush=True)
        while True:
            time.sleep(3600)


@contextmanager
def server_process() -> Iterator[str]:
    """The loopback server in its own process, as a real endpoint would be; yields its base URL."""
    proc = subprocess.Popen([sys.executable, __file__, "--serve"], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        yield proc.stdout.readline().strip()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def suite_of(n: int) -> Suite:
    cases = [
        Case(
            id=f"bench-{i:04d}",
            intent=f"please run svc_tool{i % 12:02d} now (request {i})" if i % 4 else f"unrelated chat {i}",
            expected=f"svc.tool{i % 12:02d}" if i % 4 else NO_TOOL,
            provenance=Provenance.USER_DEFINED,
        )
        for i in range(n)
    ]
    return Suite(cases=cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    toolset = ToolSet.model_validate({"tools": TOOLS})
    suite = suite_of(args.cases)
    ideal = math.ceil(args.cases / args.concurrency) * DELAY_S
    started = time.perf_counter()
    rules = load_rules()
    print(f"loading the rules (once per process, not timed below): {time.perf_counter() - started:.2f} s")
    with server_process() as url, tempfile.TemporaryDirectory() as tmp:
        env = {"OPENAI_API_KEY": API_KEY, "OPENAI_BASE_URL": url}
        cache = FileCache(Path(tmp))
        for label in ("cold", "warm"):
            started = time.perf_counter()
            selector = build_live_selector(model=MODEL, concurrency=args.concurrency, cache=cache, env=env)
            built = time.perf_counter() - started
            started = time.perf_counter()
            report = audit(toolset, suite=suite, selector=selector, rules=rules)
            wall = time.perf_counter() - started
            calls = selector.chat.calls
            totals = usage_totals(report.runs)
            passed = sum(r.passed for r in report.runs)
            print(
                f"{label}: {args.cases} cases, concurrency {args.concurrency}: wall {wall:.2f} s "
                f"(ideal {ideal:.2f} s, ratio {wall / ideal:.3f}, limit 1.25); calls made {calls}; "
                f"model_calls {totals['model_calls']}, cached {totals['cached_calls']}; passed {passed}/{args.cases}; "
                f"building the selector (SDK imports included) took {built:.2f} s before that"
            )


if __name__ == "__main__":
    main()
