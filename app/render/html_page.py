"""The HTML report page of an audit or a comparison (templates/report.html.j2), redacted before rendering."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from app.audit.engine import SYNTHETIC_NOTE
from app.audit.models import Finding, Mode
from app.audit.results import AuditReport, Comparison, Run
from app.redaction.redact import redact_result
from app.render.environment import render
from app.render.json_export import Export, load_export
from app.render.svg import confusion_heatmap, score_chart
from app.render.views import dimension_rows, mode_label

# Usage totals shown beside the mode label in live_model mode, in this order.
USAGE_KEYS = ("model_calls", "cached_calls", "prompt_tokens", "completion_tokens", "errors")
# A JSON argument value longer than this is shortened on the page (the JSON export keeps it whole).
ARGUMENTS_LIMIT = 400


def _arguments(run: Run) -> str:
    if not run.arguments:
        return ""
    text = json.dumps(run.arguments, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= ARGUMENTS_LIMIT else text[: ARGUMENTS_LIMIT - 1] + "…"


def _location(f: Finding) -> str:
    if not f.file:
        return ""
    if f.line and f.end_line and f.end_line != f.line:
        return f"{f.file}:{f.line}-{f.end_line}"
    return f"{f.file}:{f.line}" if f.line else f.file


def findings_by_tool(findings: list[Finding], *, introduced: set[Finding] | None = None) -> list[dict[str, Any]]:
    """Findings grouped per tool (tool-set findings first), each with its location and whether it is new."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for f in sorted(findings, key=Finding.sort_key):
        groups[f.tool or ""].append(
            {"f": f, "location": _location(f), "new": introduced is not None and f in introduced}
        )
    return [{"tool": tool, "items": groups[tool]} for tool in sorted(groups)]


def case_rows(head: AuditReport, base: AuditReport | None = None) -> list[dict[str, Any]]:
    """One row per case of the suite: the case's intent and labels with the head's run (and base's choice)."""
    runs = {r.case_id: r for r in head.runs}
    base_runs = {r.case_id: r for r in base.runs} if base else {}
    rows = []
    for case in head.cases:
        run = runs.get(case.id)
        if run is None:
            continue
        before = base_runs.get(case.id)
        rows.append(
            {
                "case": case,
                "run": run,
                "arguments": _arguments(run),
                "before": before.selected if before else None,
                "before_passed": before.passed if before else None,
                "not_run": run.why.startswith("not run"),
            }
        )
    # Failures first, then by id: what needs a look comes first.
    return sorted(rows, key=lambda r: (r["run"].passed, r["case"].id))


def live_details(report: AuditReport) -> dict[str, Any] | None:
    if report.mode != Mode.LIVE_MODEL:
        return None
    settings = report.selector.settings
    return {
        "model": settings.get("model") or report.selector.name,
        "settings": {k: v for k, v in sorted(settings.items()) if k != "model"},
        "usage": {k: report.totals[k] for k in USAGE_KEYS if k in report.totals},
        "models_returned": report.totals.get("models_returned", []),
    }


def html_context(
    result: AuditReport | Comparison, *, report_url: str | None = None, expires_at: datetime | None = None
) -> dict[str, Any]:
    comparison = result if isinstance(result, Comparison) else None
    head = comparison.head if comparison else result
    assert isinstance(head, AuditReport)
    base = comparison.base if comparison else None
    rows = dimension_rows(head, base)
    introduced = set(comparison.findings_introduced) if comparison else None
    cases = case_rows(head, base)
    notes = [n for n in (comparison.notes if comparison else head.notes) if n != SYNTHETIC_NOTE]
    return {
        "c": comparison,
        "head": head,
        "base": base,
        "mode": head.mode.value,
        "mode_label": mode_label(head),
        "synthetic": head.mode == Mode.SYNTHETIC,
        "synthetic_note": SYNTHETIC_NOTE,
        "live": live_details(head),
        "rows": rows,
        "score_svg": score_chart(rows, overall={"head": head.overall, "base": base.overall if base else None}),
        "heatmap_svg": confusion_heatmap(head.confusion),
        "confusion": sorted(head.confusion, key=lambda p: (-p.count, p.expected, p.selected)),
        "findings": findings_by_tool(head.findings, introduced=introduced),
        "scored_cases": [r for r in cases if r["case"].scored],
        "exploratory_cases": [r for r in cases if not r["case"].scored],
        "notes": notes,
        "report_url": report_url,
        "expires_at": expires_at.strftime("%Y-%m-%d %H:%M UTC") if expires_at else None,
    }


def read_export(text: str) -> AuditReport | Comparison:
    """The audit or comparison of a JSON export. The export drops null fields (exclude_none) that some models
    declare without a default (CaseDelta.before_selected of a coverage change); those come back as null."""
    try:
        export = load_export(text)
    except ValidationError as exc:
        data = json.loads(text)
        missing = [e["loc"] for e in exc.errors() if e["type"] == "missing"]
        if not missing or len(missing) != len(exc.errors()):
            raise
        for loc in missing:
            target: Any = data
            for part in loc[:-1]:
                target = target[part]
            target[loc[-1]] = None
        export = Export.model_validate(data)
    result = export.comparison if export.comparison is not None else export.report
    if result is None:
        raise ValueError('the export holds neither "report" nor "comparison"')
    return result


def render_html(
    result: AuditReport | Comparison, *, report_url: str | None = None, expires_at: datetime | None = None
) -> str:
    """The full page. Secrets are redacted here too, whatever the caller passed (redaction is idempotent)."""
    clean = redact_result(result)
    return render("report.html.j2", **html_context(clean, report_url=report_url, expires_at=expires_at))
