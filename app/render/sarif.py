"""SARIF 2.1.0 output: findings as results with rule ids and locations, for code scanning."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from app import __version__
from app.audit.identifiers import remember
from app.audit.models import Finding, Severity
from app.audit.results import AuditReport, Comparison

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note", Severity.HINT: "note"}
# Rules that are not in rules/ (input problems found while reading files).
_BUILTIN = {
    "TC080": "A tool entry is not an object",
    "TC081": "A tool has no name",
    "TC082": "A tool name is defined twice",
    "TC083": "A tool field has the wrong type",
    "TC084": "A tool entry is in an unknown format",
    "TC090": "A tool definition could not be read statically",
}


def _fingerprint(f: Finding) -> str:
    key = "|".join((f.rule_id, f.file or "", f.tool or "", f.parameter or "", f.other_tool or "", f.message))
    return remember(hashlib.sha256(key.encode("utf-8")).hexdigest()[:32])


def to_sarif(result: AuditReport | Comparison, *, rules: Any | None = None) -> dict[str, Any]:
    """A SARIF log; `rules` is a RuleSet whose metadata describes each rule id."""
    report = result.head if isinstance(result, Comparison) else result
    findings = report.findings
    rule_meta: dict[str, dict[str, Any]] = {}
    known = {r.id: r for r in rules.rules} if rules is not None else {}
    for rid in sorted({f.rule_id for f in findings} | set(known)):
        rule = known.get(rid)
        entry: dict[str, Any] = {"id": rid}
        if rule is not None:
            entry["shortDescription"] = {"text": rule.rationale}
            entry["defaultConfiguration"] = {"level": _LEVELS[rule.severity]}
            entry["properties"] = {"dimension": rule.dimension.value}
            if rule.recommendation:
                entry["help"] = {"text": rule.recommendation}
        elif rid in _BUILTIN:
            entry["shortDescription"] = {"text": _BUILTIN[rid]}
        rule_meta[rid] = entry
    results = []
    for f in findings:
        item: dict[str, Any] = {
            "ruleId": f.rule_id,
            "level": _LEVELS[f.severity],
            "message": {"text": f.message},
            "partialFingerprints": {"toolchoice/v1": _fingerprint(f)},
            "properties": {
                k: v
                for k, v in (
                    ("tool", f.tool),
                    ("parameter", f.parameter),
                    ("other_tool", f.other_tool),
                    ("dimension", f.dimension.value),
                )
                if v
            },
        }
        if f.file:
            region: dict[str, int] = {"startLine": f.line or 1}
            if f.end_line:
                region["endLine"] = f.end_line
            item["locations"] = [{"physicalLocation": {"artifactLocation": {"uri": f.file}, "region": region}}]
        results.append(item)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "ToolChoice",
                        "version": __version__,
                        "informationUri": "https://github.com/toolchoice/toolchoice",
                        "rules": list(rule_meta.values()),
                    }
                },
                "results": results,
                "properties": {"mode": report.mode.value, "suiteHash": report.suite_hash},
            }
        ],
    }


def render_sarif(result: AuditReport | Comparison, *, rules: Any | None = None) -> str:
    return json.dumps(to_sarif(result, rules=rules), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
