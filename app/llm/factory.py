"""Builds the live selector from the service's environment (never a repository's config), and estimates."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import openai
from pydantic import BaseModel

from app.egress.transport import guarded_transport
from app.errors import SelectorError
from app.llm.budget import CALL_OVERHEAD_TOKENS, CHARS_PER_TOKEN, CallBudget, Prices, approx_call_tokens
from app.llm.cache import Cache, FileCache, RedisCache
from app.llm.client import ChatClient
from app.llm.profiles import LiveProfile, load_profile
from app.llm.recording import Recorder, Replay
from app.llm.selector import LiveSelector
from app.llm.served import ENV_TOOLS_IN_PROMPT

DEFAULT_BASE_URL = "https://api.openai.com/v1"
# The SDK reads these names itself; we read them to fail early with a clear message.
ENV_KEY, ENV_BASE_URL = "OPENAI_API_KEY", "OPENAI_BASE_URL"
ENV_ALLOWED, ENV_CACHE_DIR, ENV_REDIS = "TOOLCHOICE_ALLOWED_MODELS", "TOOLCHOICE_CACHE_DIR", "REDIS_URL"
ENV_PRICE_IN, ENV_PRICE_OUT = "TOOLCHOICE_PRICE_PER_1K_INPUT", "TOOLCHOICE_PRICE_PER_1K_OUTPUT"
# Prompt tokens the provider serves from its prompt cache are billed less (OpenAI: half); default the input price.
ENV_PRICE_CACHED = "TOOLCHOICE_PRICE_PER_1K_CACHED_INPUT"
# The API key a replay hands the SDK: a replay makes no call, so none is needed.
REPLAY_KEY = "replay-makes-no-calls"
ENV_MAX_TOKENS, ENV_TIMEOUT = "TOOLCHOICE_MAX_TOKENS", "TOOLCHOICE_TIMEOUT_S"


class Estimate(BaseModel):
    """What an audit would cost before anything is spent."""

    calls: int
    approx_prompt_tokens: int
    approx_completion_tokens: int


def allowed_models(env: Mapping[str, str]) -> list[str] | None:
    """The operator's list from TOOLCHOICE_ALLOWED_MODELS, or None when any model is allowed."""
    names = [m.strip() for m in env.get(ENV_ALLOWED, "").split(",") if m.strip()]
    return names or None


def check_model(model: str | None, env: Mapping[str, str]) -> str:
    """The model to use, or SelectorError: none given, or one the operator does not allow."""
    allowed = allowed_models(env)
    if not model:
        hint = f" (allowed: {', '.join(allowed)})" if allowed else ""
        raise SelectorError(f"live_model needs a model: pass --model NAME or set `model:` in the config{hint}")
    if allowed is not None and model not in allowed:
        raise SelectorError(f"model {model!r} is not allowed by the operator ({ENV_ALLOWED}={','.join(allowed)})")
    return model


def public_endpoint(base_url: str) -> str:
    """The base URL without credentials, query or fragment: safe for reports and cache keys."""
    parts = urlsplit(base_url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), "", ""))


def prices_from(env: Mapping[str, str]) -> Prices | None:
    """The operator's prices per 1,000 tokens, or None when none is set."""
    raw_in, raw_out, raw_cached = env.get(ENV_PRICE_IN), env.get(ENV_PRICE_OUT), env.get(ENV_PRICE_CACHED)
    if raw_in is None and raw_out is None:
        return None
    try:
        cached = float(raw_cached) if raw_cached not in (None, "") else None
        return Prices(input_per_1k=float(raw_in or 0), output_per_1k=float(raw_out or 0), cached_input_per_1k=cached)
    except ValueError as exc:
        raise SelectorError(
            f"{ENV_PRICE_IN}/{ENV_PRICE_OUT}/{ENV_PRICE_CACHED} must be numbers (got {raw_in!r}, {raw_out!r}, "
            f"{raw_cached!r})"
        ) from exc


def default_cache(env: Mapping[str, str]) -> Cache:
    """Redis when REDIS_URL is set, else files under TOOLCHOICE_CACHE_DIR or ~/.cache/toolchoice."""
    url = env.get(ENV_REDIS)
    if url:
        return RedisCache.from_url(url)
    root = env.get(ENV_CACHE_DIR) or str(Path.home() / ".cache" / "toolchoice")
    return FileCache(Path(root) / "llm")


def build_live_selector(
    *,
    model: str | None,
    concurrency: int | None = None,
    timeout: float | None = None,
    cache: Cache | None = None,
    profile: LiveProfile | None = None,
    env: Mapping[str, str] | None = None,
    max_calls: int | None = None,
    max_cost: float | None = None,
    record: Path | None = None,
    replay: Path | None = None,
) -> LiveSelector:
    """The live selector for `model`, configured from the environment; SelectorError says what is wrong.

    `max_calls` and `max_cost` cap what it spends (BudgetSpent before a call past them); `record` names a file
    to write every answer used to (`save_recording()`). With `replay` every answer comes from that recording and
    no call is made: no API key is needed, and the endpoint, model and answer settings must be those it was
    recorded with (ReplayError otherwise)."""
    env = os.environ if env is None else env
    recording = Replay(replay) if replay is not None else None
    name = check_model(model or (recording.model if recording else None), env)
    key = env.get(ENV_KEY, "").strip() or (REPLAY_KEY if recording else "")
    if not key:
        raise SelectorError(f"live_model needs an API key: set {ENV_KEY} (for a local server any value works)")
    base_url = env.get(ENV_BASE_URL, "").strip() or (recording.endpoint if recording else "") or DEFAULT_BASE_URL
    if urlsplit(base_url).scheme not in ("http", "https"):
        raise SelectorError(f"{ENV_BASE_URL} must be an http(s) URL (got {public_endpoint(base_url)!r})")
    if concurrency is not None and concurrency < 1:
        raise SelectorError(f"concurrency must be at least 1 (got {concurrency})")
    raw_timeout = env.get(ENV_TIMEOUT, "").strip()
    if timeout is None and raw_timeout:
        # A server that runs one request at a time keeps the others waiting: the wait counts against this.
        try:
            timeout = float(raw_timeout)
        except ValueError:
            raise SelectorError(f"{ENV_TIMEOUT} must be a number of seconds (got {raw_timeout!r})") from None
    if timeout is not None and timeout <= 0:
        raise SelectorError(f"timeout must be positive (got {timeout})")
    profile = profile or load_profile()
    settings = profile.settings
    if timeout is not None:
        settings = settings.model_copy(update={"timeout_s": timeout})
    raw_max = env.get(ENV_MAX_TOKENS, "").strip()
    if raw_max:
        # A slow local model spends its time in the answer's length; an answer cut there is a failed run.
        if not raw_max.isdigit() or int(raw_max) < 1:
            raise SelectorError(f"{ENV_MAX_TOKENS} must be a positive whole number (got {raw_max!r})")
        settings = settings.model_copy(update={"max_tokens": int(raw_max)})
    bound = concurrency or settings.concurrency
    endpoint = public_endpoint(base_url)
    # Our own retry loop owns retries (to honor Retry-After and count attempts): the SDK's is off.
    # Connections are checked against private networks (app/egress/): a local model server is let through
    # by naming its host in TOOLCHOICE_ALLOW_HOSTS.
    http_client = openai.DefaultHttpxClient(transport=guarded_transport())
    client = openai.OpenAI(
        api_key=key, base_url=base_url, max_retries=0, timeout=settings.timeout_s, http_client=http_client
    )
    store = cache if cache is not None else default_cache(env)
    in_prompt = env.get(ENV_TOOLS_IN_PROMPT, "").strip().lower()
    if in_prompt not in ("", "0", "1", "true", "false"):
        raise SelectorError(f"{ENV_TOOLS_IN_PROMPT} must be 1 or 0 (got {in_prompt!r})")
    prices = prices_from(env)
    if max_cost is not None and prices is None:
        raise SelectorError(
            f"--max-cost needs the operator's prices: set {ENV_PRICE_IN} and {ENV_PRICE_OUT} (per 1,000 tokens)"
        )
    budget = CallBudget(max_calls=max_calls, max_cost=max_cost) if max_calls or max_cost else None
    chat = ChatClient(
        client,
        model=name,
        endpoint=endpoint,
        settings=settings,
        cache=None if recording else store,
        tools_in_prompt=in_prompt in ("1", "true"),
        budget=budget,
        prices=prices,
        replay=recording,
    )
    if recording is not None:
        recording.check(model=name, endpoint=endpoint, settings=chat.answer_settings())
    if record is not None:
        chat.recorder = Recorder(record, endpoint=endpoint, model=name, settings=chat.answer_settings())
    return LiveSelector(
        chat, profile=profile, concurrency=bound, prices=prices, endpoint_host=urlsplit(endpoint).netloc
    )


def estimate_audit(
    *,
    cases: int,
    tools_json_chars: int,
    repeats: int,
    generated_tools: int = 0,
    per_tool: int = 0,
    negatives: bool = True,
    profile: LiveProfile | None = None,
) -> Estimate:
    """Calls and approximate tokens of an audit of `cases` over a tool listing of `tools_json_chars`
    characters, with up to `repeats` confirmation re-runs per case (the worst case: every case flips),
    before the cache is consulted. With `generated_tools` > 0, the model case generator's calls are added:
    one generation call per tool (and one for off-topic requests), one validation call per generated case.
    `cases` should then count the selection runs of the generated cases as well."""
    profile = profile or load_profile()
    selection_calls = cases * (1 + max(0, repeats))
    per_call_prompt, per_call_completion = approx_call_tokens(tools_json_chars, profile=profile)
    prompt = selection_calls * per_call_prompt
    completion = selection_calls * per_call_completion
    calls = selection_calls
    if generated_tools > 0 and per_tool > 0:
        generation_calls = generated_tools + (1 if negatives else 0)
        generated_cases = generated_tools * per_tool + ((generated_tools + per_tool) if negatives else 0)
        listing = math.ceil(tools_json_chars / CHARS_PER_TOKEN) + CALL_OVERHEAD_TOKENS
        generation_prompt = listing + math.ceil(len(profile.generation_system + profile.positive_prompt) / 4)
        validation_prompt = listing + math.ceil(len(profile.validation_system + profile.validation_prompt) / 4) + 30
        calls += generation_calls + generated_cases
        prompt += generation_calls * generation_prompt + generated_cases * validation_prompt
        # About 30 tokens per written request; validation answers are short.
        completion += generation_calls * min(30 * per_tool, profile.settings.max_tokens) + generated_cases * 40
    return Estimate(calls=calls, approx_prompt_tokens=prompt, approx_completion_tokens=completion)
