"""The targeted live plan on the 14 real before/after pairs: what it saves, and what it misses.

Run by hand from the repository root:
`PYTHONPATH=. python bench/bench_live_plan.py [--pairs SUBSTRING] [--edits | --no-edits] [--no-pairs]`.

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

Held-out edits (`--edits`, on unless `--pairs` filters; `--no-pairs` runs them alone). The plan's DISTINCT_SHARE
was set after looking at the 14 pairs, so their recall is a development figure. The edits are synthetic
before/after pairs made from three real servers of ../shared/corpora/servers (EDIT_SERVERS: github-mcp-server,
117 tools; playwright-mcp, 29; google-calendar-mcp, 13): base = the server as listed, head = the same with one
tool's description edited. A fixed-seed sample (EDIT_SEED) of tools with a description per server; each sampled
tool gets each kind of edit, one at a time, built from the server's own texts by the same code for every tool:

  swap     the description replaced by a sibling's: the tool whose name shares the most words with this one
           (Jaccard of the name words breaking ties, then the seed), a random other tool when none shares one;
  verb     the description's first word, when verb-like (a capitalised word, not an article, pronoun,
           preposition or the like, followed by a space), replaced by the verb-like first word of another
           tool's description that differs from it (drawn at random);
  example  `Example: "<3-5 consecutive content words of a random other tool's description>".` appended: the
           quoted-value case the plan's "changed words" rule is about;
  drop     the description emptied ("").

Each edit runs through audit_pair with both fakes and both scopes exactly as a pair does; the tables give, per
kind and overall, the edits whose full run flips anything, flips and recall, gate agreement on those edits,
and the mean selection calls per edit. Every missed flip is listed as for the pairs.
"""

from __future__ import annotations

import argparse
import json
import random
import re
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
from app.audit.text import STOPWORDS, split_identifier  # noqa: E402
from app.commands.estimate import estimate_json  # noqa: E402
from app.commands.options import CommonOptions  # noqa: E402
from app.selector_factory import plan_ranker  # noqa: E402
from app.semantic.similarity import MiniLMSimilarity, shared_similarity  # noqa: E402

PAIRS = ROOT.parent / "shared" / "corpora" / "pairs"
SERVERS = ROOT.parent / "shared" / "corpora" / "servers"
# Held-out edits: server file stem -> tools sampled from it (each gets every kind of edit that applies).
EDIT_SERVERS = (
    ("github__github-mcp-server__github", 3),
    ("microsoft__playwright-mcp__playwright", 5),
    ("nspady__google-calendar-mcp__google-calendar", 6),
)
EDIT_SEED = 20261205
EDIT_KINDS = ("swap", "verb", "example", "drop")
# Lead words that are not verbs: articles, determiners, pronouns, prepositions, conjunctions.
NOT_VERBS = frozenset(
    """a an the this that these those it its all each every any some no one both either neither for in on at by
    with from to of into about as if when where while whether which what who how why here there you your we our
    they their he she his her my i note only also""".split()
)
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


def run_fakes(
    base: ToolSet, head: ToolSet, *, ranker: Ranker | None, rules: RuleSet, similarity: MiniLMSimilarity
) -> dict[str, FakeResult]:
    """Both fakes through both scopes on one before/after: what a pair and an edit each run."""
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
    return fakes


def measure(name: str, *, ranker: Ranker | None, rules: RuleSet, similarity: MiniLMSimilarity) -> PairResult:
    started = time.perf_counter()
    base, head = load(PAIRS / f"{name}__base.json"), load(PAIRS / f"{name}__head.json")
    est = estimate(base, head)
    fakes = run_fakes(base, head, ranker=ranker, rules=rules, similarity=similarity)
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


# --- Held-out edits ---------------------------------------------------------------------------------------------

_LEAD = re.compile(r"([A-Z][a-z]+) ")
_CONTENT = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]")


@dataclass
class Edit:
    server: str
    tool: str
    kind: str
    detail: str  # what the edit did, in a few words
    tools: list[dict[str, Any]]  # the head's tools

    @property
    def label(self) -> str:
        return f"{self.server.split('__')[-1]} {self.tool} {self.kind}"


@dataclass
class EditResult:
    edit: Edit
    fakes: dict[str, FakeResult]
    seconds: float


def _description(tool: dict[str, Any]) -> str:
    value = tool.get("description")
    return value if isinstance(value, str) else ""


def verb_lead(description: str) -> str | None:
    """The description's first word when it is verb-like: capitalised, followed by a space, not a function word."""
    m = _LEAD.match(description)
    return m.group(1) if m and m.group(1).lower() not in NOT_VERBS else None


def content_words(description: str) -> list[str]:
    """The description's words that carry content (no stopwords, three letters or more), first occurrences only."""
    seen: set[str] = set()
    out = []
    for w in _CONTENT.findall(description):
        if len(w) >= 3 and w.lower() not in STOPWORDS and w.lower() not in seen:
            seen.add(w.lower())
            out.append(w)
    return out


def _sibling(tool: dict[str, Any], others: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The other tool whose name shares the most words with this one's (then the higher Jaccard, then the seed);
    a random one when no name shares a word."""
    mine = set(split_identifier(str(tool["name"])))

    def key(other: dict[str, Any]) -> tuple[int, float]:
        theirs = set(split_identifier(str(other["name"])))
        return len(mine & theirs), len(mine & theirs) / len(mine | theirs)

    best = max(key(o) for o in others)
    if best[0] == 0:
        return rng.choice(others)
    return rng.choice([o for o in others if key(o) == best])


def edit_tool(
    tools: list[dict[str, Any]], index: int, kind: str, rng: random.Random
) -> tuple[str, str] | tuple[None, str]:
    """The new description of tools[index] for one kind of edit and what it did; (None, why) when it does not apply."""
    tool = tools[index]
    text = _description(tool)
    others = [t for i, t in enumerate(tools) if i != index and _description(t).strip()]
    if kind == "swap":
        candidates = [t for t in others if _description(t) != text]
        if not candidates:
            return None, "no other tool has a different description"
        sibling = _sibling(tool, candidates, rng)
        return _description(sibling), f"description of {sibling['name']}"
    if kind == "verb":
        lead = verb_lead(text)
        if lead is None:
            return None, f"first word {text.split(' ', 1)[0]!r} is not verb-like"
        leads = sorted({v for t in others if (v := verb_lead(_description(t))) and v.lower() != lead.lower()})
        if not leads:
            return None, "no other tool's description starts with a different verb-like word"
        new = rng.choice(leads)
        return new + text[len(lead) :], f"{lead} -> {new}"
    if kind == "example":
        sources = [t for t in others if len(content_words(_description(t))) >= 3]
        if not sources:
            return None, "no other tool's description has three content words"
        source = rng.choice(sources)
        found = content_words(_description(source))
        n = min(rng.randint(3, 5), len(found))
        start = rng.randrange(len(found) - n + 1)
        sentence = f'Example: "{" ".join(found[start : start + n])}".'
        body = text.rstrip()
        sep = "" if not body else " " if body.endswith((".", "!", "?")) else ". "
        return body + sep + sentence, f"{sentence} (words of {source['name']})"
    if kind == "drop":
        return "", "description emptied"
    raise ValueError(kind)


def make_edits(server: str, data: dict[str, Any], count: int, rng: random.Random) -> tuple[list[Edit], list[str]]:
    """One edit per sampled tool and kind (the head's tools each time), and the edits that did not apply."""
    tools = data["tools"]
    described = [i for i, t in enumerate(tools) if _description(t).strip()]
    edits, skipped = [], []
    for index in sorted(rng.sample(described, min(count, len(described)))):
        for kind in EDIT_KINDS:
            new, detail = edit_tool(tools, index, kind, rng)
            name = str(tools[index]["name"])
            if new is None:
                skipped.append(f"{server.split('__')[-1]} {name} {kind}: {detail}")
                continue
            head = [dict(t, description=new) if i == index else t for i, t in enumerate(tools)]
            edits.append(Edit(server=server, tool=name, kind=kind, detail=detail, tools=head))
    return edits, skipped


def measure_edit(
    edit: Edit, data: dict[str, Any], *, ranker: Ranker | None, rules: RuleSet, similarity: MiniLMSimilarity
) -> EditResult:
    started = time.perf_counter()
    # Both sides written the same way, so that only the edited tool differs (its lines too).
    base = load_definitions(f"{edit.server}.json", text=json.dumps(data, indent=2, ensure_ascii=False))
    head_data = dict(data, tools=edit.tools)
    head = load_definitions(f"{edit.server}.json", text=json.dumps(head_data, indent=2, ensure_ascii=False))
    if touched_tools(base, head) != {edit.tool}:
        raise SystemExit(f"{edit.label}: the edit touches {sorted(touched_tools(base, head))}")
    fakes = run_fakes(base, head, ranker=ranker, rules=rules, similarity=similarity)
    return EditResult(edit=edit, fakes=fakes, seconds=time.perf_counter() - started)


EDIT_HEADERS = [
    "edits",
    "n",
    "A edits that flip",
    "A flips full/tgt/both",
    "A recall",
    "A gate same: fail-on-regression; default",
    "A mean calls full/tgt",
    "B edits that flip",
    "B flips full/tgt/both",
    "B recall",
    "B gate same: fail-on-regression; default",
    "B mean calls full/tgt",
]


def edit_row(title: str, results: list[EditResult]) -> list[str]:
    cells = [title, str(len(results))]
    for label in ("A", "B"):
        fs = [r.fakes[label] for r in results]
        flipping = [f for f in fs if f.full.flips]
        full = sum(len(f.full.flips) for f in fs)
        tgt = sum(len(f.targeted.flips) for f in fs)
        both = sum(len(f.full.flips & f.targeted.flips) for f in fs)
        agree = [sum(f.gates_agree()[i] for f in flipping) for i in (0, 1)]
        n = max(1, len(fs))
        cells += [
            str(len(flipping)),
            f"{full} / {tgt} / {both}",
            pct(both / full if full else None),
            f"{agree[0]}/{len(flipping)}; {agree[1]}/{len(flipping)}",
            f"{sum(f.full.calls for f in fs) / n:,.0f} / {sum(f.targeted.calls for f in fs) / n:,.0f}",
        ]
    return cells


def edit_line(r: EditResult) -> str:
    cells = [r.edit.label, r.edit.detail]
    for label in ("A", "B"):
        cells += [f"fake {label}", *fake_cells(r.fakes[label])]
    return plain(cells) + f"  ({r.seconds:.1f} s)"


def edit_markdown(rows: list[list[str]]) -> str:
    align = ["---", "---:", *(["---:", "---:", "---:", "---", "---:"] * 2)]
    lines = ["| " + " | ".join(EDIT_HEADERS) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def run_edits(*, ranker: Ranker | None, rules: RuleSet, similarity: MiniLMSimilarity) -> None:
    started = time.perf_counter()
    rng = random.Random(EDIT_SEED)
    results: list[EditResult] = []
    missed_lines: list[str] = []
    print(f"held-out edits (seed {EDIT_SEED}): " + ", ".join(f"{s} ({n} tools)" for s, n in EDIT_SERVERS))
    for server, count in EDIT_SERVERS:
        data = json.loads((SERVERS / f"{server}.json").read_text(encoding="utf-8"))
        edits, skipped = make_edits(server, data, count, rng)
        print(f"{server}: {len(data['tools'])} tools, {len(edits)} edits")
        for line in skipped:
            print(f"  not applicable: {line}")
        for edit in edits:
            result = measure_edit(edit, data, ranker=ranker, rules=rules, similarity=similarity)
            results.append(result)
            print(edit_line(result), flush=True)
            for label, f in result.fakes.items():
                if f.missed:
                    head = f"  {edit.label}, fake {label}: {len(f.full.flips - f.targeted.flips)} flip(s) missed"
                    print(head)
                    print("\n".join(f.missed))
                    missed_lines += [head, *f.missed]
    rows = [edit_row(kind, [r for r in results if r.edit.kind == kind]) for kind in EDIT_KINDS]
    rows += [
        edit_row(server.split("__")[-1], [r for r in results if r.edit.server == server]) for server, _ in EDIT_SERVERS
    ]
    rows.append(edit_row("**all edits**", results))
    print()
    print(plain(EDIT_HEADERS))
    for r in rows:
        print(plain(r))
    for label in ("A", "B"):
        fs = [r.fakes[label] for r in results]
        full = sum(len(f.full.flips) for f in fs)
        both = sum(len(f.full.flips & f.targeted.flips) for f in fs)
        quiet = [
            r.edit.label for r in results if not r.fakes[label].full.flips and not all(r.fakes[label].gates_agree())
        ]
        print(
            f"held-out, fake {label}: flip recall {pct(both / full if full else None)} ({both}/{full}) over "
            f"{sum(1 for f in fs if f.full.flips)} of {len(fs)} edits that flip; gate verdicts differ on "
            f"{sum(1 for f in fs if f.full.flips and not all(f.gates_agree()))} flipping edits and on "
            f"{len(quiet)} edits without flips{': ' + ', '.join(quiet) if quiet else ''}"
        )
    print("missed flips:" if missed_lines else "missed flips: none")
    if missed_lines:
        print("\n".join(missed_lines))
    print(f"edits wall time: {time.perf_counter() - started:.1f} s")
    print()
    print(edit_markdown(rows))


def run_pairs(names: list[str], *, ranker: Ranker | None, rules: RuleSet, similarity: MiniLMSimilarity) -> None:
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
    print()
    print(markdown([*rows, total]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", default="", help="only the pairs whose name contains this")
    parser.add_argument(
        "--edits",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the held-out edits too (default: on when --pairs is not given)",
    )
    parser.add_argument("--no-pairs", action="store_true", help="run only the held-out edits")
    args = parser.parse_args()
    edits = args.no_pairs or (args.edits if args.edits is not None else not args.pairs)
    names: list[str] = []
    if not args.no_pairs:
        names = sorted(p.name.removesuffix("__base.json") for p in PAIRS.glob("*__base.json") if args.pairs in p.name)
        if not names:
            raise SystemExit(f"no pair in {PAIRS} matches {args.pairs!r}")
    started = time.perf_counter()
    rules = load_rules()
    ranker = plan_ranker(Mode.LIVE_MODEL)
    similarity = shared_similarity()
    print(f"setup (rules, synthetic ranker, embedding): {time.perf_counter() - started:.1f} s")
    if names:
        run_pairs(names, ranker=ranker, rules=rules, similarity=similarity)
    if edits:
        if names:
            print()
        run_edits(ranker=ranker, rules=rules, similarity=similarity)
    print(f"wall time: {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
