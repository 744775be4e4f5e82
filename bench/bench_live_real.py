"""live_model on a real server: llama.cpp's, serving SmolLM2-135M-Instruct on loopback (docs/live-model.md).

Run by hand from the repository root after `bash .ci/live-server.sh`:
`PYTHONPATH=. python bench/bench_live_real.py [--sample 200] [--speed-cases 20]`.
Prints, on the same sample of labeled dev cases (`eval-selector --sample`), the tiny model's accuracy beside
the synthetic selector's and how its answers failed; then cases per second at concurrency 1, 2 and 4, each
over the first `--speed-cases` of the sample with a fresh cache. `--max-tokens` caps every answer
(TOOLCHOICE_MAX_TOKENS); the tools go in the system message (the model's template drops them).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.audit.evaluation import LabeledCase, evaluate_cases, load_all, run_cases  # noqa: E402
from app.commands.eval_selector import sample  # noqa: E402
from app.egress.policy import ENV_ALLOW_HOSTS  # noqa: E402
from app.llm.cache import MemoryCache  # noqa: E402
from app.llm.factory import build_live_selector  # noqa: E402
from app.llm.selector import LiveSelector  # noqa: E402
from app.llm.usage import usage_totals  # noqa: E402
from app.selector_factory import synthetic_selector  # noqa: E402
from tests.llm.llama_server import API_KEY, MODEL_ALIAS, installed, running  # noqa: E402

LABELED = ROOT.parent / "shared" / "corpora" / "labeled"


def load() -> str:
    """The machine's load average (1, 5, 15 min): the speed figures mean little without it on a shared machine."""
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def live(url: str, concurrency: int, max_tokens: int) -> LiveSelector:
    env = {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": url,
        "TOOLCHOICE_TOOLS_IN_PROMPT": "1",
        "TOOLCHOICE_MAX_TOKENS": str(max_tokens),
        "TOOLCHOICE_TIMEOUT_S": "600",
    }
    return build_live_selector(model=MODEL_ALIAS, concurrency=concurrency, cache=MemoryCache(), env=env)


def why_wrong(cases: list[LabeledCase], selector: LiveSelector) -> None:
    """Where the model went wrong: the kinds of unusable answers, and the tools it named that do not exist."""
    answers = run_cases(selector, cases)  # from the cache filled by the accuracy run: no new calls
    errors = Counter((a.error or "").split(" (")[0].split(":")[0] for a in answers if a.error)
    unknown = sum(1 for c, a in zip(cases, answers, strict=True) if not a.error and a.tool not in
                  {"NO_TOOL", *(t["name"] for t in c.tools)})  # fmt: skip
    print(f"  unusable answers: {sum(errors.values())} {dict(errors.most_common(4))}")
    print(f"  usable answers naming a tool that is not listed: {unknown}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--speed-cases", type=int, default=12)
    parser.add_argument("--max-tokens", type=int, default=200)
    parser.add_argument("--speed-only", action="store_true", help="skip the accuracy run (and the synthetic one)")
    args = parser.parse_args()
    found = installed()
    if isinstance(found, str):
        sys.exit(found)
    # The server listens on loopback, which ToolChoice refuses unless the operator (here, this script) allows it.
    os.environ[ENV_ALLOW_HOSTS] = "127.0.0.1"
    files = sorted(LABELED.glob("*.dev.json"))
    cases = sample(load_all(files), args.sample)
    if not args.speed_only:
        synthetic = evaluate_cases(synthetic_selector(), cases, files=files).overall
        print(f"{len(cases)} dev cases ({sum(c.expected == 'NO_TOOL' for c in cases)} NO_TOOL) from {len(files)} files")
        print(f"synthetic: accuracy {synthetic.accuracy:.3f} (NO_TOOL {synthetic.no_tool_accuracy:.3f}, "
              f"tool {synthetic.tool_accuracy:.3f})")  # fmt: skip
    print(f"starting the server; {load()}")
    with running(*found, log=Path("/tmp/bench_live_real.server.log")) as url:
        if not args.speed_only:
            selector = live(url, 1, args.max_tokens)
            started = time.perf_counter()
            report = evaluate_cases(selector, cases, files=files)
            wall = time.perf_counter() - started
            m = report.overall
            print(f"  (max_tokens {args.max_tokens}; the accuracy run took {wall:.0f} s)")
            print(f"{MODEL_ALIAS}: accuracy {m.accuracy:.3f} (NO_TOOL {m.no_tool_accuracy:.3f}, "
                  f"tool {m.tool_accuracy:.3f}); "
                  f"false calls {m.false_calls}, false abstentions {m.false_abstentions}, wrong tool {m.wrong_tool}, "
                  f"errors {m.errors}")  # fmt: skip
            why_wrong(cases, selector)
            again = run_cases(selector, cases)
            totals = usage_totals(again)
            latencies = sorted(float((a.usage or {}).get("latency_ms", 0.0)) for a in again)
            print(f"  tokens (cached re-read): prompt {totals['cached_prompt_tokens']:,}, "
                  f"completion {totals['cached_completion_tokens']:,}; models returned {totals['models_returned']}, "
                  f"formats {totals['response_formats']}")  # fmt: skip
            print(f"  latency per call: median {latencies[len(latencies) // 2] / 1000:.1f} s, "
                  f"max {latencies[-1] / 1000:.1f} s; {load()}")  # fmt: skip
        few = cases[: args.speed_cases]
        for concurrency in (1, 2, 4) if few else ():
            before = load()
            started = time.perf_counter()
            run_cases(live(url, concurrency, args.max_tokens), few)
            wall = time.perf_counter() - started
            print(f"  concurrency {concurrency}: {len(few)} cases in {wall:.1f} s = {len(few) / wall:.3f} cases/s "
                  f"({before} before, {load()} after)")  # fmt: skip


if __name__ == "__main__":
    main()
