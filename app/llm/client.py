"""One model call over the openai SDK: cached, retried with backoff honoring Retry-After, failing loudly."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any

import openai
from pydantic import BaseModel

from app.errors import BudgetSpent, LiveModelError, ReplayError
from app.llm.budget import CallBudget, Prices
from app.llm.cache import Cache, call_key
from app.llm.profiles import LiveSettings, NamedSchema
from app.llm.recording import Recorder, Replay
from app.llm.refusals import connection_wait, endpoint_message, refusal_hint, retry_after
from app.llm.served import check_served, check_tools_seen

# Status codes worth another attempt: request timeout, lock conflict, rate limit, server errors.
_RETRY_STATUS = frozenset({408, 409, 429})
# Words in a refusal that say the endpoint does not take a parameter we can do without. Most servers refuse with
# 400/422; llama.cpp's Python server answers an unsupported response_format with 500 and its validation message.
_FORMAT_WORDS = ("response_format", "json_schema")
_REFUSAL_STATUS = frozenset({400, 422})
_MODEL_WORDS = ("model_not_found", "does not exist", "not found", "unknown model", "no such model", "invalid model")


class ResponseFormat(StrEnum):
    """How the answer's shape was asked for: the JSON Schema itself, or JSON mode when the endpoint refuses
    json_schema. JSON mode carries the schema too (`{"type": "json_object", "schema": ...}`: llama.cpp's server
    compiles it into a grammar, others ignore the key); either way our parser validates every answer."""

    JSON_SCHEMA = "json_schema"
    JSON_OBJECT = "json_object"


class Completion(BaseModel):
    """What one call returned (or what the cache remembers of it)."""

    content: str | None
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    finish_reason: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    response_format: ResponseFormat = ResponseFormat.JSON_SCHEMA
    seed_sent: bool = True
    attempts: int = 1
    # Prompt tokens the provider reports it served from its own prompt cache (a repeated prefix), billed less.
    cached_prompt_tokens: int = 0
    cached: bool = False
    replayed: bool = False  # read from a --replay recording: no call was made


class ChatClient:
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

    def _request(
        self, *, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, response: NamedSchema
    ) -> dict[str, Any]:
        s = self.settings
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": s.temperature,
            self._tokens_param: s.max_tokens,
        }
        if tools:
            kwargs["tools"] = tools
            kwargs["tool_choice"] = s.tool_choice
        if self._seed_ok:
            kwargs["seed"] = s.seed
        if self._json_schema_ok:
            kwargs["response_format"] = {
                "type": ResponseFormat.JSON_SCHEMA.value,
                "json_schema": {"name": response.name, "schema": response.schema_, "strict": s.strict_schema},
            }
        else:
            kwargs["response_format"] = {"type": ResponseFormat.JSON_OBJECT.value, "schema": response.schema_}
        return kwargs

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

    def _completion(self, result: Any, *, kwargs: dict[str, Any], started: float, attempts: int) -> Completion:
        if not getattr(result, "choices", None):
            raise LiveModelError(f"the model endpoint {self.endpoint} answered without choices")
        choice = result.choices[0]
        message = choice.message
        calls = None
        if getattr(message, "tool_calls", None):
            calls = [
                {"name": c.function.name, "arguments": c.function.arguments}
                for c in message.tool_calls
                if getattr(c, "function", None) is not None
            ]
        usage = result.usage
        details = getattr(usage, "prompt_tokens_details", None) if usage else None
        return Completion(
            content=message.content,
            model=result.model or self.model,
            cached_prompt_tokens=int(getattr(details, "cached_tokens", 0) or 0),
            prompt_tokens=(usage.prompt_tokens or 0) if usage else 0,
            completion_tokens=(usage.completion_tokens or 0) if usage else 0,
            latency_ms=round((time.monotonic() - started) * 1000, 1),
            finish_reason=choice.finish_reason,
            tool_calls=calls,
            response_format=ResponseFormat(kwargs["response_format"]["type"]),
            seed_sent="seed" in kwargs,
            attempts=attempts,
        )

    def _drop_unsupported(self, exc: openai.APIStatusError, kwargs: dict[str, Any]) -> bool:
        """True when the endpoint refused json_schema or seed and the call can go again without it."""
        text = f"{exc.message} {exc.body}".lower()
        refused_format = kwargs["response_format"]["type"] == ResponseFormat.JSON_SCHEMA and any(
            w in text for w in _FORMAT_WORDS
        )
        if exc.status_code not in _REFUSAL_STATUS and not (exc.status_code == 500 and refused_format):
            return False
        with self._lock:
            if refused_format:
                self._json_schema_ok = False
                return True
            if "seed" in kwargs and "seed" in text:
                self._seed_ok = False
                return True
            if "max_tokens" in kwargs and "max_tokens" in text and "max_completion_tokens" in text:
                self._tokens_param = "max_completion_tokens"
                return True
        return False

    def _retry_wait(self, exc: openai.APIStatusError, attempt: int) -> float:
        """Seconds to wait before the next attempt, or LiveModelError when the call cannot succeed."""
        s, status, where = self.settings, exc.status_code, self.endpoint
        detail = endpoint_message(exc, secret=str(self.client.api_key or ""))
        if status in (401, 403):
            raise LiveModelError(
                f"the model endpoint {where} refused the API key ({status}: {detail}); check OPENAI_API_KEY"
            ) from exc
        if status == 404 or (status == 400 and any(w in detail.lower() for w in _MODEL_WORDS)):
            raise LiveModelError(
                f"the model endpoint {where} does not know model {self.model!r} ({status}: {detail})"
            ) from exc
        if status not in _RETRY_STATUS and status < 500:
            hint = refusal_hint(detail)
            raise LiveModelError(f"the model endpoint {where} rejected the request ({status}: {detail}){hint}") from exc
        if attempt > s.max_retries:
            what = "rate limited" if status == 429 else f"failing with {status}"
            raise LiveModelError(f"the model endpoint {where} kept {what} after {attempt} attempts ({detail})") from exc
        asked = retry_after(exc.response)
        if asked is not None:
            if asked > s.max_retry_after_s:
                raise LiveModelError(
                    f"the model endpoint {where} asks to wait {asked:.0f}s ({status}), more than the "
                    f"{s.max_retry_after_s:.0f}s allowed; try again later"
                ) from exc
            return asked
        return float(s.backoff_s * 2 ** (attempt - 1))
