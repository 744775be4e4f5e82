"""Checks that the endpoint really runs what we ask: the model named, and a prompt that shows the tools.

Not every server refuses an unknown model: llama.cpp's server answers any name with the one model it loaded
(and echoes the name asked for in `model`). So before the first model call of an audit the endpoint's
`GET /models` list is read; when the list is there and the model is not on it, the audit fails naming what
is served. An endpoint without that list (404, 405, or any other refusal but the key's) is left to the call.

Not every chat template renders the `tools` field either: a template without tool support drops it, and the
model then picks among tools it never saw. The prompt's token count gives that away, and the audit fails
with the setting that writes the tools into the prompt instead: the same messages without the tools, asked
once per audit for one token, count as many prompt tokens as the call with them.
"""

from __future__ import annotations

from typing import Any

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


ENV_TOOLS_IN_PROMPT = "TOOLCHOICE_TOOLS_IN_PROMPT"


def check_tools_seen(
    completions: Any, *, model: str, messages: list[dict[str, Any]], with_tools: int, endpoint: str, timeout_s: float
) -> None:
    """LiveModelError when the same messages without the tools count as many prompt tokens as the call with
    them (`with_tools`): the template dropped the tools. One extra call of one output token, once per audit;
    when the endpoint reports no usage or the probe fails, there is nothing to compare and nothing is said."""
    if with_tools <= 0:
        return
    try:
        probe = completions.create(
            model=model, messages=messages, extra_body={"temperature": 0, "max_tokens": 1}, timeout=timeout_s
        )
        without = int(probe.usage.prompt_tokens or 0)
    except (openai.OpenAIError, AttributeError, TypeError, ValueError):
        return
    if without <= 0 or with_tools > without:
        return
    raise LiveModelError(
        f"the model endpoint {endpoint} counted {with_tools} prompt tokens with the tools and {without} without "
        f"them: its chat template drops the tools, so the model would choose without seeing them. Set "
        f"{ENV_TOOLS_IN_PROMPT}=1 to send the tool list inside the system message instead (if the server cuts "
        f"prompts to its context size, as Ollama does, give it a larger context too)"
    )
