"""Rendering an audit or a comparison in any output format, redacted: the one way results become output.

`render_output` redacts the result field by field (our hashes kept), renders it, and returns the text with
the random-looking values we made ourselves (hashes, SHAs, SARIF fingerprints), which the final `scrub`
at the exit must leave alone. `redact=False` exists for a user's own terminal (see app/commands/output.py).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from pydantic import BaseModel

from app.audit.results import AuditReport, Comparison
from app.redaction.exits import own_values
from app.redaction.redact import redact_result


class Format(StrEnum):
    TEXT = "text"
    MD = "md"
    JSON = "json"
    SARIF = "sarif"
    HTML = "html"


class Rendered(BaseModel):
    text: str
    keep: frozenset[str] = frozenset()  # our own hashes and fingerprints in `text`: not secrets


def render_output(
    result: AuditReport | Comparison,
    fmt: Format,
    *,
    redact: bool = True,
    rules: Any | None = None,
    report_url: str | None = None,
    inputs: Sequence[Any] = (),
) -> Rendered:
    """`inputs`: what was audited (tool sets, cases), whose secrets are redacted wherever the output shows them."""
    if redact:
        result = redact_result(result, inputs=inputs)
    keep = own_values(result.model_dump(mode="json", by_alias=True))
    if report_url:
        keep.add(report_url)
    return Rendered(text=_render(result, fmt, rules=rules, report_url=report_url, keep=keep), keep=frozenset(keep))


def _render(
    result: AuditReport | Comparison, fmt: Format, *, rules: Any, report_url: str | None, keep: set[str]
) -> str:
    if fmt == Format.JSON:
        from app.render.json_export import export_json

        return export_json(result)
    if fmt == Format.SARIF:
        from app.render.sarif import render_sarif

        text = render_sarif(result, rules=rules)
        keep |= {r["partialFingerprints"]["toolchoice/v1"] for r in json.loads(text)["runs"][0]["results"]}
        return text
    if fmt == Format.MD:
        from app.render.markdown import render_comparison, render_report

        if isinstance(result, Comparison):
            return render_comparison(result, report_url=report_url)
        return render_report(result, report_url=report_url)
    if fmt == Format.HTML:
        from app.render.html_page import render_html

        return render_html(result, report_url=report_url)
    from app.render.text import render_text

    return render_text(result)
