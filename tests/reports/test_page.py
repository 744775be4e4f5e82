"""The HTML page: labels on top, bars that match the scores, regressions first, cases, escaping, offline command."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from app.audit.models import Case, CaseStatus, Mode, Provenance
from app.audit.results import AuditReport, Comparison, Run
from app.render.html_page import read_export, render_html
from app.render.json_export import export_json
from app.render.svg import BAR_SPAN, bar_width
from reports.conftest import leaks
from reports.seeded_secrets import Seeded

ROOT = Path(__file__).resolve().parents[2]


def _bars(page: str) -> dict[tuple[str, str], tuple[float, float]]:
    """(dimension, side) -> (width drawn, value written) of every bar of the score chart."""
    out = {}
    for m in re.finditer(r'<rect class="bar [^"]*"[^>]*>', page):
        tag = m.group(0)
        attr = dict(re.findall(r'([a-z-]+)="([^"]*)"', tag))
        out[(attr["data-dimension"], attr["data-side"])] = (float(attr["width"]), float(attr["data-value"]))
    return out


def test_top_of_the_page_carries_mode_suite_and_provenance(demo_comparison: Comparison) -> None:
    page = render_html(demo_comparison)
    assert 'data-mode="synthetic"' in page
    assert 'id="circularity-note"' in page and "not evidence that a real model" in page
    assert demo_comparison.suite_hash[:16] in page
    counts = demo_comparison.head.provenance.scored
    for label, n in counts.items():
        assert f"<strong>{n}</strong> {label}" in page


def test_bars_match_the_scores(demo_comparison: Comparison) -> None:
    bars = _bars(render_html(demo_comparison))
    head, base = demo_comparison.head, demo_comparison.base
    for key, value in head.scores.as_dict().items():
        width, written = bars[(key, "head")]
        assert written == round(value, 1)
        assert width == bar_width(value) == round(value / 100 * BAR_SPAN, 2)
        assert bars[(key, "base")][0] == bar_width(base.scores.as_dict()[key])
    assert bars[("overall", "head")][0] == bar_width(head.overall)


def test_regressions_come_first_and_failures_lead_the_case_table(demo_comparison: Comparison) -> None:
    page = render_html(demo_comparison)
    order = [page.index(f'id="{s}"') for s in ("regressions", "improvements", "findings", "cases", "exploratory")]
    assert order == sorted(order)
    first = re.search(r'<tr class="[^"]*" data-kind="(\w+)" data-case="([^"]+)"', page)
    assert first is not None and first.group(1) == "regression"
    assert first.group(2) == demo_comparison.regressions[0].case_id
    cases = page[page.index('id="cases"') : page.index('id="exploratory"')]
    passed = re.findall(r'data-passed="(true|false)"', cases)
    assert passed and passed == sorted(passed, key=lambda p: p == "true")


def test_exploratory_cases_are_shown_apart(demo_comparison: Comparison) -> None:
    page = render_html(demo_comparison)
    exploratory = page[page.index('id="exploratory"') :]
    scored = page[page.index('id="cases"') : page.index('id="exploratory"')]
    for case in demo_comparison.head.cases:
        marker = f'data-case="{case.id}" data-passed'
        if case.status == CaseStatus.EXPLORATORY:
            assert marker in exploratory and marker not in scored
        else:
            assert marker in scored


def test_every_case_row_carries_what_the_selector_said(demo_comparison: Comparison) -> None:
    page = render_html(demo_comparison)
    run = next(r for r in demo_comparison.head.runs if r.arguments and r.reason)
    row = page[page.index(f'data-case="{run.case_id}" data-passed') :]
    row = row[: row.index("</tr>")]
    from markupsafe import escape

    assert f"{run.confidence:.2f}" in row
    assert ('<span class="pass">pass</span>' in row) is run.passed
    assert run.selected in row and str(escape(run.reason)) in row and str(escape(run.why)) in row
    first_argument = next(iter(run.arguments))
    assert f"&#34;{first_argument}&#34;" in row


def test_heatmap_and_chart_have_text_alternatives(demo_comparison: Comparison) -> None:
    page = render_html(demo_comparison)
    assert page.count('role="img"') == 2
    assert '<title id="scores-title">' in page and '<desc id="heat-desc">' in page
    pair = demo_comparison.head.confusion[0]
    assert f'data-expected="{pair.expected}" data-selected="{pair.selected}" data-count="{pair.count}"' in page
    assert 'id="confusion-table"' in page and 'id="scores-table"' in page


def test_live_model_label_shows_model_settings_and_tokens(demo_comparison: Comparison) -> None:
    head = demo_comparison.head
    selector = head.selector.model_copy(
        update={"mode": Mode.LIVE_MODEL, "name": "openai", "settings": {"model": "gpt-x", "temperature": 0}}
    )
    live = head.model_copy(
        update={
            "mode": Mode.LIVE_MODEL,
            "selector": selector,
            "totals": {**head.totals, "model_calls": 12, "prompt_tokens": 3456, "completion_tokens": 78},
            "notes": [],
        }
    )
    page = render_html(live)
    assert 'data-mode="live_model"' in page and "circularity-note" not in page
    details = page[page.index('id="live-details"') :][:800]
    assert "gpt-x" in details and "temperature" in details
    assert "<strong>3456</strong>" in details and "<strong>78</strong>" in details


def test_untrusted_text_is_escaped(demo_comparison: Comparison) -> None:
    head = demo_comparison.head
    case = Case(
        id="x-1", intent="<script>alert(1)</script> & <b>", expected="NO_TOOL", provenance=Provenance.USER_DEFINED
    )
    run = Run(case_id="x-1", expected="NO_TOOL", selected="<img src=x>", passed=False, why="<i>why</i>")
    report = head.model_copy(update={"cases": [*head.cases, case], "runs": [*head.runs, run]})
    page = render_html(report)
    assert "<script>" not in page and "<img src=x>" not in page and "<i>why</i>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;" in page


def test_the_page_redacts_whatever_it_is_given(leaky_comparison: Comparison, secrets_set: list[Seeded]) -> None:
    page = render_html(leaky_comparison)
    assert leaks(page, secrets_set) == []
    assert "[REDACTED:github-token]" in page and "[REDACTED:url-password]" in page


def test_no_external_resources_and_no_script(demo_comparison: Comparison) -> None:
    page = render_html(demo_comparison)
    assert "<script" not in page and "<link" not in page
    assert not re.search(r'(src|href)="(https?:)?//', page.replace('href="http://', ""))


def test_an_audit_renders_without_base(demo_comparison: Comparison) -> None:
    page = render_html(demo_comparison.head)
    bars = _bars(page)
    assert all(side == "head" for _, side in bars)
    assert 'id="regressions"' not in page


def test_export_with_coverage_changes_reads_back(demo_comparison: Comparison) -> None:
    from app.audit.results import CaseDelta

    delta = CaseDelta(
        case_id="c",
        intent="i",
        expected="t",
        provenance=Provenance.USER_DEFINED,
        before_selected=None,
        after_selected="t",
        kind="coverage_added",
    )
    comparison = demo_comparison.model_copy(update={"coverage": [delta]})
    back = read_export(export_json(comparison))
    assert isinstance(back, Comparison) and back.coverage[0].before_selected is None


def test_report_command_renders_offline(tmp_path: Path, demo_comparison: Comparison) -> None:
    export = tmp_path / "demo.json"
    export.write_text(export_json(demo_comparison))
    out = tmp_path / "demo.html"
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "report", str(export), "--html", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert 'data-mode="synthetic"' in out.read_text()
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema_version": "toolchoice.export/1", "kind": "audit"}')
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "report", str(bad), "--html", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2 and "bad.json" in done.stderr and "Traceback" not in done.stderr


def test_audit_report_type(demo_comparison: Comparison) -> None:
    assert isinstance(read_export(export_json(demo_comparison.head)), AuditReport)
