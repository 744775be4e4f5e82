"""Metamorphic benchmark of the synthetic before/after: edits that keep a tool's meaning should not regress, edits
that change it should.

Run by hand from the repository root:
`PYTHONPATH=. python bench/bench_metamorphic.py [--limit N] [--servers SUBSTRING] [--json OUT] [--jobs 2]
[--live --model NAME [--max-calls N]]`. The default run (144 edits) takes about 13 minutes with 2 jobs on 2 cores.

What it does. The described tools of the real servers in ../shared/corpora/servers/ (21 servers, 464 tools) are put
in one order, shuffled with seed 20261205. Each edit kind walks that order and takes the next tool it applies to
that no other kind has taken yet (the kinds take turns, so the sample is of distinct tools; at most 30% of a kind's
edits come from one server, relaxed only when the servers offer too few tools). One edit changes ONE tool: base = the
server as listed, head = the server with that tool edited (for `typo`, the other way round), and the pair goes
through `app.audit.engine.audit_pair` in-process, as `toolchoice diff BASE HEAD` would (5 intents per tool,
negatives, no config), with one synthetic selector (`app.selector_factory.synthetic_selector()`) and one rule set
built once per process and reused for every pair. Every sentence an edit adds is written here; no edit depends on
which tool it edits.

Meaning-preserving kinds (17 edits each by default), which should give no regression:
  neutral       append "Results are returned as JSON." to the description;
  usage         append "Use this when the user asks for it directly.";
  reorder       the description's sentences in reverse order (tools with one sentence are skipped);
  param_reword  the first described parameter's description: "The " prefixed (a leading "A"/"An" becomes "The"),
                or its leading "The" made "This";
  example       a string parameter's description gets `e.g. "<value>"`, the value from its own schema (enum member,
                default, examples) or else its name's words;
  typo          base has two adjacent letters swapped inside the description's longest word, head fixes it.
Meaning-changing kinds (14 edits each by default), which should be caught:
  swap          the description replaced by the sibling's (the other tool with the most shared name words);
  drop_object   every word of the tool's name but its first removed from the description (whole words, any case);
  verb          the description's first word replaced by the first word of the nearest tool (by shared name words)
                whose description starts with another word.

Measures, per kind and in total:
- preserving kinds: false-alarm rate = share of edits with at least one regression (any case, any provenance);
  the share whose gate fails (`evaluate_gate(comparison, fail_on_regression=True)`: firm regressions only, near ties
  do not fail it); flips (regressions + improvements); regressions that are borderline (`CaseDelta.borderline`);
  untouched flips (the edited tool is neither the case's expected or target tool nor selected before or after);
- changing kinds: sensitivity = share of edits with at least one regression on a case whose expected tool is the
  edited tool (or, for a near-miss NO_TOOL case, whose target_tool is);
- every kind: new finding = share of edits after which the rule engine reports a finding on the edited tool that
  base did not have (the deterministic evidence, counted apart from the selection runs); for changing kinds,
  either = share caught by an own-case regression or by such a finding;
- every kind: own support Δ, the change from base to head of the edited tool's own scored cases' support (the mean
  over them of the answer's confidence when it passes, 0 when it fails): what an edit did to those cases when none
  of them flipped (near 0 for a meaning-preserving edit; for a changing one, how far it got towards a regression).
Then every false alarm (server, tool, kind, intent, expected, before -> after, borderline, how the edited tool is
involved), the changing edits that were missed, and the wall time.

Options: `--limit N` (tools per kind, for a quick run), `--servers SUBSTRING` (only servers whose file name contains
it), `--json OUT` (every per-edit record), `--jobs N` (processes for the synthetic pass, each with its own selector;
the records do not depend on it), `--live` with `--model NAME` and OPENAI_API_KEY set (the same edits again
through `make_selector("live_model", model=...)` with the targeted plan, ranked by the synthetic selector; without
both it says live mode was not configured and runs the synthetic pass only).
"""

from __future__ import annotations

import argparse
import copy
import json
import multiprocessing
import os
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.audit.engine import audit_pair  # noqa: E402
from app.audit.gate import Conclusion, evaluate_gate  # noqa: E402
from app.audit.live_plan import PlanOptions, Ranker  # noqa: E402
from app.audit.loader import load_definitions  # noqa: E402
from app.audit.models import NO_TOOL, Case, Mode, ToolSet  # noqa: E402
from app.audit.results import AuditReport, CaseDelta, Comparison  # noqa: E402
from app.audit.rules.ruleset import RuleSet, load_rules  # noqa: E402
from app.audit.selection import Selector  # noqa: E402
from app.audit.text import STOPWORDS, split_identifier, words  # noqa: E402
from app.selector_factory import LiveRun, make_selector, synthetic_selector  # noqa: E402

SERVERS = ROOT.parent / "shared" / "corpora" / "servers"
SEED = 20261205
PRESERVING = ("neutral", "usage", "reorder", "param_reword", "example", "typo")
CHANGING = ("swap", "drop_object", "verb")
KINDS = (*PRESERVING, *CHANGING)
PER_PRESERVING, PER_CHANGING = 17, 14  # 102 and 42 edits
SERVER_SHARE = 0.3  # at most this share of one kind's edits from one server (when the pool allows)
NEUTRAL_SENTENCE = "Results are returned as JSON."
USAGE_SENTENCE = "Use this when the user asks for it directly."

Raw = dict[str, Any]


# ---------------------------------------------------------------------------------------------------------------
# The edits: each takes a tool as listed (and its server's tools) and returns the edited tool and what changed, or
# None when the kind does not apply to it.


@dataclass(frozen=True)
class Edited:
    tool: Raw  # the edited tool, as listed
    detail: str  # what changed, for the report
    reverse: bool = False  # typo: the edited tool is the base, the listed one the head


def description(tool: Raw) -> str:
    value = tool.get("description")
    return value if isinstance(value, str) else ""


def with_description(tool: Raw, text: str) -> Raw:
    out = copy.deepcopy(tool)
    out["description"] = text
    return out


def append_sentence(text: str, sentence: str) -> str:
    text = text.rstrip()
    if text and text[-1] not in ".!?":
        text += "."
    return f"{text} {sentence}" if text else sentence


def clip(text: str, n: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= n else flat[: n - 1] + "…"


# A sentence ends at . ! or ? followed by white space and a character that is not a lower-case letter, unless the
# word before the full stop is an abbreviation; a blank line also ends one.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[^\sa-z])|\n\s*\n")
_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "approx", "incl", "cf", "eg", "ie", "mr", "ms", "dr", "no"})


def sentences(text: str) -> tuple[list[str], list[str]]:
    """The sentences of `text` and the separators between them (len(separators) == len(sentences) - 1)."""
    parts: list[str] = []
    separators: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        before = text[start : m.start()]
        last = re.search(r"([A-Za-z.]+)\.$", before)
        if last and last.group(1).lower() in _ABBREVIATIONS and "\n\n" not in re.sub(r"[ \t]", "", m.group(0)):
            continue  # "e.g. Foo" goes on; a blank line after "etc." still ends a sentence
        if not before.strip():
            continue
        parts.append(before)
        separators.append(m.group(0))
        start = m.end()
    tail = text[start:]
    if tail.strip():
        parts.append(tail)
    elif separators:
        separators.pop()
    return parts, separators


def name_words(name: str) -> list[str]:
    return split_identifier(name)


def shared_name_words(a: str, b: str) -> int:
    return len(set(name_words(a)) & set(name_words(b)))


def nearest(tool: Raw, candidates: Sequence[Raw]) -> Raw | None:
    """The candidate sharing most name words with `tool`; ties: the first in listing order."""
    name = str(tool.get("name") or "")
    return max(candidates, key=lambda t: shared_name_words(name, str(t.get("name") or "")), default=None)


def edit_neutral(tool: Raw, server: Sequence[Raw]) -> Edited | None:
    return Edited(with_description(tool, append_sentence(description(tool), NEUTRAL_SENTENCE)), "+ " + NEUTRAL_SENTENCE)


def edit_usage(tool: Raw, server: Sequence[Raw]) -> Edited | None:
    return Edited(with_description(tool, append_sentence(description(tool), USAGE_SENTENCE)), "+ " + USAGE_SENTENCE)


def edit_reorder(tool: Raw, server: Sequence[Raw]) -> Edited | None:
    text = description(tool).strip()
    parts, separators = sentences(text)
    if len(parts) < 2:
        return None
    flipped = list(reversed(parts))
    out = ""
    for i, part in enumerate(flipped):
        part = part.strip()
        if i < len(separators):
            sep = separators[i]
            # A sentence that was last may lack its full stop; it needs one once another follows it.
            if part[-1] not in ".!?:" and not sep.startswith("\n"):
                part += "."
            out += part + sep
        else:
            out += part
    if out == text:
        return None
    return Edited(with_description(tool, out), f"{len(parts)} sentences reversed")


def properties(tool: Raw) -> dict[str, Any]:
    schema = tool.get("inputSchema")
    props = schema.get("properties") if isinstance(schema, dict) else None
    return props if isinstance(props, dict) else {}


def edit_param_reword(tool: Raw, server: Sequence[Raw]) -> Edited | None:
    for name, spec in properties(tool).items():
        text = spec.get("description") if isinstance(spec, dict) else None
        if not isinstance(text, str) or not text.strip():
            continue
        the = re.match(r"\s*the\b", text, flags=re.IGNORECASE)
        article = re.match(r"\s*an?\b", text, flags=re.IGNORECASE)
        if the:
            new = "This" + text[the.end() :]
        elif article:
            new = "The" + text[article.end() :]  # "An array of names" -> "The array of names", not "The an array"
        else:
            new = "The " + text.lstrip()  # casing kept: "The Repository owner" (the selector reads no case)
        edited = copy.deepcopy(tool)
        edited["inputSchema"]["properties"][name]["description"] = new
        return Edited(edited, f"{name}: {clip(text, 40)!r} -> {clip(new, 40)!r}")
    return None


def is_string(spec: Any) -> bool:
    if not isinstance(spec, dict):
        return False
    kind = spec.get("type")
    if kind == "string" or (isinstance(kind, list) and "string" in kind):
        return True
    if (
        kind is None
        and isinstance(spec.get("enum"), list)
        and spec["enum"]
        and all(isinstance(v, str) for v in spec["enum"])
    ):
        return True
    return any(is_string(s) for key in ("anyOf", "oneOf") for s in spec.get(key) or [] if isinstance(s, dict))


def example_value(name: str, spec: Raw) -> str:
    """A value from the parameter's own schema (enum member, default, examples), else its name's words."""
    options: list[Any] = []
    for sub in [spec, *(s for key in ("anyOf", "oneOf") for s in spec.get(key) or [] if isinstance(s, dict))]:
        enum = sub.get("enum")
        if isinstance(enum, list):
            options.extend(enum)
        options.append(sub.get("default"))
        examples = sub.get("examples")
        if isinstance(examples, list):
            options.extend(examples)
    for value in options:
        if isinstance(value, str | int | float) and not isinstance(value, bool) and str(value).strip():
            return str(value).replace('"', "'")
    return " ".join(name_words(name)) or name


def edit_example(tool: Raw, server: Sequence[Raw]) -> Edited | None:
    strings = [(n, s) for n, s in properties(tool).items() if is_string(s)]
    if not strings:
        return None
    # The first described string parameter, else the first string parameter.
    described = [(n, s) for n, s in strings if isinstance(s.get("description"), str) and s["description"].strip()]
    name, spec = (described or strings)[0]
    value = example_value(name, spec)
    text = str(spec.get("description") or "").rstrip()
    if not text:
        new = f'e.g. "{value}"'
    elif text.endswith("."):
        new = f'{text[:-1]}, e.g. "{value}".'
    else:
        new = f'{text}, e.g. "{value}"'
    edited = copy.deepcopy(tool)
    edited["inputSchema"]["properties"][name]["description"] = new
    return Edited(edited, f'{name}: + e.g. "{value}"')


def edit_typo(tool: Raw, server: Sequence[Raw]) -> Edited | None:
    text = description(tool)
    found = [m for m in re.finditer(r"[A-Za-z]+", text)]
    if not found:
        return None
    longest = max(found, key=lambda m: len(m.group(0)))  # ties: the first
    word = longest.group(0)
    # Two adjacent letters inside the word (neither the first nor the last letter), different from each other.
    middle = len(word) // 2 - 1
    for i in [middle, *range(1, len(word) - 2)]:
        if i >= 1 and i + 1 <= len(word) - 2 and word[i] != word[i + 1]:
            typo = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
            new = text[: longest.start()] + typo + text[longest.end() :]
            return Edited(with_description(tool, new), f"base {typo!r}, head {word!r}", reverse=True)
    return None


def edit_swap(tool: Raw, server: Sequence[Raw]) -> Edited | None:
    text = description(tool)
    others = [t for t in server if t is not tool and description(t).strip() and description(t) != text]
    sibling = nearest(tool, others)
    if sibling is None:
        return None
    return Edited(with_description(tool, description(sibling)), f"description of {sibling.get('name')}")


def edit_drop_object(tool: Raw, server: Sequence[Raw]) -> Edited | None:
    text = description(tool)
    dropped = [w for w in dict.fromkeys(name_words(str(tool.get("name") or ""))[1:])]
    new = text
    for word in dropped:
        new = re.sub(rf"\b{re.escape(word)}\b", "", new, flags=re.IGNORECASE)
    new = re.sub(r"[ \t]{2,}", " ", new)
    new = re.sub(r"[ \t]+([.,;:!?)])", r"\1", new)
    new = re.sub(r"(?m)^[ \t]+|[ \t]+$", "", new)
    if new == text or not re.search(r"[A-Za-z]", new):
        return None
    return Edited(with_description(tool, new), "removed " + ", ".join(dropped))


_FIRST_WORD = re.compile(r"\W*([A-Za-z]+)")


def first_word(text: str) -> re.Match[str] | None:
    return _FIRST_WORD.match(text)


def edit_verb(tool: Raw, server: Sequence[Raw]) -> Edited | None:
    text = description(tool)
    own = first_word(text)
    if own is None:
        return None
    verb = own.group(1)
    others = []
    for t in server:
        theirs = first_word(description(t))
        if t is not tool and theirs and theirs.group(1).lower() != verb.lower():
            others.append(t)
    other = nearest(tool, others)
    if other is None:
        return None
    found = first_word(description(other))
    assert found is not None
    word = found.group(1)
    word = (word[0].upper() if verb[0].isupper() else word[0].lower()) + word[1:]
    new = text[: own.start(1)] + word + text[own.end(1) :]
    return Edited(with_description(tool, new), f"{verb} -> {word} (from {other.get('name')})")


EDITS: dict[str, Callable[[Raw, Sequence[Raw]], Edited | None]] = {
    "neutral": edit_neutral,
    "usage": edit_usage,
    "reorder": edit_reorder,
    "param_reword": edit_param_reword,
    "example": edit_example,
    "typo": edit_typo,
    "swap": edit_swap,
    "drop_object": edit_drop_object,
    "verb": edit_verb,
}


# ---------------------------------------------------------------------------------------------------------------
# The sample.


@dataclass
class Server:
    stem: str
    path: Path
    text: str
    data: Raw
    listed: ToolSet

    @property
    def tools(self) -> list[Raw]:
        tools = self.data.get("tools")
        return tools if isinstance(tools, list) else []

    def toolset(self, index: int, tool: Raw) -> ToolSet:
        """The server with tool `index` replaced by `tool`."""
        data = copy.deepcopy(self.data)
        data["tools"][index] = tool
        return load_definitions(self.path.name, text=json.dumps(data, indent=2, ensure_ascii=False))


@dataclass(frozen=True)
class Planned:
    kind: str
    server: str
    index: int
    tool: str
    edited: Edited


def short(stem: str) -> str:
    """`github__github-mcp-server__github` -> `github-mcp-server`, `modelcontextprotocol__servers__git` ->
    `servers/git`."""
    parts = stem.split("__")
    if len(parts) < 3:
        return stem
    return f"servers/{parts[2]}" if parts[1] == "servers" else parts[1]


def load_servers(contains: str) -> dict[str, Server]:
    servers: dict[str, Server] = {}
    for path in sorted(SERVERS.glob("*.json")):
        if contains not in path.name:
            continue
        text = path.read_text(encoding="utf-8")
        servers[path.stem] = Server(
            stem=path.stem, path=path, text=text, data=json.loads(text), listed=load_definitions(path.name, text=text)
        )
    return servers


def plan_edits(servers: dict[str, Server], quotas: dict[str, int]) -> list[Planned]:
    """The kinds take turns walking one seeded order of the described tools, each taking the next tool it applies
    to that no kind has taken, at most SERVER_SHARE of its quota from one server. When the order runs out (a few
    servers, or --limit high), a kind walks it again without the cap, then once more taking tools that other kinds
    took (never one tool twice for one kind)."""
    order = [
        (stem, i)
        for stem, server in servers.items()
        for i, tool in enumerate(server.tools)
        if isinstance(tool, dict) and description(tool).strip()
    ]
    random.Random(SEED).shuffle(order)
    caps = {k: max(1, int(SERVER_SHARE * q)) for k, q in quotas.items()}
    taken: set[tuple[str, int]] = set()
    chosen: dict[str, list[Planned]] = {k: [] for k in quotas}
    cursor = dict.fromkeys(quotas, 0)
    stage = dict.fromkeys(quotas, 0)  # 0: capped, distinct tools; 1: distinct tools; 2: any tool

    def next_for(kind: str) -> Planned | None:
        mine = {(p.server, p.index) for p in chosen[kind]}
        while True:
            while cursor[kind] < len(order):
                stem, i = order[cursor[kind]]
                cursor[kind] += 1
                if (stem, i) in mine or (stage[kind] < 2 and (stem, i) in taken):
                    continue
                per_server = sum(1 for p in chosen[kind] if p.server == stem)
                if stage[kind] == 0 and per_server >= caps[kind]:
                    continue
                server = servers[stem]
                tool = server.tools[i]
                edited = EDITS[kind](tool, server.tools)
                if edited is None:
                    continue
                return Planned(kind=kind, server=stem, index=i, tool=str(tool.get("name")), edited=edited)
            if stage[kind] == 2:
                return None
            stage[kind], cursor[kind] = stage[kind] + 1, 0

    open_kinds = [k for k in quotas if quotas[k] > 0]
    while open_kinds:
        for kind in list(open_kinds):
            planned = next_for(kind)
            if planned is None:
                open_kinds.remove(kind)
                continue
            taken.add((planned.server, planned.index))
            chosen[kind].append(planned)
            if len(chosen[kind]) >= quotas[kind]:
                open_kinds.remove(kind)
    return [p for k in quotas for p in chosen[k]]


# ---------------------------------------------------------------------------------------------------------------
# Running and measuring.


@dataclass
class Flip:
    kind: str  # regression | improvement
    case_id: str
    intent: str
    expected: str
    target_tool: str | None
    before: str | None
    after: str | None
    borderline: bool
    involvement: str  # own (expected or target), rival (selected before or after), untouched
    edit_words: list[str]  # the request's words that only one side's version of the edited tool has
    family: str
    phrasing: str | None
    provenance: str


@dataclass
class Record:
    mode: str
    kind: str
    effect: str  # preserving | changing
    server: str
    tool: str
    detail: str
    seconds: float
    scored_cases: int
    own_scored_cases: int
    # Support of the edited tool's own scored cases on base and head: the mean over them of the answer's confidence
    # when it passes, 0 when it fails (a drop says the edit weakened them even when none flipped).
    own_support: tuple[float, float] | None
    gate: str
    gate_reasons: list[str]
    flips: list[Flip] = field(default_factory=list)
    # Rule ids of the deterministic findings the edit introduced on the edited tool (the other kind of evidence).
    new_findings: list[str] = field(default_factory=list)

    @property
    def regressions(self) -> list[Flip]:
        return [f for f in self.flips if f.kind == "regression"]

    @property
    def alarm(self) -> bool:
        return bool(self.regressions)

    @property
    def gate_failed(self) -> bool:
        return self.gate == Conclusion.FAILURE.value

    @property
    def caught(self) -> bool:
        return any(f.involvement == "own" for f in self.regressions)

    @property
    def found(self) -> bool:
        return bool(self.new_findings)


def involvement(delta: CaseDelta, case: Case | None, tool: str) -> str:
    if delta.expected == tool or (case is not None and delta.expected == NO_TOOL and case.target_tool == tool):
        return "own"
    if tool in (delta.before_selected, delta.after_selected):
        return "rival"
    return "untouched"


def owns(case: Case, tool: str) -> bool:
    return case.expected == tool or (case.expected == NO_TOOL and case.target_tool == tool)


def run_edit(
    planned: Planned,
    server: Server,
    *,
    selector: Selector,
    rules: RuleSet,
    mode: str,
    plan: PlanOptions | None,
    ranker: Ranker | None,
) -> Record:
    started = time.perf_counter()
    edited = server.toolset(planned.index, planned.edited.tool)
    base, head = (edited, server.listed) if planned.edited.reverse else (server.listed, edited)
    comparison: Comparison = audit_pair(base, head, selector=selector, rules=rules, plan=plan, ranker=ranker)
    original = server.tools[planned.index]
    one_side = set(words(json.dumps(original))) ^ set(words(json.dumps(planned.edited.tool)))
    one_side -= STOPWORDS
    gate = evaluate_gate(comparison, fail_on_regression=True)
    cases = {c.id: c for c in comparison.head.cases}
    ran = {r.case_id for r in comparison.head.runs if not r.why.startswith("not run")}
    flips = []
    for delta in [*comparison.regressions, *comparison.improvements]:
        case = cases.get(delta.case_id)
        flips.append(
            Flip(
                kind=delta.kind,
                case_id=delta.case_id,
                intent=delta.intent,
                expected=delta.expected,
                target_tool=case.target_tool if case else None,
                before=delta.before_selected,
                after=delta.after_selected,
                borderline=delta.borderline,
                involvement=involvement(delta, case, planned.tool),
                edit_words=sorted(one_side & set(words(delta.intent))),
                family=case.family.value if case else "?",
                phrasing=case.phrasing.value if case and case.phrasing else None,
                provenance=delta.provenance.value,
            )
        )
    scored = [c for c in comparison.head.cases if c.scored and c.id in ran]
    own = [c.id for c in scored if owns(c, planned.tool)]
    support = (support_of(comparison.base, own), support_of(comparison.head, own)) if own else None
    return Record(
        mode=mode,
        kind=planned.kind,
        effect="preserving" if planned.kind in PRESERVING else "changing",
        server=planned.server,
        tool=planned.tool,
        detail=planned.edited.detail,
        seconds=time.perf_counter() - started,
        scored_cases=len(scored),
        own_scored_cases=len(own),
        own_support=support,
        gate=gate.conclusion.value,
        gate_reasons=gate.reasons,
        flips=flips,
        new_findings=sorted({f.rule_id for f in comparison.findings_introduced if f.tool == planned.tool}),
    )


def support_of(report: AuditReport, case_ids: Sequence[str]) -> float:
    runs = {r.case_id: r for r in report.runs}
    return sum(runs[i].confidence if runs[i].passed else 0.0 for i in case_ids) / len(case_ids)


def pct(n: int, d: int) -> str:
    return "n/a" if d == 0 else f"{100 * n / d:.1f}% ({n}/{d})"


HEADERS = [
    "kind",
    "effect",
    "edits",
    "≥1 regression",
    "gate fails",
    "flips (reg + imp)",
    "regressions",
    "borderline reg.",
    "untouched flips",
    "sensitivity",
    "new finding",
    "either",
    "own support Δ",
    "s / edit",
]


def table_row(label: str, effect: str, records: Sequence[Record]) -> list[str]:
    regressions = [f for r in records for f in r.regressions]
    flips = [f for r in records for f in r.flips]
    n = len(records)
    sensitivity = pct(sum(r.caught for r in records), n) if effect == "changing" else "-"
    found = pct(sum(r.found for r in records), n)
    either = pct(sum(r.caught or r.found for r in records), n) if effect == "changing" else "-"
    seconds = sum(r.seconds for r in records) / n if n else 0.0
    deltas = [r.own_support[1] - r.own_support[0] for r in records if r.own_support]
    delta = f"{sum(deltas) / len(deltas):+.3f}" if deltas else "n/a"
    return [
        label,
        effect,
        str(n),
        pct(sum(r.alarm for r in records), n),
        pct(sum(r.gate_failed for r in records), n),
        f"{len(flips)} ({len(regressions)} + {len(flips) - len(regressions)})",
        str(len(regressions)),
        str(sum(f.borderline for f in regressions)),
        str(sum(f.involvement == "untouched" for f in flips)),
        sensitivity,
        found,
        either,
        delta,
        f"{seconds:.1f}",
    ]


def markdown(rows: list[list[str]]) -> str:
    align = ["---", "---", *["---:"] * (len(HEADERS) - 2)]
    lines = ["| " + " | ".join(HEADERS) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def report(records: list[Record], mode: str) -> None:
    print(f"\n## {mode}: per kind\n")
    rows = []
    for kind in KINDS:
        of_kind = [r for r in records if r.kind == kind]
        if of_kind:
            rows.append(table_row(kind, of_kind[0].effect, of_kind))
    for effect in ("preserving", "changing"):
        of_effect = [r for r in records if r.effect == effect]
        if of_effect:
            rows.append(table_row(f"**all {effect}**", effect, of_effect))
    print(markdown(rows))

    preserving = [r for r in records if r.effect == "preserving"]
    alarms = [(r, f) for r in preserving for f in r.regressions]
    print(f"\n## {mode}: false alarms (regressions after a meaning-preserving edit): {len(alarms)}\n")
    for r, f in alarms:
        target = f" (without {f.target_tool})" if f.expected == NO_TOOL and f.target_tool else ""
        print(
            f"- {short(r.server)} {r.tool} [{r.kind}: {r.detail}] {f.family}/{f.phrasing or '-'} {f.intent!r} "
            f"expects {f.expected}{target}: {f.before} -> {f.after}; borderline={f.borderline}; {f.involvement}"
            + (f"; request has the edit's word(s) {', '.join(f.edit_words)}" if f.edit_words else "")
        )
    causes = Counter((f.involvement, "borderline" if f.borderline else "firm") for _, f in alarms)
    if alarms:
        print("\nby cause (involvement of the edited tool, borderline or firm):")
        for (inv, firm), n in sorted(causes.items()):
            print(f"  {inv:9} {firm:10} {n}")
        only_borderline = sum(1 for r in preserving if r.alarm and all(f.borderline for f in r.regressions))
        print(f"  edits whose every regression is borderline (the gate passes them): {only_borderline}")
        carried = sum(1 for _, f in alarms if f.edit_words)
        print(f"  regressions whose request says a word only one side's version of the edited tool has: {carried}")
    gate_reasons = Counter(reason.split(":")[0] for r in preserving if r.gate_failed for reason in r.gate_reasons)
    if gate_reasons:
        print("  gate failure reasons: " + ", ".join(f"{k} ×{n}" for k, n in sorted(gate_reasons.items())))

    changing = [r for r in records if r.effect == "changing"]
    missed = [r for r in changing if not r.caught]
    print(f"\n## {mode}: meaning-changing edits missed (no regression on the edited tool's own cases): {len(missed)}\n")
    for r in missed:
        elsewhere = len(r.regressions)
        print(
            f"- {short(r.server)} {r.tool} [{r.kind}: {r.detail}] own scored cases {r.own_scored_cases}"
            + (f" (support {r.own_support[0]:.2f} -> {r.own_support[1]:.2f})" if r.own_support else "")
            + "; "
            f"regressions elsewhere {elsewhere}; improvements {len(r.flips) - elsewhere}"
        )


def live_configured(args: argparse.Namespace) -> bool:
    return bool(args.live and args.model and os.environ.get("OPENAI_API_KEY"))


def progress(i: int, total: int, record: Record) -> None:
    regs = record.regressions
    own = sum(f.involvement == "own" for f in regs)
    print(
        f"[{i}/{total}] {record.mode} {record.kind:12} {short(record.server)} {record.tool}: {len(regs)} regression(s) "
        f"({own} own, {sum(f.borderline for f in regs)} borderline), {len(record.flips) - len(regs)} improvement(s), "
        f"gate {record.gate} ({record.seconds:.1f} s)",
        flush=True,
    )


# One synthetic selector and one rule set per worker process, built once by its initializer.
_WORKER: tuple[dict[str, Server], Selector, RuleSet] | None = None


def worker_init(contains: str) -> None:
    global _WORKER
    _WORKER = (load_servers(contains), synthetic_selector(), load_rules())


def worker_run(planned: Planned) -> Record:
    assert _WORKER is not None
    servers, selector, rules = _WORKER
    return run_edit(
        planned,
        servers[planned.server],
        selector=selector,
        rules=rules,
        mode=Mode.SYNTHETIC.value,
        plan=None,
        ranker=None,
    )


def run_synthetic(planned: list[Planned], *, contains: str, jobs: int) -> list[Record]:
    """Every edit through the synthetic selector, in `jobs` processes (1: in this process)."""
    if jobs <= 1:
        worker_init(contains)
        records = []
        for i, p in enumerate(planned, 1):
            records.append(worker_run(p))
            progress(i, len(planned), records[-1])
        return records
    done: dict[int, Record] = {}
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=context, initializer=worker_init, initargs=(contains,)
    ) as pool:
        futures = {pool.submit(worker_run, p): n for n, p in enumerate(planned)}
        for future in as_completed(futures):
            done[futures[future]] = future.result()
            progress(len(done), len(planned), done[futures[future]])
    return [done[n] for n in range(len(planned))]


def run_live(
    planned: list[Planned], servers: dict[str, Server], args: argparse.Namespace, rules: RuleSet
) -> list[Record]:
    """The same edits through the live model, asked by the targeted plan that the synthetic selector ranks."""
    live = make_selector(Mode.LIVE_MODEL, model=args.model, live=LiveRun(max_calls=args.max_calls))
    ranker = synthetic_selector()
    records = []
    for i, p in enumerate(planned, 1):
        records.append(
            run_edit(
                p,
                servers[p.server],
                selector=live,
                rules=rules,
                mode=Mode.LIVE_MODEL.value,
                plan=PlanOptions(),
                ranker=ranker,
            )
        )
        progress(i, len(planned), records[-1])
    save = getattr(live, "save_recording", None)
    if callable(save):
        save()
    return records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None, help="tools per kind (default 17 preserving, 14 changing)")
    parser.add_argument("--servers", default="", help="only the server files whose name contains this")
    parser.add_argument("--json", type=Path, default=None, help="write every per-edit record here")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the synthetic pass (default 2)")
    parser.add_argument("--live", action="store_true", help="also run the edits through a live model")
    parser.add_argument("--model", default=None, help="the live model (with --live)")
    parser.add_argument("--max-calls", type=int, default=None, help="live call budget (with --live)")
    args = parser.parse_args()
    started = time.perf_counter()
    servers = load_servers(args.servers)
    if not servers:
        print(f"no server file in {SERVERS} matches {args.servers!r}", file=sys.stderr)
        return 2
    quotas = {
        k: args.limit if args.limit is not None else (PER_PRESERVING if k in PRESERVING else PER_CHANGING)
        for k in KINDS
    }
    planned = plan_edits(servers, quotas)
    per_server = Counter(short(p.server) for p in planned)
    print(
        f"sample: {len(planned)} edits of {len({(p.server, p.index) for p in planned})} distinct tools, seed {SEED}; "
        + ", ".join(f"{s} {n}" for s, n in per_server.most_common())
    )
    short_kinds = [k for k in KINDS if sum(p.kind == k for p in planned) < quotas[k]]
    if short_kinds:
        print("kinds under their quota (too few tools they apply to): " + ", ".join(short_kinds))
    shared = len(planned) - len({(p.server, p.index) for p in planned})
    if shared:
        print(f"the servers chosen have too few tools for distinct ones: {shared} edits reuse another kind's tool")
    records = run_synthetic(planned, contains=args.servers, jobs=args.jobs)
    report(records, Mode.SYNTHETIC.value)
    print(f"\nsynthetic pass: {time.perf_counter() - started:.1f} s for {len(records)} edits, {args.jobs} job(s)")
    if args.live and not live_configured(args):
        print("\nlive mode was not configured (needs OPENAI_API_KEY and --model): live pass skipped")
    elif args.live:
        live_started = time.perf_counter()
        live = run_live(planned, servers, args, load_rules())
        report(live, Mode.LIVE_MODEL.value)
        print(f"\nlive_model pass: {time.perf_counter() - live_started:.1f} s for {len(live)} edits")
        records.extend(live)
    if args.json:
        out = {
            "seed": SEED,
            "quotas": quotas,
            "servers": args.servers,
            "records": [asdict(r) | {"alarm": r.alarm, "caught": r.caught} for r in records],
        }
        args.json.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"records written to {args.json}")
    print(f"wall time: {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
