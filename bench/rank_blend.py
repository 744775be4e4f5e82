"""How the synthetic selector's ranking weighs words against the sentence embedding, chosen leave one source out
(issue 40: the embedding alone ranks natural requests better than the selector does).

Run by hand: `PYTHONPATH=. python bench/rank_blend.py [--metatool 2000] [--in-servers 1000] [--blends 0.5,1,2,...]`.

Ranking only (top-1 on the tool cases, as if the selector never abstained; its NO_TOOL decision is not read): for
each `semantic.blend` of the profile (the ranking is the word score relative to the best tool's plus blend x
cosine), how often the best-ranked tool is the expected one, per source: the labeled dev files with tool cases,
the natural dev set, MetaTool's requests in ten-tool lists and in the 57-tool union of the servers the natural set
never asks about, and our two sources (bench/data/). Then, for each source held out, the blend the other sources
rank best with on average (each source weighing the same), and the held-out source's top-1 with it. The natural
check half is printed last, read once, chosen on by nothing.
"""

from __future__ import annotations

import argparse

import loso_selector as ls
import train_scorer as ts

from app.audit.evaluation import load_cases
from app.audit.models import NO_TOOL
from app.audit.synthetic.profiles import read_profile
from app.audit.synthetic.selector import SyntheticSelector
from app.semantic.similarity import shared_similarity

CHECK = ts.NATURAL_DEV.with_name("natural.check.json")


def top1(selector: SyntheticSelector, episodes: list[ts.Episode]) -> float:
    right = 0
    for e in episodes:
        found = selector.evidence(e.tools, e.request)
        right += found is not None and found[0] == e.expected
    return right / len(episodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ts.add_sources(parser, metatool=2000, in_servers=1000)
    parser.add_argument("--blends", default="1,2,4,8,16,64")
    args = parser.parse_args()
    episodes = [*ls.dev_episodes(), *ts.metatool(args.metatool, args.seed), *ts.more_sources(args)]
    episodes += [ts.Episode("natural.dev.json", c.intent, c.tools, c.expected) for c in load_cases(ts.NATURAL_DEV)]
    tool_cases = [e for e in episodes if e.expected not in (None, NO_TOOL)]
    sources = sorted({e.source for e in tool_cases if sum(x.source == e.source for x in tool_cases) >= 20})
    check = [ts.Episode("check", c.intent, c.tools, c.expected) for c in load_cases(CHECK) if c.expected != NO_TOOL]
    profile = read_profile()
    assert profile.semantic is not None
    blends = [float(b) for b in args.blends.split(",")]
    table: dict[float, dict[str, float]] = {}
    for blend in blends:
        semantic = profile.semantic.model_copy(update={"blend": blend})
        selector = SyntheticSelector(profile.model_copy(update={"semantic": semantic}), similarity=shared_similarity())
        table[blend] = {s: top1(selector, [e for e in tool_cases if e.source == s]) for s in sources}
        table[blend]["check"] = top1(selector, check)
        print(f"blend {blend:g}: " + ", ".join(f"{s} {100 * v:.1f}%" for s, v in table[blend].items()), flush=True)
    print("\n| held out | blend chosen on the others | top-1 with it | with the shipped blend |")
    print("|---|---:|---:|---:|")
    shipped = profile.semantic.blend
    for held in sources:
        others = [s for s in sources if s != held]
        best = max(blends, key=lambda b: (sum(table[b][s] for s in others) / len(others), -b))
        now = f"{100 * table[shipped][held]:.1f}%" if shipped in table else "–"
        print(f"| {held} | {best:g} | {100 * table[best][held]:.1f}% | {now} |")
    best = max(blends, key=lambda b: (sum(table[b][s] for s in sources) / len(sources), -b))
    print(f"\nchosen on every source: blend {best:g}; natural.check (read once, chosen on by nothing): "
          f"{100 * table[best]['check']:.1f}% (the shipped blend: "
          f"{100 * table[shipped]['check']:.1f}%)" if shipped in table else "")


if __name__ == "__main__":
    main()
