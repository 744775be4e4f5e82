"""The report page in a real browser (Debian's chromium driven by Playwright): what a person sees, on a wide
screen and a phone, with JavaScript off; screenshots go to test-artifacts/."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI

from app.audit.models import Case, Provenance
from app.audit.results import Comparison, Run
from app.reports.ratelimit import MemoryRateLimiter
from app.reports.service import DAY, ReportService
from app.reports.store import LocalReportStore
from app.web.reports import reports_router
from tests.browser.comment_page import CHROMIUM

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# A fake GitHub token (generated pattern, not a real credential) that a user-defined case carries.
FAKE_TOKEN = "ghp_" + "Zq8Xk2Lm4Np6Rs8Tv0Wx2Yz4Ab6Cd8Ef0Gh"

pytestmark = [
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="/usr/bin/chromium is absent (apt-get install chromium; .ci/run installs it)"
    ),
    # About 10 s with the browser start and a full-page screenshot (measured on the 2-core machine).
    pytest.mark.slow,
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _with_secret_case(comparison: Comparison) -> Comparison:
    """The demo comparison plus a user-defined case whose request holds a token, as people paste them."""
    case = Case(
        id="user-secret",
        intent=f"Post the deploy token {FAKE_TOKEN} to the release channel",
        expected="send_message",
        provenance=Provenance.USER_DEFINED,
    )
    run = Run(
        case_id="user-secret",
        expected="send_message",
        selected="send_message",
        arguments={"text": f"token {FAKE_TOKEN}"},
        confidence=0.81,
        reason="matched 'post', 'channel'",
        passed=True,
        why="selected send_message",
    )
    head = comparison.head.model_copy(
        update={"cases": [*comparison.head.cases, case], "runs": [*comparison.head.runs, run]}
    )
    return comparison.model_copy(update={"head": head})


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, demo_comparison: Comparison) -> Iterator[tuple[str, Comparison]]:
    service = ReportService(
        LocalReportStore(tmp_path_factory.mktemp("reports")),
        public_url="http://127.0.0.1",
        retention_seconds=90 * DAY,
        anonymous_retention_seconds=7 * DAY,
        link_secret="browser-test-key",
    )
    comparison = _with_secret_case(demo_comparison)
    stored = service.save(comparison, installation_id=None, private=False)
    app = FastAPI()
    app.include_router(
        reports_router(service, limiter=MemoryRateLimiter(limit=5, window_seconds=60), max_body_bytes=1000)
    )
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}/reports/{stored.id}", comparison
    finally:
        server.should_exit = True
        thread.join(timeout=5)


def test_a_person_sees_labels_scores_bars_regressions_and_markers(browser: Any, served: tuple[str, Comparison]) -> None:
    url, comparison = served
    ARTIFACTS.mkdir(exist_ok=True)
    # JavaScript off: everything below must be readable without it.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    response = page.goto(url)
    assert response is not None and response.status == 200

    assert page.locator("#mode-label").inner_text().strip() == "synthetic"
    assert page.locator("#circularity-note").is_visible()
    overall = page.locator("#overall").inner_text()
    assert overall == f"{comparison.base.overall:.1f} → {comparison.head.overall:.1f}"
    assert page.locator("#regression-count").inner_text() == str(len(comparison.regressions))

    # Bars as drawn on screen: each bar's rendered width over the 100-point span equals its score.
    span = page.locator("svg.scores").get_attribute("data-scale")
    assert span is not None
    svg_box = page.locator("svg.scores").bounding_box()
    assert svg_box is not None
    view_width = float(page.locator("svg.scores").get_attribute("viewBox").split()[2])
    pixels_per_unit = svg_box["width"] / view_width
    for key, value in [*comparison.head.scores.as_dict().items(), ("overall", comparison.head.overall)]:
        bar = page.locator(f'rect.bar[data-dimension="{key}"][data-side="head"]')
        assert float(bar.get_attribute("data-value")) == round(value, 1)
        box = bar.bounding_box()
        assert box is not None
        drawn = box["width"] / pixels_per_unit
        assert drawn == pytest.approx(value / 100 * float(span), abs=0.6), key
    base_bar = page.locator('rect.bar[data-dimension="overall"][data-side="base"]').bounding_box()
    assert base_bar is not None
    assert base_bar["width"] / pixels_per_unit == pytest.approx(comparison.base.overall / 100 * float(span), abs=0.6)

    # Regressions come first: the first section after the scores, and the first row is a regression.
    ids = [page.locator("main > section").nth(i).get_attribute("id") for i in range(3)]
    assert ids[:2] == ["scores", "regressions"]
    first_row = page.locator("#regressions tbody tr").first
    assert first_row.get_attribute("data-kind") == "regression"
    assert first_row.get_attribute("data-case") == comparison.regressions[0].case_id
    assert comparison.regressions[0].intent in first_row.inner_text()

    # The pasted token shows as a marker, never as itself.
    secret_row = page.locator('#cases tr[data-case="user-secret"]')
    assert "[REDACTED:github-token]" in secret_row.inner_text()
    assert FAKE_TOKEN not in page.content()
    page.screenshot(path=str(ARTIFACTS / "report-wide.png"), full_page=True)
    context.close()


def test_readable_on_a_phone(browser: Any, served: tuple[str, Comparison]) -> None:
    url, _ = served
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, java_script_enabled=False
    )
    page = context.new_page()
    page.goto(url)
    # Nothing wider than the screen but the tables, which scroll inside their own boxes.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for selector in ("header.top", "#scores", "#regressions"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, selector
    chart = page.locator("svg.scores").bounding_box()
    assert chart is not None and chart["width"] <= 390
    assert page.locator("#overall").is_visible()
    page.screenshot(path=str(ARTIFACTS / "report-phone.png"), full_page=False)
    context.close()


def test_private_link_without_signature_is_404_in_the_browser(browser: Any, served: tuple[str, Comparison]) -> None:
    url, _ = served
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    response = page.goto(url.rsplit("/", 1)[0] + "/" + "B" * 24)
    assert response is not None and response.status == 404
    assert "No such report" in page.inner_text("body")
    context.close()
