"""`--estimate`: what a live run would ask and cost, printed before anything is spent.

A diff in the targeted scope (the default) is planned exactly as the run would plan it (app/audit/live_plan.py),
with the template suite and the synthetic ranking, so the figures are the plan's own; `--scope all` and `audit`
count every case, the model writing the cases as well. Tokens are about 4 characters each.
"""

from __future__ import annotations

import json
import os
from typing import Any

from app.audit.live_plan import PlanStatus, Scope
from app.audit.models import Mode, ToolSet
from app.commands.options import Settings
from app.errors import InputError


def estimate_json(settings: Settings, toolsets: list[ToolSet], *, intents: int, repeats: int) -> str:
    from app.audit.suite.build import build_suite
    from app.llm.factory import ENV_PRICE_IN, ENV_PRICE_OUT, approx_call_tokens, estimate_audit, prices_from
    from app.llm.profiles import load_profile

    profile = load_profile()
    prices = prices_from(os.environ)
    if settings.plan.max_cost is not None and prices is None:
        raise InputError(f"--max-cost needs the operator's prices: set {ENV_PRICE_IN} and {ENV_PRICE_OUT}")
    chars = [len(json.dumps(ts.to_mcp())) for ts in toolsets]
    tools = sum(len(ts.tools) for ts in toolsets)
    # The model writes the generated cases in the whole scope: count the user's cases plus what generation adds,
    # sized like the template suite (same intents per tool and negatives) for every side.
    suite = build_suite(toolsets, user_cases=settings.user_cases, intents_per_tool=intents)
    full = estimate_audit(
        cases=len(suite.cases) * len(toolsets),
        tools_json_chars=max(chars),
        repeats=repeats,
        generated_tools=tools if intents else 0,
        per_tool=intents,
        profile=profile,
    )
    out: dict[str, Any] = full.model_dump()
    if len(toolsets) == 2 and settings.plan.scope == Scope.TARGETED:
        from app.audit.live_runs import plan_for, plan_summary
        from app.audit.selection import runnable
        from app.selector_factory import plan_ranker

        options = settings.plan
        per_call = [approx_call_tokens(c, profile=profile) for c in chars]
        if prices is not None:
            options = options.model_copy(update={"cost_per_call": max(prices.cost(p, c) for p, c in per_call)})
        base, head = toolsets
        plan = plan_for(suite, base, head, selector=object(), options=options, ranker=plan_ranker(Mode.LIVE_MODEL))
        status = {c.case_id: c for c in plan.cases}
        prompt = completion = 0
        worst_repeats = 0
        for case in suite.cases:
            planned = status[case.id]
            if planned.status not in (PlanStatus.TARGETED, PlanStatus.SAMPLED):
                continue
            for side, toolset in enumerate(toolsets):
                if runnable(toolset, case) is None:
                    prompt += per_call[side][0]
                    completion += per_call[side][1]
            worst_repeats += 2 * repeats if case.scored and planned.calls == 2 else 0
        out = {
            "calls": plan.calls + worst_repeats,
            "approx_prompt_tokens": prompt + worst_repeats * max(p for p, _ in per_call),
            "approx_completion_tokens": completion + worst_repeats * max(c for _, c in per_call),
            "scope": Scope.TARGETED.value,
            "plan": plan_summary(plan),
            "all_scope": full.model_dump(),
        }
    else:
        out["scope"] = Scope.ALL.value
    if prices is not None:
        out["approx_cost"] = round(prices.cost(out["approx_prompt_tokens"], out["approx_completion_tokens"]), 4)
    return json.dumps(out, indent=2, sort_keys=True)

