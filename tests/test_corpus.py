"""The engine on real MCP servers' tool sets and real before/after pairs from their history."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.audit.engine import audit, audit_pair
from app.audit.loader import load_definitions
from app.audit.suite.build import build_suite
from app.audit.synthetic.selector import SyntheticSelector
from app.render.json_export import export_json
from app.render.markdown import render_comparison
from app.selector_factory import synthetic_selector
from tests.conftest import SHARED, shared_path

# Every real server and pair through the whole audit: minutes with the sentence embedding, so CI's slow run has them.
pytestmark = [pytest.mark.corpus, pytest.mark.slow]

SERVERS = sorted((SHARED / "corpora" / "servers").glob("*.json"))
PAIRS = sorted({p.name.rsplit("__", 1)[0] for p in (SHARED / "corpora" / "pairs").glob("*__base.json")})


def load(path: Path):
    return load_definitions(path.name, text=path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def selector() -> SyntheticSelector:
    return synthetic_selector()


@pytest.mark.parametrize("path", SERVERS or [None], ids=lambda p: p.stem if p else "absent")
def test_audit_every_real_server(path: Path | None, selector: SyntheticSelector) -> None:
    if path is None:
        shared_path("corpora", "servers")
        pytest.skip("no server files")
    toolset = load(path)
    assert toolset.tools and not toolset.load_findings
    report = audit(toolset, suite=build_suite([toolset]), selector=selector)
    assert 0 <= report.overall <= 100
    assert all(0 <= v <= 100 for v in report.scores.as_dict().values())
    undocumented = {t.name for t in toolset.tools if not (t.description or "").strip()}
    flagged = {f.tool for f in report.findings if f.rule_id == "TC101"}
    assert undocumented <= flagged
    assert len(report.tool_scores) == len(toolset.tools)
    assert all(f.file == path.name for f in report.findings if f.file)


@pytest.mark.parametrize("pair", PAIRS or [None])
def test_diff_every_real_pair(pair: str | None, selector: SyntheticSelector) -> None:
    if pair is None:
        shared_path("corpora", "pairs")
        pytest.skip("no pairs")
    folder = SHARED / "corpora" / "pairs"
    base, head = load(folder / f"{pair}__base.json"), load(folder / f"{pair}__head.json")
    comparison = audit_pair(base, head, selector=selector)
    changed = {c.tool for c in comparison.tool_changes}
    truly_changed = {
        t.name for t in head.tools if t.name in base.by_name() and base.by_name()[t.name].definition() != t.definition()
    } | (set(head.names()) ^ set(base.names()))
    assert changed == truly_changed or {c.renamed_from for c in comparison.tool_changes} & truly_changed
    assert comparison.base.suite_hash == comparison.head.suite_hash
    body = render_comparison(comparison)
    assert len(body) <= 65_000 and "mode: `synthetic" in body


def test_audit_of_a_real_server_is_deterministic(selector: SyntheticSelector) -> None:
    path = shared_path("corpora", "servers", "modelcontextprotocol__servers__filesystem.json")
    toolset = load(path)
    first = export_json(audit(toolset, suite=build_suite([toolset]), selector=selector))
    again = export_json(audit(load(path), suite=build_suite([load(path)]), selector=synthetic_selector()))
    assert first == again
