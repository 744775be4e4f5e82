"""The demo's PR comment rendered as GitHub-flavored Markdown in Debian's chromium: its tables are tables,
every <details> block is closed until a reader opens it, and one click opens one."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.comment_page import CHROMIUM, open_comment
from tests.render.goldens import demo_comment

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = [
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="/usr/bin/chromium is absent (apt-get install chromium; .ci/run installs it)"
    ),
    pytest.mark.slow,  # a browser start, a few seconds
]


def test_tables_render_and_details_are_closed(browser: Any) -> None:
    body = demo_comment()
    page = open_comment(browser, body)
    # Every Markdown table (a delimiter row) became an HTML table with its header cells.
    delimiter_rows = [line for line in body.splitlines() if re.fullmatch(r"\|(-+:?\|)+|\|(---:?\|)+", line)]
    tables = page.locator("table")
    assert tables.count() == len(delimiter_rows) >= 3
    assert page.locator("table").first.locator("th").count() == 5
    assert "Selection accuracy" in page.locator("table").first.inner_text()
    # The score table and the changed tools are in sight; no pipe of a table was left as text.
    assert page.locator("table").nth(0).is_visible() and page.locator("table").nth(1).is_visible()
    assert "|---" not in page.inner_text("body")
    # Closed by default: nothing inside a <details> is visible, its summary is.
    details = page.locator("details")
    assert details.count() >= 2
    assert page.eval_on_selector_all("details", "els => els.map(e => e.open)") == [False] * details.count()
    for i in range(details.count()):
        assert details.nth(i).locator("summary").is_visible()
        assert not details.nth(i).locator("table").first.is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".comment").screenshot(path=str(ARTIFACTS / "pr-comment.png"))
    # One click on a summary opens its block (the browser's own behaviour, JavaScript off).
    details.first.locator("summary").click()
    assert details.first.locator("table").first.is_visible()
    page.context.close()
