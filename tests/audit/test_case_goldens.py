"""Every generated case of the demo, our successor fixtures and the 21 shared servers, as the golden dumps hold it
(tests/audit/case_goldens.py; regenerate with `python -m tests.audit.case_goldens` and review the diff)."""

from __future__ import annotations

import difflib
import json

import pytest

from tests.audit.case_goldens import GOLDEN, dump, golden_path, lines, sources, third_party

SOURCES = sources()


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_generated_cases_match_their_golden(name: str) -> None:
    cases = SOURCES[name]()
    want = golden_path(name).read_text(encoding="utf-8")
    got = dump(lines(name, cases))
    if got == want:
        return
    diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "golden", "now", n=0))
    if third_party(name):
        # The golden holds hashes: show the requests as generated now beside the lines that changed.
        changed = {json.loads(line[1:])["id"] for line in diff.splitlines() if line.startswith("+{")}
        diff += "".join(f"\n  {c.id}: {c.intent}" for c in cases if c.id in changed)
    pytest.fail(f"generated cases of {name} differ from {golden_path(name).relative_to(GOLDEN.parent)}:\n{diff}")


def test_every_golden_file_has_a_source() -> None:
    """A golden whose source is gone (a fixture renamed, a server dropped) is not left behind unchecked."""
    names = {str(p.relative_to(GOLDEN).with_suffix("")) for p in GOLDEN.rglob("*.jsonl")}
    shared = {n for n in names if third_party(n)}
    if not any(third_party(n) for n in SOURCES):
        names -= shared  # the corpus is not next to this checkout
    assert names == set(SOURCES)
