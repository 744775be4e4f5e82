"""The SDK's response models are built before threads parse responses (pydantic's lazy build is not thread-safe)."""

from __future__ import annotations

from openai.types.chat import ChatCompletion

from app.llm.warmup import _reachable, build_response_models


def test_every_model_of_a_chat_completion_is_built() -> None:
    build_response_models()
    models = _reachable(ChatCompletion, set())
    assert len(models) > 10
    assert all(m.__pydantic_complete__ for m in models), [m.__name__ for m in models if not m.__pydantic_complete__]
