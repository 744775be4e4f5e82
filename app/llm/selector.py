"""The live_model selector: each request sent to the model with the tool set, concurrently, answers in order."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from app.audit.models import Mode
from app.audit.results import Selection, SelectorInfo
from app.audit.selection import SelectionRequest
from app.errors import ReplayError
from app.llm.answer import selection_from_answer
from app.llm.budget import Prices, approx_call_tokens
from app.llm.client import ChatClient
from app.llm.exchange import Completion
from app.llm.pool import map_bounded
from app.llm.profiles import LiveProfile
from app.llm.tools import map_tools

# Joins the tool list to the system prompt when the endpoint's chat template would drop the `tools` field.
TOOLS_HEADING = "\n\nThe tools, as JSON (one object per tool):\n"


def selection_messages(
    profile: LiveProfile, intent: str, *, tools_listing: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """What the model reads besides the tools: the profile's system prompt and the request, verbatim; with
    `tools_listing`, the function tools follow the system prompt as JSON, one per line."""
    system = profile.system_prompt
    if tools_listing is not None:
        system += TOOLS_HEADING + "\n".join(json.dumps(t, ensure_ascii=False) for t in tools_listing)
    return [{"role": "system", "content": system}, {"role": "user", "content": intent}]


class LiveSelector:
    """Implements app.audit.selection.Selector over a ChatClient."""

    def __init__(
        self,
        chat: ChatClient,
        *,
        profile: LiveProfile,
        concurrency: int,
        prices: Prices | None = None,
        endpoint_host: str = "",
    ) -> None:
        self.chat = chat
        self.profile = profile
        self.concurrency = concurrency
        self.prices = prices
        self.endpoint_host = endpoint_host

    @property
    def info(self) -> SelectorInfo:
        settings: dict[str, Any] = {
            "model": self.chat.model,
            **self.chat.answer_settings(),
            "endpoint_host": self.endpoint_host,
            "concurrency": self.concurrency,
            "timeout_s": self.chat.settings.timeout_s,
            "max_retries": self.chat.settings.max_retries,
        }
        if self.prices is not None:
            settings["prices_per_1k"] = self.prices.model_dump(exclude_none=True)
        return SelectorInfo(
            mode=Mode.LIVE_MODEL, name=self.chat.model, profile_hash=self.profile.hash, settings=settings
        )

    def case_generator(self) -> Any:
        """The model case generator on this selector's endpoint, model and cache (app.audit.engine asks)."""
        from app.llm.generation import ModelCaseGenerator

        return ModelCaseGenerator.for_selector(self)

    def usage_totals(self, runs: Sequence[Any]) -> dict[str, Any]:
        """Per-audit totals (calls, cache hits, tokens, latency, cost estimate, alias map) for the report."""
        from app.llm.usage import usage_totals

        return usage_totals(runs)

    def calls_left(self) -> int | None:
        """Model calls the review's budget still allows (None: no call cap); app/audit/live_runs.py asks."""
        budget = self.chat.budget
        return None if budget is None else budget.calls_left()

    def call_cost(self, tools_json_chars: int) -> float | None:
        """About what one selection call over a listing of that size costs at the operator's prices."""
        if self.prices is None:
            return None
        prompt, completion = approx_call_tokens(tools_json_chars, profile=self.profile)
        return self.prices.cost(prompt, completion)

    def save_recording(self) -> int | None:
        """Write the --record file, when one was asked for; the number of calls it holds."""
        recorder = self.chat.recorder
        return None if recorder is None else recorder.write()

    def select(self, request: SelectionRequest) -> Selection:
        """One request: map the tools, call (or read the cache or the replayed recording), read the answer
        strictly."""
        mapping = map_tools(request.tools)
        in_prompt = self.chat.tools_in_prompt
        listing = mapping.tools if in_prompt else None
        try:
            done = self.chat.complete(
                messages=selection_messages(self.profile, request.intent, tools_listing=listing),
                tools=None if in_prompt else mapping.tools,
                response=self.profile.response,
                fresh=request.fresh,
            )
        except ReplayError as exc:
            if not request.case_id:
                raise
            raise ReplayError(f"{exc} for case {request.case_id}") from None
        return selection_from_answer(
            done.content,
            schema=self.profile.response.schema_,
            mapping=mapping,
            usage=self._usage(done, aliases=mapping.aliases),
            finish_reason=done.finish_reason,
            tool_calls=done.tool_calls,
        )

    def _usage(self, done: Completion, *, aliases: dict[str, str]) -> dict[str, Any]:
        usage: dict[str, Any] = {
            "model": done.model,
            "prompt_tokens": done.prompt_tokens,
            "completion_tokens": done.completion_tokens,
            "latency_ms": done.latency_ms,
            "cached": done.cached,
            "attempts": done.attempts,
            "response_format": done.response_format.value,
            "seed_sent": done.seed_sent,
        }
        if done.cached_prompt_tokens:
            usage["cached_prompt_tokens"] = done.cached_prompt_tokens
        if done.replayed:
            usage["replayed"] = True
        if aliases:
            usage["aliases"] = dict(sorted(aliases.items()))
        if self.prices is not None:
            # What this run cost now: nothing when the answer came from the cache.
            spent = 0.0 if done.cached else self.chat.cost(done)
            usage["cost"] = round(spent, 6)
        return usage

    def select_many(self, requests: Sequence[SelectionRequest]) -> list[Selection]:
        """Answers in request order; at most `concurrency` calls at once. The first infrastructure failure
        (LiveModelError) cancels what has not started and is raised: no partial, no fallback. A replay runs
        in order, so the first answer missing from the recording is the one named."""
        bound = 1 if self.chat.replay is not None else self.concurrency
        return map_bounded(self.select, list(requests), bound=bound)
