"""Experiment for the learned scorer (issue 40): how far a scorer that reads request and tool together carries
across sources, measured leave one source out. Nothing here is used at run time yet.

Run by hand: `PYTHONPATH=. python bench/train_scorer.py [--metatool 3000] [--seed 20261206]`.

Sources (each one a fold: trained on all the others, measured on it):
- MetaTool's natural requests (../shared/corpora/training/metatool_requests.json, MIT): a sample of requests,
  each offered its tool among nine others drawn from the 199 (seeded), and one in four offered the list without
  its tool (expected NO_TOOL);
- each labeled dev file of ../shared/corpora/labeled (BFCL and MetaTool reliability: their own tool lists);
- the hand-written natural dev set (tests/fixtures/natural/natural.dev.json) over the real servers' tools.

Each (request, tool) pair is described by a few features read from the MiniLM vectors the synthetic selector
already computes and from words: the cosine of the request with "name: description", with the description alone
and with the name's words; the share of the request's word stems found in the tool's text and of the name's stems
found in the request; and the first two again relative to the best tool of the list. A conditional-logit ranker
(a softmax over the offered tools of a weighted sum of the features) is fitted with Adam in numpy; NO_TOOL is a
logistic decision on the best tool's raw features (its cosines, word and name shares, and how far its description's
cosine stands above the next tool's), fitted on the same folds, each source and each side weighing the same.
Printed per held-out source: cases, top-1 of the plain cosine, of the learned ranker (both without abstention),
and the accuracy with the learned NO_TOOL decision, NO_TOOL and tool halves apart.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from app.audit.text import content_stems, split_identifier
from app.semantic.similarity import shared_similarity

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "corpora"
NATURAL_DEV = ROOT / "tests" / "fixtures" / "natural" / "natural.dev.json"
FEATURES = ["cos_whole", "cos_description", "cos_name", "word_share", "name_share", "cos_rel", "word_rel"]


@dataclass
class Episode:
    source: str
    request: str
    tools: list[dict[str, Any]]
    expected: str | None


def tool_text(tool: dict[str, Any]) -> str:
    """How the experiments read a tool as one text: "name: description"."""
    return f"{tool['name']}: {(tool.get('description') or '').strip()}"


def metatool(count: int, seed: int) -> list[Episode]:
    data = json.loads((SHARED / "training" / "metatool_requests.json").read_text(encoding="utf-8"))
    tools = [{"name": n, "description": d} for n, d in sorted(data["tools"].items())]
    rng = random.Random(seed)
    picked = rng.sample(data["requests"], min(count, len(data["requests"])))
    out = []
    for item in picked:
        target = next(t for t in tools if t["name"] == item["tool"])
        others = rng.sample([t for t in tools if t is not target], 9)
        negative = rng.random() < 0.25
        offered = others if negative else [*others, target]
        rng.shuffle(offered)
        out.append(Episode("metatool", item["request"], offered, None if negative else target["name"]))
    return out


def unasked_pool() -> list[dict[str, Any]]:
    """The tools of the real servers the natural set never asks about, as one list (57 tools)."""
    asked = {c["server"] for c in json.loads(NATURAL_DEV.read_text(encoding="utf-8"))["cases"]}
    pool: list[dict[str, Any]] = []
    for path in sorted((SHARED / "servers").glob("*.json")):
        if path.stem not in asked:
            pool += json.loads(path.read_text(encoding="utf-8"))["tools"]
    return pool


def ours_unasked() -> list[Episode]:
    """Natural requests written in our own words (bench/data/natural_unasked_*.json) over the same list: requests
    shaped like the deployment's, over servers apart from the natural dev and check sets."""
    pool = unasked_pool()
    out = []
    for path in sorted((ROOT / "bench" / "data").glob("natural_unasked_*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            expected = case["expected"]
            out.append(Episode("ours_unasked", case["intent"], pool, None if expected == "NO_TOOL" else expected))
    return out


def ours_invented() -> list[Episode]:
    """Natural requests written in our own words over tool sets we invented in the style of MCP servers
    (bench/data/invented_*.json; each request offered its own file's tools)."""
    out = []
    for path in sorted((ROOT / "bench" / "data").glob("invented_*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            expected = case["expected"]
            out.append(
                Episode("ours_invented", case["intent"], data["tools"], None if expected == "NO_TOOL" else expected)
            )
    return out


def metatool_in_servers(count: int, seed: int) -> list[Episode]:
    """MetaTool requests offered the tools of the real servers the natural set never asks about (their union, 57
    tools of several domains, as long a list as a large server's), half of them with their own tool added:
    lists shaped like an MCP server's, so that the NO_TOOL decision sees what a best-of-57 cosine looks like for
    a request the list does not serve."""
    data = json.loads((SHARED / "training" / "metatool_requests.json").read_text(encoding="utf-8"))
    pool = unasked_pool()
    tools = {n: {"name": n, "description": d} for n, d in data["tools"].items()}
    rng = random.Random(seed + 1)
    out = []
    for item in rng.sample(data["requests"], min(count, len(data["requests"]))):
        offered = list(pool)
        served = rng.random() < 0.5
        if served:
            offered.insert(rng.randrange(len(offered) + 1), tools[item["tool"]])
        out.append(Episode("metatool_servers", item["request"], offered, item["tool"] if served else None))
    return out


def labeled() -> list[Episode]:
    out = []
    for path in sorted((SHARED / "labeled").glob("*.dev.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        source = path.name.removesuffix(".dev.json")
        for case in data["cases"]:
            expected = case.get("expected")
            out.append(Episode(source, case["intent"], case["tools"], None if expected == "NO_TOOL" else expected))
    return out


def natural() -> list[Episode]:
    data = json.loads(NATURAL_DEV.read_text(encoding="utf-8"))
    servers: dict[str, list[dict[str, Any]]] = {}
    out = []
    for case in data["cases"]:
        name = case["server"]
        if name not in servers:
            servers[name] = json.loads((SHARED / "servers" / f"{name}.json").read_text(encoding="utf-8"))["tools"]
        expected = case.get("expected")
        out.append(Episode("natural", case["intent"], servers[name], None if expected == "NO_TOOL" else expected))
    return out


def features(episode: Episode) -> np.ndarray:
    sim = shared_similarity()
    names = [t["name"] for t in episode.tools]
    descriptions = [(t.get("description") or "").strip() for t in episode.tools]
    whole = [tool_text(t) for t in episode.tools]
    named = [" ".join(split_identifier(n)) for n in names]
    rows = [
        sim.similarities(episode.request, whole),
        sim.similarities(episode.request, [d or n for d, n in zip(descriptions, named, strict=True)]),
        sim.similarities(episode.request, named),
    ]
    asked = set(content_stems(episode.request))
    word_share, name_share = [], []
    for name, description in zip(named, descriptions, strict=True):
        said = set(content_stems(f"{name} {description}"))
        name_stems = set(content_stems(name))
        word_share.append(len(asked & said) / max(1, len(asked)))
        name_share.append(len(asked & name_stems) / max(1, len(name_stems)))
    x = np.array([*rows, word_share, name_share], dtype=np.float64).T
    rel = np.stack([x[:, 0] - x[:, 0].max(), x[:, 3] - x[:, 3].max()], axis=1)
    return np.concatenate([x, rel], axis=1)


def background_texts() -> list[str]:
    """"name: description" of every tool our own test fixtures define (written in our words, none of the sources
    measured here): a fixed pool against which a request's cosines are calibrated."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            name, description = node.get("name"), node.get("description")
            if isinstance(name, str) and isinstance(description, str) and "inputSchema" in node:
                found.add(f"{name}: {description.strip()}")
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted((ROOT / "tests" / "fixtures").rglob("*.json")):
        if "natural" not in path.parts:
            walk(json.loads(path.read_text(encoding="utf-8")))
    return sorted(found)


def request_floor(request: str, pool: list[str], k: int = 10) -> float:
    """The mean of the request's `k` highest cosines with the background pool: how close a request comes to
    tools that were not written for it (a chatty request comes close to many, a terse one to few)."""
    cos = np.array(shared_similarity().similarities(request, pool))
    return float(np.sort(cos)[-k:].mean())


def add_sources(parser: argparse.ArgumentParser, *, metatool: int, in_servers: int) -> None:
    """The options that say which sources an experiment reads beyond the labeled dev files and the natural set."""
    parser.add_argument("--metatool", type=int, default=metatool, help="MetaTool requests in ten-tool lists")
    parser.add_argument("--seed", type=int, default=20261206)
    parser.add_argument(
        "--in-servers", type=int, default=in_servers,
        help="also this many MetaTool requests offered the union of the real servers' tools the natural set never "
        "asks about, half with their own tool added (its own source and fold)",
    )  # fmt: skip
    parser.add_argument(
        "--ours", action="store_true",
        help="also the natural requests we wrote over those servers (bench/data/natural_unasked_*.json) and over tool "
        "sets we invented (bench/data/invented_*.json), two sources and folds of their own",
    )  # fmt: skip


def more_sources(args: argparse.Namespace) -> list[Episode]:
    """The episodes of `--in-servers` and `--ours`."""
    out = metatool_in_servers(args.in_servers, args.seed) if args.in_servers else []
    return out + ([*ours_unasked(), *ours_invented()] if args.ours else [])


def fit_ranker(data: list[tuple[np.ndarray, int]], steps: int = 400, l2: float = 1e-3) -> np.ndarray:
    """Weights of a softmax over each list's tools; `data` holds (features, index of the expected tool)."""
    w = np.zeros(len(FEATURES))
    m, v = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, steps + 1):
        grad = l2 * w
        for x, target in data:
            logits = x @ w * 10
            p = np.exp(logits - logits.max())
            p /= p.sum()
            grad += 10 * (x.T @ p - x[target]) / len(data)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def best_of(x: np.ndarray, w: np.ndarray) -> tuple[int, np.ndarray]:
    logits = x @ w * 10
    p = np.exp(logits - logits.max())
    p /= p.sum()
    order = np.argsort(-p, kind="stable")
    top = order[0]
    # What the NO_TOOL decision reads: raw values of the best tool, never its probability or a margin of
    # probabilities, which fall with the length of the list (5 tools in BFCL, 117 on a real server).
    second_cos = np.sort(x[:, 1])[-2] if len(x) > 1 else 0.0
    return int(top), np.array([1.0, x[top, 0], x[top, 1], x[top, 2], x[top, 3], x[top, 4], x[top, 1] - second_cos])


class TokenStates:
    """Each text's token states from the encoder (unit vectors, [CLS] and [SEP] left out), computed once per text:
    what a late-interaction reading of request and tool needs, and what the embedding computes anyway."""

    def __init__(self) -> None:
        from app.semantic.minilm import MiniLM

        self.model = MiniLM()
        self.kept: dict[str, np.ndarray] = {}

    def of(self, text: str) -> np.ndarray:
        if text not in self.kept:
            ids = self.model._tokens.encode(text, max_length=256)
            h = self.model._session.run(["hidden"], {"ids": np.array([ids], dtype=np.int64)})[0][0][1:-1]
            h = h if len(h) else np.zeros((1, h.shape[-1]), dtype=np.float32)
            self.kept[text] = h / np.maximum(np.linalg.norm(h, axis=1, keepdims=True), 1e-12)
        return self.kept[text]

    def maxsim(self, request: str, tool: str) -> list[float]:
        """For each of the request's tokens its best cosine with the tool's tokens: their mean and lower quartile
        (how much of the request the tool answers, and how well its worst-answered quarter is)."""
        best = (self.of(request) @ self.of(tool).T).max(1)
        return [float(best.mean()), float(np.percentile(best, 25))]


def abstain_features(
    episode: Episode, x: np.ndarray, w: np.ndarray, floors: dict[str, float], states: TokenStates | None = None
) -> np.ndarray:
    """The best tool's raw features; with a background pool its cosines less the request's floor; with token
    states the late-interaction reading of the request and that tool."""
    top, f = best_of(x, w)
    extra: list[float] = []
    if floors:
        floor = floors[episode.request]
        extra += [x[top, 0] - floor, x[top, 1] - floor, floor]
    if states is not None:
        tool = episode.tools[top]
        extra += states.maxsim(episode.request, tool_text(tool))
    return np.concatenate([f, extra])


def fit_abstain(data: list[tuple[str, np.ndarray, bool]], steps: int = 3000) -> np.ndarray:
    """Logistic weights: the probability that the list holds a tool for the request, from its best tool's
    features. Each source and, within it, each side (served or not) weighs the same whatever its size, so that
    the decision is not the largest source's, nor set by how many negatives a source happens to hold."""
    xs = np.stack([d[1] for d in data])
    ys = np.array([1.0 if d[2] else 0.0 for d in data])
    groups: dict[tuple[str, bool], int] = {}
    for source, _, served in data:
        groups[(source, served)] = groups.get((source, served), 0) + 1
    weights = np.array([1.0 / groups[(source, served)] for source, _, served in data])
    weights /= weights.sum()
    w = np.zeros(xs.shape[1])
    m, v = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, steps + 1):
        p = 1 / (1 + np.exp(-(xs @ w)))
        grad = xs.T @ ((p - ys) * weights) + 1e-4 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def main() -> None:
    parser = argparse.ArgumentParser()
    add_sources(parser, metatool=3000, in_servers=0)
    parser.add_argument(
        "--drop-target",
        action="store_true",
        help="also offer each labeled tool case its list without its tool (expected NO_TOOL): near misses in the "
        "sources' own lists, for the NO_TOOL decision",
    )
    parser.add_argument(
        "--maxsim", action="store_true",
        help="the NO_TOOL decision also reads how well the best tool's tokens answer the request's (late interaction)",
    )
    parser.add_argument(
        "--background",
        action="store_true",
        help="the NO_TOOL decision also reads the best tool's cosine less the request's floor against a fixed pool "
        "of tools from our own fixtures",
    )
    args = parser.parse_args()
    found = labeled()
    if args.drop_target:
        found += [
            Episode(e.source, e.request, [t for t in e.tools if t["name"] != e.expected], None)
            for e in found
            if e.expected is not None and len(e.tools) > 2
        ]
    episodes = [*metatool(args.metatool, args.seed), *found, *natural(), *more_sources(args)]
    episodes = [e for e in episodes if len(e.tools) >= 1]
    pool = background_texts() if args.background else []
    if pool:
        shared_similarity().prepare(list(dict.fromkeys([*pool, *(e.request for e in episodes)])))
    floors = {e.request: request_floor(e.request, pool) for e in episodes} if pool else {}
    states = TokenStates() if args.maxsim else None
    print(f"background pool: {len(pool)} tools" if pool else "no background pool")
    table = []
    for e in episodes:
        x = features(e)
        names = [t["name"] for t in e.tools]
        target = names.index(e.expected) if e.expected in names else None
        table.append((e, x, target))
    sources = sorted({e.source for e in episodes})
    print(f"{'held out':28} {'cases':>6} {'tool':>5} {'cos top1':>9} {'learned top1':>13} {'with NO_TOOL':>13} "
          f"{'NO_TOOL':>8} {'tool':>6}")
    all_w = []
    for held in sources:
        train = [(x, t) for e, x, t in table if e.source != held and t is not None and len(e.tools) > 1]
        w = fit_ranker(train)
        all_w.append(w)
        # The NO_TOOL decision, fitted on the training sources: whether the list holds a tool for the request.
        serve = []
        for e, x, t in table:
            if e.source == held:
                continue
            serve.append((e.source, abstain_features(e, x, w, floors, states), t is not None))
        a = fit_abstain(serve)
        test = [(e, x, t) for e, x, t in table if e.source == held]
        positives = [(x, t) for _, x, t in test if t is not None]
        cos_top = sum(int(np.argmax(x[:, 0])) == t for x, t in positives)
        learned_top = sum(best_of(x, w)[0] == t for x, t in positives)
        right_none = right_tool = nones = 0
        for e, x, t in test:
            top, _ = best_of(x, w)
            f = abstain_features(e, x, w, floors, states)
            calls = 1 / (1 + np.exp(-(f @ a))) >= 0.5
            if t is None:
                nones += 1
                right_none += not calls
            else:
                right_tool += calls and top == t
        n, tools = len(test), len(positives)
        pct = lambda a_, b_: f"{100 * a_ / b_:.1f}%" if b_ else "-"  # noqa: E731
        print(
            f"{held:28} {n:>6} {tools:>5} {pct(cos_top, tools):>9} {pct(learned_top, tools):>13} "
            f"{pct(right_none + right_tool, n):>13} {pct(right_none, nones):>8} {pct(right_tool, tools):>6}"
        )
    print("ranker weights per fold (" + ", ".join(FEATURES) + "):")
    for held, w in zip(sources, all_w, strict=True):
        print(f"  without {held:26} " + " ".join(f"{v:+.2f}" for v in w))


if __name__ == "__main__":
    main()
