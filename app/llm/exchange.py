"""One exchange with a chat-completions endpoint: the request sent, the Completion read from its answer, and what
a refusal means (a parameter to drop, a wait before the next attempt, or an error that ends the call)."""

from __future__ import annotations

import threading
import time
from enum import StrEnum
from typing import Any

import openai
from pydantic import BaseModel

from app.errors import LiveModelError
from app.llm.profiles import LiveSettings, NamedSchema
from app.llm.refusals import endpoint_message, refusal_hint, retry_after

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


class Exchange:
    """Mixed into ChatClient: the request of one attempt, the Completion read from its answer, and the endpoint's
    refusals read (a parameter it does not take dropped for the calls that follow, or the wait before a retry)."""

    client: openai.OpenAI
    model: str
    endpoint: str
    settings: LiveSettings
    _lock: threading.Lock
    # Learned from the endpoint's first refusal (set by ChatClient); shared by the calls that follow.
    _json_schema_ok: bool
    _seed_ok: bool
    _tokens_param: str

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
