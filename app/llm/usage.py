"""Per-audit totals of live runs: calls made and served from the cache, tokens, latency, cost estimate."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def _usage_of(run: Any) -> dict[str, Any] | None:
    usage = run.get("usage") if isinstance(run, dict) else getattr(run, "usage", None)
    return usage if isinstance(usage, dict) else None


def usage_totals(runs: Iterable[Any]) -> dict[str, Any]:
    """Totals over runs (Run, Selection or their dicts). Cached runs are counted apart: they cost
    nothing now and never count as independent model runs. `cost` appears only when prices were set."""
    calls = cached = replayed = provider_cached = prompt = completion = cached_prompt = cached_completion = attempts = 0
    latency = 0.0
    cost: float | None = None
    models: set[str] = set()
    formats: set[str] = set()
    aliases: dict[str, str] = {}
    for run in runs:
        usage = _usage_of(run)
        if usage is None:
            continue
        models.add(str(usage.get("model", "")))
        formats.add(str(usage.get("response_format", "")))
        aliases.update(usage.get("aliases") or {})
        p, c = int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))
        if usage.get("cached"):
            cached += 1
            replayed += 1 if usage.get("replayed") else 0
            cached_prompt += p
            cached_completion += c
            continue
        calls += 1
        provider_cached += int(usage.get("cached_prompt_tokens", 0))
        attempts += int(usage.get("attempts", 1))
        prompt += p
        completion += c
        latency += float(usage.get("latency_ms", 0.0))
        if "cost" in usage:
            cost = (cost or 0.0) + float(usage["cost"])
    totals: dict[str, Any] = {
        "model_calls": calls,
        "cached_calls": cached,
        "attempts": attempts,
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "cached_prompt_tokens": cached_prompt,
        "cached_completion_tokens": cached_completion,
        "latency_ms_total": round(latency, 1),
        "latency_ms_mean": round(latency / calls, 1) if calls else 0.0,
        "models_returned": sorted(m for m in models if m),
        "response_formats": sorted(f for f in formats if f),
    }
    if replayed:
        totals["replayed_calls"] = replayed
    if provider_cached:
        totals["provider_cached_prompt_tokens"] = provider_cached
    if cost is not None:
        totals["cost_estimate"] = round(cost, 6)
    if aliases:
        totals["aliases"] = dict(sorted(aliases.items()))
    return totals
