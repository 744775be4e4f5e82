"""Experiment for the learned scorer (issue 40): does each hand-written synonym group of selectors/synthetic.yml
still add accuracy on sources it was not chosen on?

Run by hand: `PYTHONPATH=. python bench/ablate_synonyms.py [--metatool 2000] [--in-servers 1000] [--out FILE]
[--rows FILE --choose-on SOURCES]`.

The groups were written while the selector was developed on the labeled dev files and the natural dev set. The
sources none of them was chosen on: MetaTool's requests (in ten-tool lists and in the union of the real servers
the natural set never asks about; bench/train_scorer.py) and our own natural requests of bench/data/ (`unasked`,
`invented`). For each group of the shipped profile, the selector as shipped (ranking, decision weights, threshold)
is asked again without that group, on every request that has one of its words; a group is kept when the cases it
turns right on the deciding sources (`--choose-on`, default those four) outnumber the cases it turns wrong (each
source's count scaled to the same weight). Then every other group is removed at once and each source measured
again, the dev files and natural dev set included. `--rows` reads the groups' gains and losses from an earlier
`--out` instead of measuring them, so that the choice can be made on some unseen sources and measured on the
others. The 119 groups before the deletion were measured this way (bench/RESULTS.md); run today it measures the
34 kept.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import loso_selector as ls
import train_scorer as ts

from app.audit.models import NO_TOOL
from app.audit.synthetic.analysis import analysed_words
from app.audit.synthetic.profiles import Profile
from app.audit.synthetic.selector import SyntheticSelector
from app.audit.text import match_stem
from app.selector_factory import synthetic_selector
from app.semantic.similarity import shared_similarity

UNSEEN = ("metatool", "metatool_servers", "ours_unasked", "ours_invented")


def without(profile: Profile, groups: list[list[str]]) -> Profile:
    return profile.model_copy(update={"words": profile.words.model_copy(update={"synonyms": groups})})


def right_answers(profile: Profile, episodes: list[ts.Episode]) -> list[bool]:
    """Whether the selector of `profile` answers each episode right (its tool, or NO_TOOL)."""
    selector = SyntheticSelector(profile, similarity=shared_similarity())
    return [selector.select(e.tools, e.request).tool == (e.expected or NO_TOOL) for e in episodes]


def by_source(episodes: list[ts.Episode], right: list[bool]) -> dict[str, tuple[int, int]]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for e, ok in zip(episodes, right, strict=True):
        counts[e.source][0] += ok
        counts[e.source][1] += 1
    return {k: (v[0], v[1]) for k, v in sorted(counts.items())}


def main() -> None:
    parser = argparse.ArgumentParser()
    ts.add_sources(parser, metatool=2000, in_servers=1000)
    parser.add_argument("--out", help="write each group's gains and losses per source here (JSON)")
    parser.add_argument("--rows", help="read the groups' gains and losses from a file --out wrote, not measure them")
    parser.add_argument(
        "--choose-on", default=",".join(UNSEEN),
        help="the sources whose gains and losses decide (comma-separated); the others are measured apart",
    )  # fmt: skip
    args = parser.parse_args()
    args.ours = True
    shipped = synthetic_selector(None).profile
    episodes = [*ls.dev_episodes(), *ts.metatool(args.metatool, args.seed), *ts.more_sources(args)]
    base = right_answers(shipped, episodes)
    print(f"{len(episodes)} episodes, as shipped: {sum(base)} right", flush=True)
    sizes = {k: n for k, (_, n) in by_source(episodes, base).items()}
    groups = [list(g) for g in shipped.words.synonyms]
    # A group is read only for a request that has one of its words (the selector looks synonyms up by the
    # request's stems): only those requests are asked again without it.
    stems = [{s for s, _ in analysed_words(e.request)} for e in episodes]
    choose = args.choose_on.split(",")
    rows = json.loads(Path(args.rows).read_text())["rows"] if args.rows else []
    for i, group in enumerate(groups if not rows else []):
        own = {match_stem(w) for w in group}
        touched = [k for k, found in enumerate(stems) if found & own]
        right = right_answers(without(shipped, groups[:i] + groups[i + 1 :]), [episodes[k] for k in touched])
        delta: dict[str, int] = defaultdict(int)  # cases the group turns right, less those it turns wrong
        for k, r in zip(touched, right, strict=True):
            delta[episodes[k].source] += int(base[k]) - int(r)
        unseen = sum(delta[s] / sizes[s] for s in UNSEEN if s in sizes)
        seen = sum(delta[s] / sizes[s] for s in sizes if s not in UNSEEN)
        rows.append({"group": group, "delta": dict(sorted(delta.items())), "unseen": unseen, "seen": seen})
        print(f"{i:3} {'keep' if unseen > 0 else 'drop'} unseen {100 * unseen:+.2f} seen {100 * seen:+.2f} "
              f"{' '.join(f'{k}:{v:+d}' for k, v in sorted(delta.items()) if v)}  {group[:4]}", flush=True)
    gain = [sum(r["delta"].get(s, 0) / sizes[s] for s in choose) for r in rows]
    kept = [r["group"] for r, g in zip(rows, gain, strict=True) if g > 0]
    after = by_source(episodes, right_answers(without(shipped, kept), episodes))
    before = by_source(episodes, base)
    print(f"\nkept {len(kept)} of {len(groups)} groups, chosen on {', '.join(choose)}")
    print(f"{'source':34} {'cases':>6} {'all 119':>8} {'kept':>8}")
    for k in sorted(before):
        (a, n), (b, _) = before[k], after[k]
        print(f"{k:34} {n:>6} {100 * a / n:>7.1f}% {100 * b / n:>7.1f}%")
    if args.out and not args.rows:
        with open(args.out, "w") as f:
            json.dump({"rows": rows, "kept": kept}, f, indent=1)


if __name__ == "__main__":
    main()
