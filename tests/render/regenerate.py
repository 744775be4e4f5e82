"""Rewrite the golden PR comments: `python -m tests.render.regenerate` (then review the diff by eye).

Writes tests/render/golden/demo.md, and one file per pair of ../shared/corpora/pairs/ when the corpus is
next to this checkout (masked: see tests/render/goldens.py).
"""

from __future__ import annotations

import sys

from tests.conftest import SHARED
from tests.render.goldens import GOLDEN, demo_comment, golden_path, pair_comment, pair_names


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    written = [golden_path("demo")]
    written[0].write_text(demo_comment())
    pairs_dir = SHARED / "corpora" / "pairs"
    if pairs_dir.is_dir():
        for name in pair_names(pairs_dir):
            path = golden_path(name)
            path.write_text(pair_comment(pairs_dir, name))
            written.append(path)
    else:
        print(f"{pairs_dir} is absent: only the demo's golden comment was written", file=sys.stderr)
    for path in written:
        print(path.relative_to(GOLDEN.parents[2]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
