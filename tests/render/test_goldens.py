"""Golden PR comments: the demo's, and the 14 real pairs' (masked); regenerate with
`python -m tests.render.regenerate` and review the diff by eye."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.render.markdown import GITHUB_COMMENT_LIMIT, VISIBLE_LINE_BUDGET, visible_lines
from tests.conftest import SHARED
from tests.render.goldens import (
    SUCCESSOR_FIXTURES,
    demo_comment,
    golden_path,
    pair_comment,
    pair_comparison,
    pair_names,
    successor_comment,
)

PAIRS = SHARED / "corpora" / "pairs"
HOW = "regenerate with `python -m tests.render.regenerate` and review the diff"
# A run of this many words of a third-party description found in a golden file counts as quoted text.
QUOTE_WORDS = 5


def _check(name: str, body: str) -> None:
    path = golden_path(name)
    assert path.exists(), f"{path} is missing: {HOW}"
    assert body == path.read_text(), f"the comment of {name} changed: {HOW}"
    assert visible_lines(body) <= VISIBLE_LINE_BUDGET and len(body) < GITHUB_COMMENT_LIMIT


def test_demo_comment_matches_its_golden_file() -> None:
    _check("demo", demo_comment())


@pytest.mark.parametrize("name", SUCCESSOR_FIXTURES)
def test_successor_comments_match_their_golden_files(name: str) -> None:
    _check(f"successors_{name}", successor_comment(name))


def _texts(value: Any) -> Iterator[str]:
    """Every description and title in a tool listing, at any depth (parameters included)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("description", "title") and isinstance(item, str):
                yield item
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def _quotes(path: Path) -> set[str]:
    runs: set[str] = set()
    for text in _texts(json.loads(path.read_text())["tools"]):
        words = re.findall(r"[A-Za-z0-9']+", text)
        runs.update(" ".join(words[i : i + QUOTE_WORDS]) for i in range(len(words) - QUOTE_WORDS + 1))
    return runs


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize("name", pair_names(PAIRS) if PAIRS.is_dir() else ["(no pairs)"])
def test_pair_comment_matches_its_golden_file_and_quotes_no_description(name: str) -> None:
    if not PAIRS.is_dir():
        pytest.skip(f"{PAIRS} is absent: the shared corpora are not next to this checkout")
    comparison = pair_comparison(PAIRS, name)
    body = pair_comment(PAIRS, name, comparison)
    _check(name, body)
    plain = " ".join(re.findall(r"[A-Za-z0-9']+", body))
    requests = {" ".join(re.findall(r"[A-Za-z0-9']+", c.intent)) for c in comparison.head.cases}
    shown = sorted(r for r in requests if len(r.split()) >= 3 and r in plain)
    assert not shown, f"{name}: the golden comment shows generated requests: {shown[:3]}"
    for side in ("base", "head"):
        leaked = sorted(q for q in _quotes(PAIRS / f"{name}__{side}.json") if q in plain)
        assert not leaked, f"{name}: the golden comment quotes description text: {leaked[:3]}"


def test_the_fourteen_pairs_have_golden_files() -> None:
    if not PAIRS.is_dir():
        pytest.skip(f"{PAIRS} is absent: the shared corpora are not next to this checkout")
    names = pair_names(PAIRS)
    assert len(names) == 14
    assert all(golden_path(n).exists() for n in names), HOW
