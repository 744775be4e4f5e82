"""Rewrite the golden PR comments: `python -m tests.render.regenerate` (then review the diff by eye).

Writes tests/render/golden/demo.md, one file per pair of ../shared/corpora/pairs/ when the corpus is next
to this checkout (masked: see tests/render/goldens.py), and the screenshot of the demo's comment in
docs/pr-comment.png when Debian's chromium and Playwright are installed.
"""

from __future__ import annotations

import sys

from tests.browser.comment_page import CHROMIUM, screenshot
from tests.conftest import ROOT, SHARED
from tests.render.goldens import (
    GOLDEN,
    SUCCESSOR_FIXTURES,
    demo_comment,
    golden_path,
    pair_comment,
    pair_names,
    successor_comment,
)


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    written = [golden_path("demo")]
    written[0].write_text(demo_comment())
    for name in SUCCESSOR_FIXTURES:
        path = golden_path(f"successors_{name}")
        path.write_text(successor_comment(name))
        written.append(path)
    pairs_dir = SHARED / "corpora" / "pairs"
    if pairs_dir.is_dir():
        for name in pair_names(pairs_dir):
            path = golden_path(name)
            path.write_text(pair_comment(pairs_dir, name))
            written.append(path)
    else:
        print(f"{pairs_dir} is absent: only the demo's golden comment was written", file=sys.stderr)
    picture = ROOT / "docs" / "pr-comment.png"
    if CHROMIUM.exists():
        screenshot(written[0].read_text(), picture)
        written.append(picture)
    else:
        print(f"{CHROMIUM} is absent: {picture.name} was not redrawn", file=sys.stderr)
    for path in written:
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
