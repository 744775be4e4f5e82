"""What a live review may spend: a cap on model calls and on their cost, checked before every call."""

from __future__ import annotations

import math
import threading

from pydantic import BaseModel, ConfigDict

from app.errors import BudgetSpent
from app.llm.profiles import LiveProfile

# Rough size of a token in characters (English and JSON); the estimate says "about".
CHARS_PER_TOKEN = 4
# Fixed per-call overhead of chat formatting, in tokens.
CALL_OVERHEAD_TOKENS = 12


class Prices(BaseModel):
    """What the operator pays per 1,000 tokens, for the cost estimate (USD or whatever unit they use); prompt
    tokens the provider served from its prompt cache at `cached_input_per_1k` (default: the input price)."""

    model_config = ConfigDict(frozen=True)

    input_per_1k: float
    output_per_1k: float
    cached_input_per_1k: float | None = None

    def cost(self, prompt_tokens: int, completion_tokens: int, *, cached_prompt_tokens: int = 0) -> float:
        cached = min(cached_prompt_tokens, prompt_tokens)
        cached_price = self.input_per_1k if self.cached_input_per_1k is None else self.cached_input_per_1k
        return (
            (prompt_tokens - cached) / 1000 * self.input_per_1k
            + cached / 1000 * cached_price
            + completion_tokens / 1000 * self.output_per_1k
        )


class CallBudget:
    """Counts the calls made to the model (answers from a cache or a recording are free) and what they cost.

    `take()` reserves one call before it is sent and raises BudgetSpent when that call would pass `max_calls`,
    or when the cost spent so far has reached `max_cost`; `spend(cost)` adds a finished call's cost. Thread-safe:
    concurrent calls never reserve past the cap together."""

    def __init__(self, *, max_calls: int | None = None, max_cost: float | None = None) -> None:
        self.max_calls = max_calls
        self.max_cost = max_cost
        self.calls = 0
        self.cost = 0.0
        self._lock = threading.Lock()

    def calls_left(self) -> int | None:
        """Calls the cap still allows; None without a call cap."""
        with self._lock:
            return None if self.max_calls is None else max(0, self.max_calls - self.calls)

    def take(self) -> None:
        with self._lock:
            if self.max_calls is not None and self.calls >= self.max_calls:
                raise BudgetSpent(
                    f"the budget of {self.max_calls} model calls is spent; nothing more is asked "
                    "(raise --max-calls or live.budget.max_calls, or narrow the review)"
                )
            if self.max_cost is not None and self.cost >= self.max_cost:
                raise BudgetSpent(
                    f"the budget of {self.max_cost:g} in model cost is spent ({self.cost:.4f}); nothing more is "
                    "asked (raise --max-cost or live.budget.max_cost)"
                )
            self.calls += 1

    def spend(self, cost: float) -> None:
        with self._lock:
            self.cost += cost


def approx_call_tokens(tools_json_chars: int, *, profile: LiveProfile) -> tuple[int, int]:
    """About how many prompt and completion tokens one selection call over a listing of that size takes."""
    prompt_chars = tools_json_chars + len(profile.system_prompt)
    # The intent is short next to the tools; 30 tokens is a typical request.
    prompt = math.ceil(prompt_chars / CHARS_PER_TOKEN) + CALL_OVERHEAD_TOKENS + 30
    # Typical answers (name, a few arguments, one sentence) are ~80 tokens; max_tokens is the ceiling.
    return prompt, min(80, profile.settings.max_tokens)
