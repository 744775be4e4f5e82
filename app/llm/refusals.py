"""Reading an endpoint's refusals: how long it asks us to wait, and its own message, safe to show."""

from __future__ import annotations

import email.utils
import time

import httpx
import openai

from app.egress.transport import refused_cause
from app.errors import LiveModelError
from app.llm.profiles import LiveSettings
from app.llm.served import ENV_TOOLS_IN_PROMPT

# The endpoint's message is cut to this many characters in errors shown to the user.
_DETAIL_CHARS = 300


def retry_after(response: httpx.Response | None) -> float | None:
    """Seconds the server asks us to wait (retry-after-ms, Retry-After seconds or HTTP date)."""
    if response is None:
        return None
    headers = response.headers
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) / scale)
        except ValueError:
            pass
        if name == "retry-after":
            try:
                when = email.utils.parsedate_to_datetime(value)
            except (TypeError, ValueError):
                return None
            return max(0.0, when.timestamp() - time.time())
    return None


def endpoint_message(exc: openai.APIStatusError, *, secret: str = "") -> str:
    """The endpoint's own message, on one line, shortened, and never repeating the API key."""
    body = exc.body
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        text = body["message"]
    elif isinstance(body, dict) and isinstance(body.get("error"), dict):
        text = str(body["error"].get("message", body))
    else:
        text = exc.message
    text = " ".join(text.split())
    if secret and len(secret) >= 4:
        text = text.replace(secret, "***")
    return text[:_DETAIL_CHARS]


def refusal_hint(detail: str) -> str:
    """What to change, for the refusals whose cause is a setting: "" when there is nothing to suggest."""
    text = detail.lower()
    if "support tools" in text:  # Ollama, for a model without tool support ("... does not support tools")
        return f"; set {ENV_TOOLS_IN_PROMPT}=1 to send them in the prompt"
    if "context" in text and ("length" in text or "window" in text):  # llama.cpp, vLLM: the prompt does not fit
        return (
            "; the prompt (system prompt, tool list and request) does not fit the model's context: start the server "
            "with a larger one (llama.cpp --n_ctx, vLLM --max-model-len) or audit fewer tools at once"
        )
    return ""


def connection_wait(exc: openai.APIConnectionError, attempt: int, *, settings: LiveSettings, endpoint: str) -> float:
    """Seconds to wait before trying an unreachable endpoint again, or LiveModelError when it is no use."""
    refused = refused_cause(exc)
    if refused is not None:  # a private address stays private: no retry
        raise LiveModelError(f"cannot reach the model endpoint {endpoint}: {refused}") from exc
    if attempt > settings.max_retries:
        if isinstance(exc, openai.APITimeoutError):
            raise LiveModelError(
                f"the model endpoint {endpoint} gave no answer within {settings.timeout_s:g}s ({attempt} attempts)"
            ) from exc
        cause = exc.__cause__ or exc
        raise LiveModelError(f"cannot reach the model endpoint {endpoint} after {attempt} attempts: {cause}") from exc
    return float(settings.backoff_s * 2 ** (attempt - 1))
