"""Golden PR comments: the demo's and those of the real before/after pairs in ../shared/corpora/pairs/.

The demo's comment is our own text and is kept as rendered. A pair's comment quotes text derived from
third-party tool descriptions (generated requests, finding messages, the poisoning rule's quotes), which
the project must not contain: `mask` replaces every such text in the comparison with a stable placeholder
(`‹request 3›`, the case's place in the suite; `‹message›`) before rendering, at generation and at
comparison alike. Tool names, numbers, SHAs and the layout stay visible for a review by eye.

Regenerate every golden file with `python -m tests.render.regenerate`.
"""

from __future__ import annotations

import json
from pathlib import Path

from app.audit.engine import audit_pair
from app.audit.loader import load_definitions
from app.audit.models import Finding
from app.audit.results import CaseDelta, Comparison
from app.audit.suite.cases_file import load_cases
from app.render.markdown import render_comparison
from app.selector_factory import synthetic_selector

GOLDEN = Path(__file__).resolve().parent / "golden"
DEMO = Path(__file__).resolve().parents[2] / "app" / "demo"
# The demo has no commits; its refs are the file names, as `toolchoice demo` prints them.
DEMO_REFS = ("demo/before.json", "demo/after.json")
# A report link as the App adds it, so the goldens show the footer a pull request gets.
REPORT_URL = "https://toolchoice.example/reports/golden"
MESSAGE = "‹message›"


def demo_comparison() -> Comparison:
    before = load_definitions(DEMO_REFS[0], text=(DEMO / "before.json").read_text())
    after = load_definitions(DEMO_REFS[1], text=(DEMO / "after.json").read_text())
    cases = load_cases("demo/cases.yaml", text=(DEMO / "cases.yaml").read_text())
    return audit_pair(
        before,
        after,
        selector=synthetic_selector(),
        user_cases=cases,
        base_ref=DEMO_REFS[0],
        head_ref=DEMO_REFS[1],
    )


def pair_names(pairs_dir: Path) -> list[str]:
    """The pairs' names: file names without `__base.json`, sorted."""
    return sorted(p.name.removesuffix("__base.json") for p in pairs_dir.glob("*__base.json"))


def pair_comparison(pairs_dir: Path, name: str) -> Comparison:
    """The pair audited as `toolchoice diff` does it, between the commits its files were read at."""
    sides = []
    for side in ("base", "head"):
        path = pairs_dir / f"{name}__{side}.json"
        text = path.read_text()
        sides.append((load_definitions(path.name, text=text), json.loads(text)["source"]["commit"]))
    (base, base_sha), (head, head_sha) = sides
    return audit_pair(base, head, selector=synthetic_selector(), base_ref=base_sha, head_ref=head_sha)


def mask(comparison: Comparison) -> Comparison:
    """The comparison with every text derived from the tool descriptions replaced by a placeholder."""
    places = {c.id: i for i, c in enumerate(comparison.head.cases, start=1)}

    def deltas(items: list[CaseDelta]) -> list[CaseDelta]:
        return [d.model_copy(update={"intent": f"‹request {places.get(d.case_id, 0)}›", "why": MESSAGE}) for d in items]

    def findings(items: list[Finding]) -> list[Finding]:
        return [f.model_copy(update={"message": MESSAGE}) for f in items]

    sides = {
        side: report.model_copy(update={"findings": findings(report.findings)})
        for side, report in (("base", comparison.base), ("head", comparison.head))
    }
    return comparison.model_copy(
        update={
            **sides,
            "regressions": deltas(comparison.regressions),
            "improvements": deltas(comparison.improvements),
            "unstable": deltas(comparison.unstable),
            "coverage": deltas(comparison.coverage),
            "findings_introduced": findings(comparison.findings_introduced),
            "findings_resolved": findings(comparison.findings_resolved),
        }
    )


def demo_comment() -> str:
    return render_comparison(demo_comparison(), report_url=REPORT_URL)


def pair_comment(pairs_dir: Path, name: str, comparison: Comparison | None = None) -> str:
    """The masked comment of a pair (of `comparison`, when the caller has already audited it)."""
    comparison = comparison or pair_comparison(pairs_dir, name)
    return render_comparison(mask(comparison), report_url=REPORT_URL)


# Before/after tool sets in our own words showing successors (tests/fixtures/successors/): a merge into one tool
# with an action, a split of one tool into two, a rename. Their comments are kept unmasked.
SUCCESSOR_FIXTURES = ("merge", "split", "rename")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "successors"


def successor_comment(name: str) -> str:
    """The comment of a successor fixture, between refs named after its files."""
    refs = (f"{name}_base.json", f"{name}_head.json")
    base, head = (load_definitions(ref, text=(FIXTURES / ref).read_text()) for ref in refs)
    comparison = audit_pair(base, head, selector=synthetic_selector(), base_ref=refs[0], head_ref=refs[1])
    return render_comparison(comparison, report_url=REPORT_URL)


def golden_path(name: str) -> Path:
    return GOLDEN / f"{name}.md"
