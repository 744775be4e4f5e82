"""View models for the templates: the rows and labels that every output format shows alike."""

from __future__ import annotations

from typing import Any

from app.audit.models import Mode
from app.audit.results import AuditReport, Comparison, ProvenanceCounts
from app.audit.scoring import WEIGHTS
from app.render.environment import shown_change

DIMENSION_LABELS = {
    "selection_accuracy": "Selection accuracy",
    "distinguishability": "Distinguishability",
    "description_quality": "Description quality",
    "parameter_clarity": "Parameter clarity",
    "argument_reliability": "Argument reliability",
    "safety": "Safety",
}

MODE_LABELS = {
    Mode.SYNTHETIC: "synthetic (deterministic heuristic simulator, no model)",
    Mode.LIVE_MODEL: "live_model",
}


def mode_label(report: AuditReport) -> str:
    if report.mode == Mode.LIVE_MODEL:
        settings = report.selector.settings
        model = settings.get("model") or report.selector.name
        extras = ", ".join(f"{k} {settings[k]}" for k in ("temperature", "seed") if k in settings)
        return f"live_model ({model}{', ' + extras if extras else ''})"
    return MODE_LABELS[report.mode]


def _count(totals: dict[str, Any], key: str) -> int:
    value = totals.get(key, 0)
    return int(value) if isinstance(value, int | float) else 0


def live_line(reports: list[AuditReport]) -> str | None:
    """One line on the model runs behind live reports (both sides of a diff summed): the model as the server
    reports it, the settings that shape an answer, calls, tokens and mean latency. None for synthetic ones."""
    live = [r for r in reports if r.mode == Mode.LIVE_MODEL]
    if not live:
        return None
    settings = live[-1].selector.settings
    returned = sorted({str(m) for r in live for m in r.totals.get("models_returned", []) or []})
    formats = sorted({str(f) for r in live for f in r.totals.get("response_formats", []) or []})
    calls = sum(_count(r.totals, "model_calls") for r in live)
    cached = sum(_count(r.totals, "cached_calls") for r in live)
    replayed = sum(_count(r.totals, "replayed_calls") for r in live)
    prompt = sum(_count(r.totals, "prompt_tokens") for r in live)
    completion = sum(_count(r.totals, "completion_tokens") for r in live)
    provider_cached = sum(_count(r.totals, "provider_cached_prompt_tokens") for r in live)
    latency = sum(float(r.totals.get("latency_ms_total", 0.0) or 0.0) for r in live)
    costs = [float(r.totals["cost_estimate"]) for r in live if "cost_estimate" in r.totals]
    asked = settings.get("model") or live[-1].selector.name
    model = ", ".join(returned) if returned else "not reported"
    shape = ", ".join(
        f"{k} {settings[k]:g}" if isinstance(settings[k], float) else f"{k} {settings[k]}"
        for k in ("temperature", "seed", "max_tokens")
        if k in settings
    )
    parts = [
        f"model {model} as the server reports it (asked for {asked})",
        shape
        + (f", answers as {'/'.join(formats)}" if formats else "")
        + (", tools in the system message" if settings.get("tools_in_prompt") else ""),
        f"{calls:,} calls, {cached - replayed:,} from the cache"
        + (f", {replayed:,} answers replayed from a recording" if replayed else ""),
        f"{prompt:,} prompt + {completion:,} completion tokens"
        + (f" ({provider_cached:,} prompt tokens from the provider's prompt cache)" if provider_cached else ""),
        f"cost {sum(costs):,.4f} at the operator's prices" if costs else "",
        f"mean latency {latency / calls:,.0f} ms" if calls else "no calls made",
        plan_words(live[-1].totals.get("live_plan")),
    ]
    return " · ".join(p for p in parts if p)


def plan_words(plan: Any) -> str:
    """What a live plan asked, in words: targeted and sampled cases, and those left out (app/audit/live_plan.py)."""
    if not isinstance(plan, dict):
        return ""
    if plan.get("scope") == "all" and not plan.get("over_budget"):
        return "every case asked (scope all)"
    asked = int(plan.get("targeted", 0)) + int(plan.get("sampled", 0))
    words = [
        f"{asked:,} cases asked: {plan.get('targeted', 0):,} the change can reach",
        f"{plan.get('sampled', 0):,} sampled of the {plan.get('remainder', 0):,} others",
    ]
    out = "plan: " + ", ".join(words) + f"; {plan.get('left_out', 0):,} left out"
    if plan.get("over_budget"):
        out += f", {plan['over_budget']:,} over the budget of {plan.get('budget_calls')} calls"
    return out


def provenance_line(counts: ProvenanceCounts) -> str:
    def part(d: dict[str, int]) -> str:
        return ", ".join(f"{v} {k}" for k, v in sorted(d.items())) or "none"

    return f"scored: {part(counts.scored)}; exploratory (shown, not scored): {part(counts.exploratory)}"


def dimension_rows(report: AuditReport, base: AuditReport | None = None) -> list[dict[str, Any]]:
    measured = report.totals.get("measured", {})
    rows = []
    for key, label in DIMENSION_LABELS.items():
        head_value = report.scores.as_dict()[key]
        row: dict[str, Any] = {
            "key": key,
            "label": label,
            "weight": round(WEIGHTS[key] * 100),
            "head": head_value,
            "measured": bool(measured.get(key, True)),
        }
        if base is not None:
            row["base"] = base.scores.as_dict()[key]
            row["base_measured"] = bool(base.totals.get("measured", {}).get(key, True))
            row["delta"] = shown_change(row["base"], head_value)
        rows.append(row)
    return rows


def comparison_context(comparison: Comparison, *, report_url: str | None = None) -> dict[str, Any]:
    head = comparison.head
    return {
        "c": comparison,
        "base": comparison.base,
        "head": head,
        "mode_label": mode_label(head),
        "synthetic": head.mode == Mode.SYNTHETIC,
        "provenance": provenance_line(head.provenance),
        "live": live_line([comparison.base, head]),
        "rows": dimension_rows(head, comparison.base),
        "report_url": report_url,
    }


def report_context(report: AuditReport, *, report_url: str | None = None) -> dict[str, Any]:
    failed = [r for r in report.runs if not r.passed and not r.why.startswith("not run")]
    return {
        "r": report,
        "mode_label": mode_label(report),
        "synthetic": report.mode == Mode.SYNTHETIC,
        "provenance": provenance_line(report.provenance),
        "live": live_line([report]),
        "rows": dimension_rows(report),
        "failed_scored": [r for r in failed if r.scored],
        "failed_exploratory": [r for r in failed if not r.scored],
        "worst_tools": report.tool_scores[:10],
        "report_url": report_url,
    }
