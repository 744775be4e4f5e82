"""One model call over the openai SDK: cached, retried with backoff honoring Retry-After, failing loudly.
The request, the Completion it gives and the reading of refusals are in app/llm/exchange.py."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import openai

from app.errors import BudgetSpent, LiveModelError, ReplayError
from app.llm.budget import CallBudget, Prices
from app.llm.cache import Cache, call_key
from app.llm.exchange import Completion, Exchange
from app.llm.profiles import LiveSettings, NamedSchema
from app.llm.recording import Recorder, Replay
from app.llm.refusals import connection_wait
from app.llm.served import check_served, check_tools_seen


class ChatClient(Exchange):
    """Calls chat completions for one model on one endpoint. Thread-safe; one instance per audit."""

    def __init__(
        self,
        client: openai.OpenAI,
        *,
        model: str,
        endpoint: str,
        settings: LiveSettings,
        cache: Cache | None = None,
        tools_in_prompt: bool = False,
        sleep: Callable[[float], None] = time.sleep,
        budget: CallBudget | None = None,
        prices: Prices | None = None,
        recorder: Recorder | None = None,
        replay: Replay | None = None,
    ) -> None:
        self.client = client
        # What a review may spend (calls, cost at `prices`), what it keeps for --record, what it answers from.
        self.budget = budget
        self.prices = prices
        self.recorder = recorder
        self.replay = replay
        # Resolved once here: the SDK imports its resource modules lazily on first access (about a second),
        # which would otherwise land inside the first concurrent calls of an audit.
        self._completions = client.chat.completions
        self.model = model
        self.endpoint = endpoint
        self.settings = settings
        self.cache = cache
        # The operator's choice for servers whose chat template drops the `tools` field: the selector then
        # writes the tool list into the system message instead (TOOLCHOICE_TOOLS_IN_PROMPT).
        self.tools_in_prompt = tools_in_prompt
        self.sleep = sleep
        self._lock = threading.Lock()
        # Learned from the endpoint's first refusal; shared by the calls that follow.
        self._json_schema_ok = True
        self._seed_ok = settings.seed is not None
        # Newer OpenAI models take max_completion_tokens and refuse max_tokens.
        self._tokens_param = "max_tokens"
        self._model_checked = False
        self._tools_checked = False
        self.calls = 0

    def answer_settings(self) -> dict[str, Any]:
        """The settings that shape an answer (part of the cache key and of the report)."""
        s = self.settings
        shaping: dict[str, Any] = {
            "temperature": s.temperature,
            "seed": s.seed,
            "max_tokens": s.max_tokens,
            "tool_choice": s.tool_choice,
            "strict_schema": s.strict_schema,
        }
        if self.tools_in_prompt:  # only when set, so the cache keys of every other audit stay as they were
            shaping["tools_in_prompt"] = True
        return shaping

    def complete(
        self,
        *,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        response: NamedSchema,
        fresh: bool = False,
    ) -> Completion:
        """The answer to one call. `fresh` skips the cache (and leaves it as it was)."""
        key = call_key(
            endpoint=self.endpoint,
            model=self.model,
            settings=self.answer_settings(),
            messages=messages,
            tools=tools,
            response={"name": response.name, "schema": response.schema_},
        )
        if self.replay is not None:
            recorded = self.replay.answer(key, messages=messages, fresh=fresh)
            try:
                done = Completion.model_validate({**recorded, "cached": True, "replayed": True})
            except ValueError as exc:
                raise ReplayError(
                    f"the answer recorded for {key[:16]}... is unusable: {exc}", file=str(self.replay.path)
                ) from None
            self._keep(key, done, messages=messages, fresh=fresh)
            return done
        if self.cache is not None and not fresh:
            hit = self.cache.get(key)
            if hit is not None:
                try:
                    done = Completion.model_validate({**hit, "cached": True})
                except ValueError:
                    pass  # an entry from an older layout: call again and overwrite it
                else:
                    self._keep(key, done, messages=messages, fresh=fresh)
                    return done
        if self.budget is not None:
            self.budget.take()
        self._check_model()
        done = self._call(messages=messages, tools=tools, response=response)
        if self.budget is not None and self.prices is not None:
            self.budget.spend(self.cost(done))
        if self.cache is not None and not fresh:
            self.cache.set(key, done.model_dump(exclude={"cached", "replayed"}))
        self._keep(key, done, messages=messages, fresh=fresh)
        return done

    def cost(self, done: Completion) -> float:
        """What one answered call cost at the operator's prices (0 without prices)."""
        if self.prices is None:
            return 0.0
        return self.prices.cost(
            done.prompt_tokens, done.completion_tokens, cached_prompt_tokens=done.cached_prompt_tokens
        )

    def _keep(self, key: str, done: Completion, *, messages: list[dict[str, Any]], fresh: bool) -> None:
        if self.recorder is not None:
            answer = done.model_dump(exclude={"cached", "replayed"}, exclude_defaults=False)
            self.recorder.add(key, answer, messages=messages, fresh=fresh)

    def _check_model(self) -> None:
        with self._lock:
            if self._model_checked:
                return
            check_served(self.client, model=self.model, endpoint=self.endpoint, timeout_s=self.settings.timeout_s)
            self._model_checked = True

    def _check_tools(self, messages: list[dict[str, Any]], with_tools: int) -> None:
        with self._lock:
            if self._tools_checked:
                return
            self._tools_checked = True
        if self.budget is not None:
            try:
                self.budget.take()
            except BudgetSpent:
                return  # a check, not an answer: skipped rather than spend past the budget
        check_tools_seen(
            self._completions,
            model=self.model,
            messages=messages,
            with_tools=with_tools,
            endpoint=self.endpoint,
            timeout_s=self.settings.timeout_s,
        )

    def _call(
        self, *, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, response: NamedSchema
    ) -> Completion:
        s = self.settings
        started = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            kwargs = self._request(messages=messages, tools=tools, response=response)
            with self._lock:
                self.calls += 1
            try:
                # The body is sent as built: through extra_body the SDK does not walk every JSON Schema of the
                # tools type by type only to send the same JSON (measured: ~1 ms of CPU a call at 12 tools).
                extra = {k: v for k, v in kwargs.items() if k not in ("model", "messages")}
                result = self._completions.create(
                    model=kwargs["model"], messages=kwargs["messages"], extra_body=extra, timeout=s.timeout_s
                )
            except openai.APIStatusError as exc:
                if self._drop_unsupported(exc, kwargs):
                    attempt -= 1  # a changed request, not a retry
                    continue
                wait = self._retry_wait(exc, attempt)
            except openai.APIConnectionError as exc:
                wait = connection_wait(exc, attempt, settings=self.settings, endpoint=self.endpoint)
            except (openai.OpenAIError, ValueError) as exc:  # a 200 whose body is not a chat completion
                raise LiveModelError(f"the model endpoint {self.endpoint} gave an unusable response: {exc}") from exc
            else:
                try:
                    done = self._completion(result, kwargs=kwargs, started=started, attempts=attempt)
                except (AttributeError, IndexError, TypeError, ValueError) as exc:
                    raise LiveModelError(
                        f"the model endpoint {self.endpoint} answered in an unexpected shape: {exc}"
                    ) from exc
                if tools:
                    self._check_tools(messages, done.prompt_tokens)
                return done
            self.sleep(wait)
