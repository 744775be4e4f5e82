"""How often the successor of a removed tool is right (app/audit/successors/), on before/after pairs with truth.

    python bench/bench_successors.py TRUTH.json PAIRS_DIR [PAIRS_DIR ...]

TRUTH.json is a list of {"pair", "removed", "successor" (a tool name or null: dropped), "arguments" ({} or the
argument values that select the old operation), "unsure" (optional)}; each pair is PAIRS_DIR/<pair>__base.json and
__head.json. The truth comes from each project's own statements (alias maps, changelogs, the new tool's code), not
from names. Prints, per pair and in all: removed tools, right (tool and argument values), wrong (a successor
claimed at confidence >= 0.7 that is not the truth, or one claimed for a dropped tool), none (no successor where
there is one), and each miss.

With no arguments it runs the playwright tab merge of ../shared/corpora/pairs, whose truth is its commit subject
("merge tabs tool into one": browser_tab_<x> -> browser_tabs, action <x>).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.audit.loader import load_definitions  # noqa: E402
from app.audit.successors import find_successors  # noqa: E402
from app.audit.successors.finder import MIN_CONFIDENCE  # noqa: E402

PLAYWRIGHT = "microsoft__playwright-mcp__playwright__2521a67b"


def _default() -> tuple[list[dict[str, Any]], list[Path]]:
    truth = [
        {"pair": PLAYWRIGHT, "removed": f"browser_tab_{a}", "successor": "browser_tabs", "arguments": {"action": a}}
        for a in ("close", "list", "new", "select")
    ]
    return truth, [ROOT.parent / "shared" / "corpora" / "pairs"]


def _find(dirs: list[Path], name: str) -> Path:
    for d in dirs:
        if (d / name).exists():
            return d / name
    raise SystemExit(f"{name}: not found in {', '.join(map(str, dirs))}")


def main(argv: list[str]) -> int:
    if argv:
        truth = json.loads(Path(argv[0]).read_text())
        dirs = [Path(a) for a in argv[1:]]
    else:
        truth, dirs = _default()
    by_pair: dict[str, list[dict[str, Any]]] = {}
    for item in truth:
        by_pair.setdefault(item["pair"], []).append(item)
    totals = {"removed": 0, "right": 0, "wrong": 0, "none": 0, "unsure": 0}
    print(f"{'pair':58} removed right wrong none")
    for pair, items in sorted(by_pair.items()):
        sides = [
            load_definitions(f"{pair}__{s}.json", text=_find(dirs, f"{pair}__{s}.json").read_text())
            for s in ("base", "head")
        ]
        found = {s.removed: s for s in find_successors(sides[0], sides[1])}
        counts = {"removed": 0, "right": 0, "wrong": 0, "none": 0}
        misses: list[str] = []
        for item in sorted(items, key=lambda i: i["removed"]):
            counts["removed"] += 1
            totals["unsure"] += bool(item.get("unsure"))
            got = found.get(item["removed"])
            want_tool, want_args = item.get("successor"), item.get("arguments") or {}
            if got is None or got.confidence < MIN_CONFIDENCE:
                outcome = "right" if want_tool is None else "none"
            elif want_tool is None:
                outcome = "wrong"
            else:
                hit = [t for t in got.targets if t.tool == want_tool]
                args_ok = any(all(t.arguments.get(k) == v for k, v in want_args.items()) for t in hit)
                outcome = "right" if hit and (args_ok or not want_args) and len(got.targets) == 1 else "wrong"
                if hit and len(got.targets) > 1:
                    outcome = "right" if args_ok or not want_args else "wrong"
            counts[outcome] += 1
            if outcome != "right":
                said = got.label() + f" [{got.how} {got.confidence}]" if got else "none"
                want = want_tool + (f" {want_args}" if want_args else "") if want_tool else "dropped"
                misses.append(f"    {outcome}: {item['removed']} -> {said}; truth {want}")
        for k in counts:
            totals[k] += counts[k]
        print(f"{pair[:58]:58} {counts['removed']:7} {counts['right']:5} {counts['wrong']:5} {counts['none']:4}")
        for line in misses:
            print(line)
    share = totals["right"] / totals["removed"] if totals["removed"] else 0.0
    print(
        f"{'all':58} {totals['removed']:7} {totals['right']:5} {totals['wrong']:5} {totals['none']:4}"
        f"   right {share:.1%}, {totals['unsure']} truth entries marked unsure"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
