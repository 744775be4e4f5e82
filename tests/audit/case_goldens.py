"""Golden dumps of every generated test case: what the request generator writes, held case by case.

One JSON Lines file per source under tests/audit/golden_cases/: the demo (its before/after suite), our successor
fixtures (each pair's suite), and each of the 21 servers of ../shared/corpora/servers/ audited alone. A line holds a
case's text, family, expected tool, status, confidence and phrasing; the lines keep the suite's order. The shared
servers' requests quote third-party tool descriptions, which the project must not contain: their lines hold the
sha256 of the text instead (`text_sha256`), and a failing comparison prints the text as generated now.

Regenerate with `python -m tests.audit.case_goldens` (then review the diff; `--readable DIR` also writes every
source's dump with its texts to DIR, outside the checkout, for reading the shared servers' requests).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.audit.loader import load_definitions
from app.audit.models import Case
from app.audit.suite.build import build_suite
from tests.conftest import ROOT, SHARED

GOLDEN = Path(__file__).resolve().parent / "golden_cases"
DEMO = ROOT / "app" / "demo"
SUCCESSORS = ROOT / "tests" / "fixtures" / "successors"
SERVERS = SHARED / "corpora" / "servers"


def _load(path: Path) -> Any:
    return load_definitions(path.name, text=path.read_text(encoding="utf-8"))


def _pair(base: Path, head: Path) -> list[Case]:
    return build_suite([_load(base), _load(head)]).cases


def sources() -> dict[str, Callable[[], list[Case]]]:
    """Each golden's name and how its cases are built; the shared servers' only when the corpus is present."""
    out: dict[str, Callable[[], list[Case]]] = {"demo": lambda: _pair(DEMO / "before.json", DEMO / "after.json")}
    for base in sorted(SUCCESSORS.glob("*_base.json")):
        name = base.name.removesuffix("_base.json")
        out[f"successors_{name}"] = lambda b=base, n=name: _pair(b, SUCCESSORS / f"{n}_head.json")
    for path in sorted(SERVERS.glob("*.json")) if SERVERS.is_dir() else []:
        out[f"servers/{path.stem}"] = lambda p=path: build_suite([_load(p)]).cases
    return out


def third_party(name: str) -> bool:
    return name.startswith("servers/")


def lines(name: str, cases: list[Case], *, readable: bool = False) -> list[dict[str, Any]]:
    """One dict per case, in the suite's order (the sources have no user cases: every case is generated)."""
    out = []
    for case in cases:
        text: dict[str, str] = {"text": case.intent}
        if third_party(name) and not readable:
            text = {"text_sha256": hashlib.sha256(case.intent.encode()).hexdigest()[:16]}
        out.append({
            "id": case.id,
            **text,
            "family": case.family.value,
            "expected": case.expected,
            "status": case.status.value,
            "confidence": round(case.confidence, 4),
            "phrasing": case.phrasing.value if case.phrasing else None,
            "target": case.target_tool,
        })  # fmt: skip
    return out


def golden_path(name: str, folder: Path = GOLDEN) -> Path:
    return folder / f"{name}.jsonl"


def dump(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.audit.case_goldens")
    parser.add_argument("--readable", type=Path, help="also write every dump with its texts to this folder")
    args = parser.parse_args()
    for name, build in sources().items():
        cases = build()
        path = golden_path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump(lines(name, cases)), encoding="utf-8")
        print(path.relative_to(ROOT))
        if args.readable:
            out = golden_path(name, args.readable)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(dump(lines(name, cases, readable=True)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
