"""Inline SVG charts drawn on the server: the score bar chart and the tool-confusion heat map, with text
alternatives (<title>, <desc>, aria-label) and data attributes that carry the numbers drawn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape

from app.audit.results import ConfusionPair

# Chart geometry in SVG user units; the SVG scales to its container (viewBox), so these are proportions.
LABEL_WIDTH = 170
BAR_SPAN = 300  # a score of 100 is this wide
VALUE_WIDTH = 125
ROW_HEIGHT = 34
BAR_HEIGHT = 11
# A heat map wider than this many tools would be unreadable on a phone; the rest are listed in the table.
MAX_HEATMAP_TOOLS = 12
CELL = 30


def bar_width(value: float) -> float:
    """Width of a bar for a 0-100 score, rounded to 0.01 units (the browser test reads it back)."""
    return round(max(0.0, min(100.0, value)) / 100 * BAR_SPAN, 2)


def _fmt(value: float) -> str:
    return f"{value:.1f}"


def score_chart(rows: Sequence[dict[str, Any]], *, overall: dict[str, float | None]) -> Markup:
    """Horizontal bars per dimension (and overall): base in grey when there is a base, head in colour.

    `rows` are the view rows of app.render.views.dimension_rows (label, head, optional base).
    """
    all_rows = [*rows, {"key": "overall", "label": "Overall", "head": overall["head"], "base": overall.get("base")}]
    has_base = any(r.get("base") is not None for r in all_rows)
    height = ROW_HEIGHT * len(all_rows) + 24
    width = LABEL_WIDTH + BAR_SPAN + VALUE_WIDTH
    parts: list[str] = []
    summary = "; ".join(
        f"{r['label']}: {_fmt(r['base']) + ' to ' if r.get('base') is not None else ''}{_fmt(r['head'])}"
        for r in all_rows
    )
    title = "Scores before and after (0-100)" if has_base else "Scores (0-100)"
    parts.append(
        f'<svg class="chart scores" viewBox="0 0 {width} {height}" role="img" aria-labelledby="scores-title '
        f'scores-desc" xmlns="http://www.w3.org/2000/svg" data-scale="{BAR_SPAN}">'
    )
    parts.append(f'<title id="scores-title">{escape(title)}</title>')
    parts.append(f'<desc id="scores-desc">{escape(summary)}</desc>')
    for tick in (0, 25, 50, 75, 100):
        x = LABEL_WIDTH + bar_width(tick)
        parts.append(f'<line class="grid" x1="{x}" y1="0" x2="{x}" y2="{height - 18}"/>')
        parts.append(f'<text class="tick" x="{x}" y="{height - 4}" text-anchor="middle">{tick}</text>')
    for i, row in enumerate(all_rows):
        y = i * ROW_HEIGHT + 6
        strong = ' font-weight="700"' if row["key"] == "overall" else ""
        parts.append(
            f'<text class="label" x="{LABEL_WIDTH - 8}" y="{y + BAR_HEIGHT + 4}" text-anchor="end"{strong}>'
            f"{escape(row['label'])}</text>"
        )
        sides = [("base", row.get("base")), ("head", row["head"])] if has_base else [("head", row["head"])]
        for j, (side, value) in enumerate(sides):
            if value is None:
                continue
            by = y + j * (BAR_HEIGHT + 2) if has_base else y + BAR_HEIGHT // 2
            parts.append(
                f'<rect class="bar {side}{" overall" if row["key"] == "overall" else ""}" x="{LABEL_WIDTH}" '
                f'y="{by}" width="{bar_width(value)}" height="{BAR_HEIGHT}" rx="2" '
                f'data-dimension="{row["key"]}" data-side="{side}" data-value="{_fmt(value)}">'
                f"<title>{escape(row['label'])} {side}: {_fmt(value)}</title></rect>"
            )
        value_text = (
            f"{_fmt(row['base'])} → {_fmt(row['head'])}"
            if has_base and row.get("base") is not None
            else _fmt(row["head"])
        )
        parts.append(
            f'<text class="value" x="{LABEL_WIDTH + BAR_SPAN + 8}" y="{y + BAR_HEIGHT + 4}"{strong}>'
            f"{escape(value_text)}</text>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def heatmap_tools(pairs: Sequence[ConfusionPair]) -> list[str]:
    """The tools the heat map shows: those in the most confused pairs, in name order, at most MAX_HEATMAP_TOOLS."""
    ranked = sorted(pairs, key=lambda p: (-p.count, p.expected, p.selected))
    tools: list[str] = []
    for pair in ranked:
        for name in (pair.expected, pair.selected):
            if name not in tools and len(tools) < MAX_HEATMAP_TOOLS:
                tools.append(name)
    return sorted(tools)


def confusion_heatmap(pairs: Sequence[ConfusionPair]) -> Markup:
    """Rows: the expected tool; columns: the tool selected instead; colour: share of the expected tool's cases."""
    tools = heatmap_tools(pairs)
    if not tools:
        return Markup("")
    cells = {(p.expected, p.selected): p for p in pairs}
    label_w = 190
    top = 150
    width = label_w + CELL * len(tools) + 90  # room for the last rotated column label
    height = top + CELL * len(tools) + 10
    shown = [p for p in pairs if p.expected in tools and p.selected in tools]
    desc = "; ".join(
        f"{p.expected} went to {p.selected} in {p.count} case{'s' if p.count != 1 else ''} ({p.rate:.0%})"
        for p in sorted(shown, key=lambda p: (-p.count, p.expected, p.selected))
    )
    parts = [
        f'<svg class="chart heatmap" viewBox="0 0 {width} {height}" role="img" aria-labelledby="heat-title heat-desc" '
        f'xmlns="http://www.w3.org/2000/svg">',
        '<title id="heat-title">Confusion between tools: expected (rows) against selected (columns)</title>',
        f'<desc id="heat-desc">{escape(desc)}</desc>',
    ]
    for j, name in enumerate(tools):
        x = label_w + j * CELL + CELL / 2
        parts.append(
            f'<text class="col" transform="translate({x + 4},{top - 6}) rotate(-55)">{escape(_short(name))}'
            f"<title>{escape(name)}</title></text>"
        )
    for i, expected in enumerate(tools):
        y = top + i * CELL
        parts.append(
            f'<text class="row" x="{label_w - 6}" y="{y + CELL / 2 + 4}" text-anchor="end">{escape(_short(expected))}'
            f"<title>{escape(expected)}</title></text>"
        )
        for j, selected in enumerate(tools):
            x = label_w + j * CELL
            pair = cells.get((expected, selected))
            rate = pair.rate if pair else 0.0
            count = pair.count if pair else 0
            cls = "cell diag" if expected == selected else ("cell" if count else "cell empty")
            parts.append(
                f'<rect class="{cls}" x="{x}" y="{y}" width="{CELL - 2}" height="{CELL - 2}" '
                f'fill-opacity="{0.15 + 0.85 * rate if count else 1:.3f}" data-expected="{escape(expected)}" '
                f'data-selected="{escape(selected)}" data-count="{count}" data-rate="{rate:.3f}">'
                f"<title>{escape(expected)} → {escape(selected)}: {count} ({rate:.0%})</title></rect>"
            )
            if count:
                shade = " dark" if rate >= 0.5 else ""
                parts.append(
                    f'<text class="count{shade}" x="{x + (CELL - 2) / 2}" y="{y + CELL / 2 + 3}" '
                    f'text-anchor="middle">{count}</text>'
                )
    parts.append("</svg>")
    return Markup("".join(parts))


def _short(name: str, n: int = 24) -> str:
    return name if len(name) <= n else name[: n - 1] + "…"
