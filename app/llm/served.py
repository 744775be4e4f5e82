"""The check that the endpoint serves the model asked for, made once per audit before the first model call.

Not every server refuses an unknown model: llama.cpp's server answers any name with the one model it loaded
(and names it in `model`). So before spending a call the endpoint's `GET /models` list is read; when the
list is there and the model is not on it, the audit fails naming what is served. An endpoint without that
list (404, 405, or any other refusal but the key's) is left to the call itself to answer.
"""

from __future__ import annotations

import openai

from app.errors import LiveModelError

# How many served names the error shows; gateways list hundreds.
_SHOWN = 8


def served_models(client: openai.OpenAI, *, endpoint: str, timeout_s: float) -> list[str] | None:
    """The model ids the endpoint lists, or None when it lists none (no such route, unreachable)."""
    try:
        page = client.models.list(timeout=timeout_s)
    except openai.APIStatusError as exc:
        if exc.status_code in (401, 403):
            raise LiveModelError(
                f"the model endpoint {endpoint} refused the API key ({exc.status_code}); check OPENAI_API_KEY"
            ) from exc
        return None
    except (openai.OpenAIError, ValueError):
        # Unreachable, or a listing in a shape of its own: the call itself will say what is wrong.
        return None
    ids = [str(getattr(m, "id", "")) for m in getattr(page, "data", None) or []]
    return [i for i in ids if i] or None


def check_served(client: openai.OpenAI, *, model: str, endpoint: str, timeout_s: float) -> None:
    """LiveModelError when the endpoint lists its models and `model` is not among them."""
    served = served_models(client, endpoint=endpoint, timeout_s=timeout_s)
    if served is None or model in served:
        return
    shown = ", ".join(sorted(served)[:_SHOWN]) + (f" and {len(served) - _SHOWN} more" if len(served) > _SHOWN else "")
    raise LiveModelError(f"the model endpoint {endpoint} does not serve model {model!r} (it serves: {shown})")
