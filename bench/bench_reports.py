"""Benchmark of stored reports: redaction, export, page rendering, and store writes/reads (Redis db 4, local).

Run by hand: `python bench/bench_reports.py` (Redis at 127.0.0.1:6379, db 4 is flushed). Inputs: the demo
comparison (101 runs a side) and a synthetic audit of a generated 200-tool set. Cold = redaction caches
cleared before the run; warm = the same report again. Figures go into bench/RESULTS.md (## Reports).
"""

from __future__ import annotations

import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from redis import Redis

from app.audit.engine import audit, audit_pair
from app.audit.loader import load_definitions
from app.audit.models import Tool, ToolSet
from app.audit.suite.build import build_suite
from app.audit.suite.cases_file import load_cases
from app.redaction.redact import redact_result, redact_text
from app.render.html_page import render_html
from app.render.json_export import export_json
from app.reports.service import DAY, ReportService
from app.reports.store import LocalReportStore, RedisReportStore
from app.selector_factory import synthetic_selector

DEMO = Path(__file__).resolve().parents[1] / "app" / "demo"


def _time(fn: Callable[[], Any], *, repeat: int = 5, cold: bool = False) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        if cold:
            redact_text.cache_clear()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, min(times) * 1000


def _generated(n: int) -> ToolSet:
    tools = [
        Tool(
            name=f"tool_{i}_action",
            description=f"Does action number {i} on the workspace. Use this when the user asks for item {i}.",
            inputSchema={"type": "object", "properties": {"item": {"type": "string", "description": "Item id."}}},
        )
        for i in range(n)
    ]
    return ToolSet(tools=tools)


def main() -> None:
    selector = synthetic_selector()
    before = load_definitions("demo/before.json", text=(DEMO / "before.json").read_text())
    after = load_definitions("demo/after.json", text=(DEMO / "after.json").read_text())
    cases = load_cases("demo/cases.yaml", text=(DEMO / "cases.yaml").read_text())
    demo = audit_pair(before, after, selector=selector, user_cases=cases)
    big_set = _generated(200)
    big = audit(big_set, suite=build_suite([big_set]), selector=selector)
    print(f"python {platform.python_version()} on {platform.machine()}")
    for name, result in (("demo comparison", demo), ("200-tool audit", big)):
        size = len(export_json(result))
        print(f"\n{name}: export {size / 1024:.0f} KiB")
        cold = _time(lambda r=result: redact_result(r), cold=True)
        warm = _time(lambda r=result: redact_result(r))
        export = _time(lambda r=result: export_json(r))
        print(f"  redact  cold median/min ms: {cold[0]:.0f} / {cold[1]:.0f}")
        print(f"  redact  warm median/min ms: {warm[0]:.0f} / {warm[1]:.0f}")
        print(f"  export       median/min ms: {export[0]:.0f} / {export[1]:.0f}")
        page = render_html(result)
        print(
            f"  page {len(page) / 1024:.0f} KiB; render (with redaction, warm) median/min ms: %.0f / %.0f"
            % _time(lambda r=result: render_html(r))
        )
    redis = Redis.from_url("redis://127.0.0.1:6379/4")
    redis.flushdb()
    with tempfile.TemporaryDirectory() as tmp:
        for label, store in (("redis", RedisReportStore(redis)), ("local", LocalReportStore(Path(tmp)))):
            service = ReportService(
                store, public_url="http://x", retention_seconds=DAY, anonymous_retention_seconds=DAY
            )
            first = service.save(demo, installation_id=None, private=False).id
            save = _time(lambda s=service: s.save(demo, installation_id=None, private=False))
            find = _time(lambda s=service, i=first: s.find(i))
            print(
                f"\n{label} store, demo comparison: save (redact+export+write, warm) median {save[0]:.0f} ms; "
                f"find median {find[0]:.1f} ms"
            )
    redis.flushdb()


if __name__ == "__main__":
    main()
