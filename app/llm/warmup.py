"""Building the OpenAI SDK's response models once, in one thread, before several threads parse responses.

pydantic builds a model's validators on first use, and that build is not thread-safe (pydantic issue 11849):
when the first chat completions of a run are parsed by several threads at once, one of them can meet a
half-built model and fail with "BaseModel cannot be instantiated directly". Validating one complete sample
response builds the completion model; the models nested in it are built one by one (the SDK constructs
them separately, each on its own first use).
"""

from __future__ import annotations

import typing
from functools import cache
from typing import Any

from openai.types.chat import ChatCompletion
from pydantic import BaseModel

_SAMPLE = {
    "id": "warm-up",
    "object": "chat.completion",
    "created": 0,
    "model": "warm-up",
    "choices": [
        {
            "index": 0,
            "finish_reason": "stop",
            "logprobs": None,
            "message": {
                "role": "assistant",
                "content": "{}",
                "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
            },
        }
    ],
    "usage": {
        "prompt_tokens": 1,
        "completion_tokens": 1,
        "total_tokens": 2,
        "prompt_tokens_details": {"cached_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 0},
    },
}


@cache
def build_response_models() -> None:
    """Once per process: every model a chat completion response is parsed into is built."""
    for model in _reachable(ChatCompletion, set()):
        model.model_rebuild()
    ChatCompletion.model_validate(_SAMPLE)


def _reachable(model: type[BaseModel], seen: set[type[BaseModel]]) -> set[type[BaseModel]]:
    """`model` and every pydantic model its fields can hold, at any depth."""
    if model in seen:
        return seen
    seen.add(model)
    for field in model.model_fields.values():
        for kind in _types_in(field.annotation):
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                _reachable(kind, seen)
    return seen


def _types_in(annotation: Any) -> list[Any]:
    out = [annotation]
    for arg in typing.get_args(annotation):
        out.extend(_types_in(arg))
    return out
