"""The PR comment as GitHub shows it: GitHub-flavored Markdown (markdown-it-py: CommonMark, tables, raw HTML
for <details>, a line break per newline as in comments) inside a plain page styled like a comment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

CHROMIUM = Path("/usr/bin/chromium")
# Browsers cannot be downloaded here: Debian's chromium, with nothing that phones home.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Our own approximation of a comment box: system fonts, bordered tables, a quiet blockquote.
STYLE = """
body { margin: 0; background: #fff; }
.comment { max-width: 860px; margin: 16px; border: 1px solid #d0d7de; border-radius: 6px; padding: 16px 20px;
  font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
h3 { font-size: 1.25em; margin: 0 0 8px; }
h4 { font-size: 1em; margin: 16px 0 8px; }
table { border-collapse: collapse; margin: 8px 0; display: block; overflow: auto; }
th, td { border: 1px solid #d0d7de; padding: 4px 10px; }
th { background: #f6f8fa; font-weight: 600; }
code { background: #eff1f3; border-radius: 4px; padding: 0.1em 0.35em; font-size: 85%; }
blockquote { margin: 8px 0; padding: 0 12px; border-left: 4px solid #d0d7de; color: #59636e; }
details { margin: 2px 0; }
summary { cursor: pointer; }
"""


def to_html(markdown: str) -> str:
    renderer = MarkdownIt("commonmark", {"html": True, "breaks": True}).enable("table")
    body = renderer.render(markdown)
    head = f'<meta charset="utf-8"><style>{STYLE}</style>'
    return f'<!doctype html><html><head>{head}</head><body><div class="comment">{body}</div></body></html>'


def open_comment(browser: Any, markdown: str, *, width: int = 960) -> Any:
    """A page showing `markdown` as a comment (JavaScript off); the caller closes its context."""
    context = browser.new_context(viewport={"width": width, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    page.set_content(to_html(markdown))
    return page


def screenshot(markdown: str, path: Path) -> None:
    """Save a screenshot of the comment (the collapsed blocks closed, as a reader first sees it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = open_comment(browser, markdown)
        page.locator(".comment").screenshot(path=str(path))
        page.context.close()
        browser.close()
