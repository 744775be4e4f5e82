"""The targeted live plan on the 14 real before/after pairs: what it saves, and what it misses.

Run by hand from the repository root: `PYTHONPATH=. python bench/bench_live_plan.py [--pairs SUBSTRING]`.

Per pair of ../shared/corpora/pairs (`<name>__base.json` / `<name>__head.json`):

- the full plan (`--scope all`) and the targeted plan (the default) in calls and approximate prompt tokens,
  exactly as `toolchoice diff BASE HEAD --mode live_model --model m --estimate` prints them (`all_scope` and
  the top-level figures; intents 5, repeats 0), and their ratio targeted / full;
- flip recall and gate agreement of the targeted plan against the full scope, with two deterministic fake
  "models" that read the tool descriptions and run in-process (no network). They say `live_model` in their
  info, so `app.audit.engine.audit_pair` plans for them exactly as for a live review, ranking with the synthetic
  selector (`app.selector_factory.plan_ranker`):
  A. the BM25 floor of app/audit/bm25_floor.py (name, description and parameter names; NO_TOOL under ln 100),
     its idf and average length taken over the distinct tools of both sides of the pair;
  B. the sentence-embedding cosine of the request with each offered tool's text (`tool_text`: name as words,
     title, description), calling the best tool, NO_TOOL when the best cosine is under 0.2.
  A flip is a scored case whose pass/fail differs between base and head (the comparison's regressions and
  improvements). Recall = |flips of full ∩ flips of targeted| / |flips of full|, n/a when the full run flips
  nothing. Gate: `evaluate_gate(comparison, fail_on_regression=True)` and the default gate (no thresholds),
  full against targeted. Calls are the selection requests each fake was sent (the plan's probe call is not
  made by a fake).

Neither fake has a case generator, so the full scope runs the template suite here, the same suite as the
targeted scope (a real full-scope review has the model write its cases: the estimate's `all_scope` counts
those calls, the fakes' full runs do not make them). Targets: calls and tokens <= 5% of the full plan
overall; 3778a414 <= 80 calls and <= 3 M prompt tokens; flip recall >= 95%; the same gate verdict on every
pair where the full run flips anything. A missed flip is listed with its status and reason in the plan.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.audit.bm25_floor import Bm25Floor  # noqa: E402
from app.audit.engine import audit_pair  # noqa: E402
from app.audit.gate import evaluate_gate  # noqa: E402
from app.audit.live_plan import PROBE_CALLS, PlanOptions, Ranker, Scope, touched_tools  # noqa: E402
from app.audit.live_runs import plan_for  # noqa: E402
from app.audit.loader import load_definitions  # noqa: E402
from app.audit.models import NO_TOOL, Mode, ToolSet  # noqa: E402
from app.audit.results import Comparison, Selection, SelectorInfo  # noqa: E402
from app.audit.rules.ruleset import RuleSet, load_rules  # noqa: E402
from app.audit.selection import SelectionRequest  # noqa: E402
from app.audit.suite.build import build_suite  # noqa: E402
from app.audit.synthetic.semantic import tool_text  # noqa: E402
from app.commands.estimate import estimate_json  # noqa: E402
from app.commands.options import CommonOptions  # noqa: E402
from app.selector_factory import plan_ranker  # noqa: E402
from app.semantic.similarity import MiniLMSimilarity, shared_similarity  # noqa: E402

PAIRS = ROOT.parent / "shared" / "corpora" / "pairs"
INTENTS = 5
COSINE_FLOOR = 0.2  # fake B abstains when the best cosine is below this
TARGET_SHARE = 0.05
TARGET_PAIR, TARGET_PAIR_CALLS, TARGET_PAIR_TOKENS = "3778a414", 80, 3_000_000
TARGET_RECALL = 0.95


class CountingFake:
    """A fake live_model selector: counts the requests it is sent; subclasses answer them."""

    name = "fake"

    def __init__(self) -> None:
        self.calls = 0

    @property
    def info(self) -> SelectorInfo:
        return SelectorInfo(mode=Mode.LIVE_MODEL, name=self.name, profile_hash="bench", settings=self.settings())

    def settings(self) -> dict[str, Any]:
        return {}

    def select_many(self, requests: Sequence[SelectionRequest]) -> list[Selection]:
        self.calls += len(requests)
        return self.answer(requests)

    def answer(self, requests: Sequence[SelectionRequest]) -> list[Selection]:
        raise NotImplementedError


class Bm25Fake(CountingFake):
    """Fake A: the BM25 floor, its corpus statistics over the distinct tools of both sides."""

    name = "fake-bm25"

    def __init__(self, base: ToolSet, head: ToolSet) -> None:
        super().__init__()
        self.floor = Bm25Floor([base.to_mcp(), head.to_mcp()])

    def settings(self) -> dict[str, Any]:
        return dict(self.floor.info.settings)

    def answer(self, requests: Sequence[SelectionRequest]) -> list[Selection]:
        return self.floor.select_many(requests)


class CosineFake(CountingFake):
    """Fake B: the best cosine of the request with the tools' texts; NO_TOOL below COSINE_FLOOR."""

    name = "fake-cosine"

    def __init__(self, similarity: MiniLMSimilarity) -> None:
        super().__init__()
        self.similarity = similarity

    def settings(self) -> dict[str, Any]:
        return {"floor": COSINE_FLOOR, "model": self.similarity.model}

    def answer(self, requests: Sequence[SelectionRequest]) -> list[Selection]:
        # One texts list per tool list (by identity, as requests share them): the similarity stacks its vectors once.
        texts: dict[int, tuple[list[dict[str, Any]], list[str]]] = {}
        for req in requests:
            if id(req.tools) not in texts:
                texts[id(req.tools)] = (req.tools, [tool_text(t) for t in req.tools])
        self.similarity.prepare([*{t for _, ts in texts.values() for t in ts}, *{r.intent for r in requests}])
        out = []
        for req in requests:
            if not req.tools:
                out.append(Selection(tool=NO_TOOL, reason="no tools offered"))
                continue
            cosines = self.similarity.similarities(req.intent, texts[id(req.tools)][1])
            best = max(range(len(cosines)), key=lambda i: (cosines[i], -i))
            name = str(req.tools[best].get("name") or "")
            if cosines[best] < COSINE_FLOOR:
                out.append(Selection(tool=NO_TOOL, reason=f"best {name} cosine {cosines[best]:.3f}"))
            else:
                out.append(Selection(tool=name, confidence=cosines[best], reason=f"cosine {cosines[best]:.3f}"))
        return out


@dataclass
class ScopeRun:
    flips: set[str]
    calls: int
    gate_regression: str
    gate_default: str
    comparison: Comparison


@dataclass
class FakeResult:
    full: ScopeRun
    targeted: ScopeRun
    missed: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float | None:
        if not self.full.flips:
            return None
        return len(self.full.flips & self.targeted.flips) / len(self.full.flips)

    def gates_agree(self) -> tuple[bool, bool]:
        return (
            self.full.gate_regression == self.targeted.gate_regression,
            self.full.gate_default == self.targeted.gate_default,
        )


@dataclass
class PairResult:
    name: str
    tools: tuple[int, int]
    full_calls: int
    full_tokens: int
    targeted_calls: int
    targeted_tokens: int
    fakes: dict[str, FakeResult]
    seconds: float


def load(path: Path) -> ToolSet:
    return load_definitions(path.name, text=path.read_text(encoding="utf-8"))


def estimate(base: ToolSet, head: ToolSet) -> dict[str, Any]:
    """What `toolchoice diff BASE HEAD --mode live_model --model m --estimate` prints, as a dict."""
    settings = CommonOptions(mode=Mode.LIVE_MODEL, model="m", estimate=True).settings()
    return json.loads(estimate_json(settings, [base, head], intents=INTENTS, repeats=0))


def run_scope(
    base: ToolSet, head: ToolSet, fake: CountingFake, scope: Scope, *, ranker: Ranker | None, rules: RuleSet
) -> ScopeRun:
    fake.calls = 0
    comparison = audit_pair(
        base, head, selector=fake, plan=PlanOptions(scope=scope), ranker=ranker, rules=rules, intents_per_tool=INTENTS
    )
    flips = {d.case_id for d in [*comparison.regressions, *comparison.improvements]}
    return ScopeRun(
        flips=flips,
        calls=fake.calls,
        gate_regression=evaluate_gate(comparison, fail_on_regression=True).conclusion.value,
        gate_default=evaluate_gate(comparison).conclusion.value,
        comparison=comparison,
    )


def explain_missed(
    base: ToolSet, head: ToolSet, result: FakeResult, fake: CountingFake, ranker: Ranker | None
) -> list[str]:
    """One line per flip of the full run that the targeted run missed: the case, its answers, its plan status."""
    missed = sorted(result.full.flips - result.targeted.flips)
    if not missed:
        return []
    suite = build_suite([base, head], intents_per_tool=INTENTS)
    plan = plan_for(suite, base, head, selector=fake, options=PlanOptions(), ranker=ranker)
    status = {c.case_id: c for c in plan.cases}
    cases = {c.id: c for c in suite.cases}
    deltas = {d.case_id: d for d in [*result.full.comparison.regressions, *result.full.comparison.improvements]}
    summary = result.targeted.comparison.head.totals.get("live_plan", {})
    lines = [f"    targeted plan: {json.dumps({k: v for k, v in summary.items() if k != 'sampled_cases'})}"]
    touched = sorted(touched_tools(base, head))
    lines.append(f"    touched tools: {', '.join(touched)}")
    for cid in missed:
        d, planned, case = deltas[cid], status.get(cid), cases.get(cid)
        where = f"{planned.status.value}: {planned.reason}" if planned else "not in the rebuilt plan"
        removed = f" (without {', '.join(case.removed_tools)})" if case and case.removed_tools else ""
        lines.append(
            f"    {d.kind} {cid}: {d.intent!r} expects {d.expected}{removed}; full run {d.before_selected} -> "
            f"{d.after_selected}; plan: {where}"
        )
    return lines


def measure(name: str, *, ranker: Ranker | None, rules: RuleSet, similarity: MiniLMSimilarity) -> PairResult:
    started = time.perf_counter()
    base, head = load(PAIRS / f"{name}__base.json"), load(PAIRS / f"{name}__head.json")
    est = estimate(base, head)
    fakes: dict[str, FakeResult] = {}
    for label, fake in (("A", Bm25Fake(base, head)), ("B", CosineFake(similarity))):
        full = run_scope(base, head, fake, Scope.ALL, ranker=ranker, rules=rules)
        targeted = run_scope(base, head, fake, Scope.TARGETED, ranker=ranker, rules=rules)
        result = FakeResult(full=full, targeted=targeted)
        planned = targeted.comparison.head.totals.get("live_plan", {}).get("planned_calls")
        if planned is not None and targeted.calls != planned - PROBE_CALLS:
            print(f"  note: fake {label} made {targeted.calls} calls, the plan counts {planned} with the probe")
        result.missed = explain_missed(base, head, result, fake, ranker)
        fakes[label] = result
    return PairResult(
        name=name,
        tools=(len(base.tools), len(head.tools)),
        full_calls=est["all_scope"]["calls"],
        full_tokens=est["all_scope"]["approx_prompt_tokens"],
        targeted_calls=est["calls"],
        targeted_tokens=est["approx_prompt_tokens"],
        fakes=fakes,
        seconds=time.perf_counter() - started,
    )


def short(name: str) -> str:
    """`github__github-mcp-server__github__3778a414` -> `github 3778a414`."""
    parts = name.split("__")
    return f"{parts[-2]} {parts[-1]}" if len(parts) >= 2 else name


def pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def fake_cells(f: FakeResult) -> list[str]:
    both = f.full.flips & f.targeted.flips
    flips = f"{len(f.full.flips)} / {len(f.targeted.flips)} / {len(both)}"
    full, tgt = f.full, f.targeted
    gate = "; ".join(
        a if a == b else f"{a} ≠ {b}"
        for a, b in ((full.gate_regression, tgt.gate_regression), (full.gate_default, tgt.gate_default))
    )
    return [flips, pct(f.recall), gate, f"{f.full.calls:,} / {f.targeted.calls:,}"]


HEADERS = [
    "pair",
    "tools",
    "full calls",
    "full prompt tok",
    "targeted calls",
    "targeted prompt tok",
    "calls %",
    "tokens %",
    "A flips full/tgt/both",
    "A recall",
    "A gate: fail-on-regression; default",
    "A calls full/tgt",
    "B flips full/tgt/both",
    "B recall",
    "B gate: fail-on-regression; default",
    "B calls full/tgt",
]


def row(r: PairResult) -> list[str]:
    return [
        short(r.name),
        f"{r.tools[0]}/{r.tools[1]}",
        f"{r.full_calls:,}",
        f"{r.full_tokens:,}",
        f"{r.targeted_calls:,}",
        f"{r.targeted_tokens:,}",
        pct(r.targeted_calls / r.full_calls),
        pct(r.targeted_tokens / r.full_tokens),
        *fake_cells(r.fakes["A"]),
        *fake_cells(r.fakes["B"]),
    ]


def total_row(results: list[PairResult]) -> list[str]:
    full_c, full_t = sum(r.full_calls for r in results), sum(r.full_tokens for r in results)
    tgt_c, tgt_t = sum(r.targeted_calls for r in results), sum(r.targeted_tokens for r in results)
    cells = ["**total**", "", f"{full_c:,}", f"{full_t:,}", f"{tgt_c:,}", f"{tgt_t:,}"]
    cells += [pct(tgt_c / full_c), pct(tgt_t / full_t)]
    for label in ("A", "B"):
        fs = [r.fakes[label] for r in results]
        full = sum(len(f.full.flips) for f in fs)
        tgt = sum(len(f.targeted.flips) for f in fs)
        both = sum(len(f.full.flips & f.targeted.flips) for f in fs)
        flipping = [f for f in fs if f.full.flips]
        agree = [sum(f.gates_agree()[i] for f in flipping) for i in (0, 1)]
        gate = f"same on {agree[0]}/{len(flipping)}; {agree[1]}/{len(flipping)} pairs that flip"
        calls = f"{sum(f.full.calls for f in fs):,} / {sum(f.targeted.calls for f in fs):,}"
        cells += [f"{full} / {tgt} / {both}", pct(both / full if full else None), gate, calls]
    return cells


def plain(cells: list[str]) -> str:
    return " | ".join(cells)


def markdown(rows: list[list[str]]) -> str:
    align = ["---", "---:", *["---:"] * 6, *(["---:", "---:", "---", "---:"] * 2)]
    lines = ["| " + " | ".join(HEADERS) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", default="", help="only the pairs whose name contains this")
    args = parser.parse_args()
    names = sorted(p.name.removesuffix("__base.json") for p in PAIRS.glob("*__base.json") if args.pairs in p.name)
    if not names:
        raise SystemExit(f"no pair in {PAIRS} matches {args.pairs!r}")
    started = time.perf_counter()
    rules = load_rules()
    ranker = plan_ranker(Mode.LIVE_MODEL)
    similarity = shared_similarity()
    print(f"setup (rules, synthetic ranker, embedding): {time.perf_counter() - started:.1f} s")
    print(plain(HEADERS))
    results: list[PairResult] = []
    for name in names:
        result = measure(name, ranker=ranker, rules=rules, similarity=similarity)
        results.append(result)
        print(plain(row(result)) + f"  ({result.seconds:.1f} s)", flush=True)
        for label, f in result.fakes.items():
            if f.missed:
                print(f"  fake {label}: {len(f.full.flips - f.targeted.flips)} flip(s) of the full run missed")
                print("\n".join(f.missed))
    rows = [row(r) for r in results]
    total = total_row(results)
    print(plain(total))
    target = [r for r in results if TARGET_PAIR in r.name]
    for r in target:
        calls_ok = "met" if r.targeted_calls <= TARGET_PAIR_CALLS else "MISSED"
        tokens_ok = "met" if r.targeted_tokens <= TARGET_PAIR_TOKENS else "MISSED"
        print(
            f"{short(r.name)}: {r.targeted_calls} calls (target <= {TARGET_PAIR_CALLS}: {calls_ok}), "
            f"{r.targeted_tokens:,} prompt tokens (target <= {TARGET_PAIR_TOKENS:,}: {tokens_ok})"
        )
    full_t, tgt_t = sum(r.full_tokens for r in results), sum(r.targeted_tokens for r in results)
    full_c, tgt_c = sum(r.full_calls for r in results), sum(r.targeted_calls for r in results)
    share_ok = tgt_c <= TARGET_SHARE * full_c and tgt_t <= TARGET_SHARE * full_t
    print(
        f"overall targeted/full: calls {pct(tgt_c / full_c)}, prompt tokens {pct(tgt_t / full_t)} "
        f"(target <= {pct(TARGET_SHARE)}: {'met' if share_ok else 'MISSED'})"
    )
    for label in ("A", "B"):
        fs = [r.fakes[label] for r in results]
        full = sum(len(f.full.flips) for f in fs)
        both = sum(len(f.full.flips & f.targeted.flips) for f in fs)
        recall = both / full if full else None
        flipping = [f for f in fs if f.full.flips]
        same = all(all(f.gates_agree()) for f in flipping)
        per_pair = [f.recall for f in flipping]
        low = sum(1 for x in per_pair if x is not None and x < TARGET_RECALL)
        print(
            f"fake {label}: flip recall {pct(recall)} overall ({both}/{full}), {low} of {len(flipping)} flipping pairs "
            f"under {pct(TARGET_RECALL)}; gate verdicts {'the same' if same else 'DIFFER'} on every flipping pair"
        )
    asked_full = sum(f.full.calls for r in results for f in r.fakes.values())
    asked_tgt = sum(f.targeted.calls for r in results for f in r.fakes.values())
    print(
        "selection requests the fakes were sent, targeted/full (no case writing in either): "
        f"{pct(asked_tgt / asked_full)}"
    )
    print(f"wall time: {time.perf_counter() - started:.1f} s")
    print()
    print(markdown([*rows, total]))


if __name__ == "__main__":
    main()
