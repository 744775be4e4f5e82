"""The live profile as data (schema, hash), usage totals with the cost estimate, and the dry-run estimate."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from app.audit.models import NO_TOOL
from app.audit.results import Selection
from app.audit.selection import SelectionRequest
from app.errors import SelectorError
from app.llm.factory import estimate_audit
from app.llm.profiles import load_profile, parse_profile
from app.llm.selector import LiveSelector
from app.llm.usage import usage_totals
from app.resources import selectors_dir

from .conftest import TOOLS
from .fake_openai import FakeOpenAI, answer, completion, prompt_tokens


def shipped() -> dict:
    return yaml.safe_load((selectors_dir() / "live.yml").read_text(encoding="utf-8"))


def test_shipped_profile_is_valid_with_temperature_zero() -> None:
    profile = load_profile()
    assert profile.settings.temperature == 0 and profile.settings.seed is not None
    assert profile.response.schema_["required"] == ["tool", "arguments", "confidence", "reason"]
    assert profile.validation_threshold == 0.7
    assert len(profile.hash) == 64


def test_selectors_folder_holds_data_only() -> None:
    assert not list(selectors_dir().glob("*.py"))


def test_unknown_keys_and_bad_values_are_rejected_naming_the_place(tmp_path: Path) -> None:
    data = shipped()
    data["settings"]["temprature"] = 0
    with pytest.raises(SelectorError, match=r"settings: Additional properties are not allowed \('temprature'"):
        parse_profile(data, source="live.yml")
    data = shipped()
    data["settings"]["concurrency"] = 0
    with pytest.raises(SelectorError, match="settings/concurrency"):
        parse_profile(data, source="live.yml")
    broken = tmp_path / "live.yml"
    broken.write_text("name: [unclosed\n", encoding="utf-8")
    with pytest.raises(SelectorError, match=r"live.yml:\d+: the live selector profile is not valid YAML"):
        load_profile(broken)


def test_prompt_templates_with_unknown_fields_are_rejected() -> None:
    data = shipped()
    data["validation"]["user_prompt"] += '\nAnswer as {"expected": ...}'
    with pytest.raises(SelectorError, match=r"validation/user_prompt may use only \{tools\}, \{request\}"):
        parse_profile(data, source="live.yml")


def test_hash_changes_with_any_prompt_or_setting() -> None:
    data = shipped()
    base = parse_profile(data, source="x").hash
    assert parse_profile(copy.deepcopy(data), source="x").hash == base
    changed = copy.deepcopy(data)
    changed["system_prompt"] += " Be brief."
    assert parse_profile(changed, source="x").hash != base
    changed = copy.deepcopy(data)
    changed["settings"]["seed"] = 8
    assert parse_profile(changed, source="x").hash != base


def test_usage_totals_count_cached_runs_apart_and_sum_costs() -> None:
    def sel(cached: bool, cost: float | None = None, aliases: dict[str, str] | None = None) -> Selection:
        usage = {
            "model": "m-1",
            "prompt_tokens": 100,
            "completion_tokens": 20,
            "latency_ms": 50.0,
            "cached": cached,
            "attempts": 2 if not cached else 1,
            "response_format": "json_schema",
        }
        if cost is not None:
            usage["cost"] = cost
        if aliases:
            usage["aliases"] = aliases
        return Selection(tool=NO_TOOL, usage=usage)

    totals = usage_totals([sel(False, 0.5, {"a_b": "a.b"}), sel(False, 0.25), sel(True, 0.0), Selection(tool="x")])
    assert totals["model_calls"] == 2 and totals["cached_calls"] == 1 and totals["attempts"] == 4
    assert totals["prompt_tokens"] == 200 and totals["completion_tokens"] == 40
    assert totals["cached_prompt_tokens"] == 100
    assert totals["latency_ms_total"] == 100.0 and totals["latency_ms_mean"] == 50.0
    assert totals["cost_estimate"] == 0.75
    assert totals["aliases"] == {"a_b": "a.b"} and totals["models_returned"] == ["m-1"]
    assert "cost_estimate" not in usage_totals([sel(False)])


def test_prices_from_the_environment_give_a_cost_per_run(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    prices = {"TOOLCHOICE_PRICE_PER_1K_INPUT": "0.5", "TOOLCHOICE_PRICE_PER_1K_OUTPUT": "2"}
    selector = make_selector(extra_env=prices)
    assert selector.info.settings["prices_per_1k"] == {"input_per_1k": 0.5, "output_per_1k": 2.0}
    (first,) = selector.select_many([SelectionRequest(tools=TOOLS, intent="hi")])
    (again,) = selector.select_many([SelectionRequest(tools=TOOLS, intent="hi")])
    # The prompt tokens the server counted at 0.5 per 1k + 30 completion tokens at 2 per 1k; nothing when cached.
    spent = prompt_tokens(server.chat_requests[0]) / 1000 * 0.5 + 30 / 1000 * 2
    assert (first.usage or {})["cost"] == pytest.approx(spent)
    assert (again.usage or {})["cost"] == 0.0
    assert usage_totals([first, again])["cost_estimate"] == pytest.approx(spent)


def test_bad_prices_are_a_selector_error(make_selector: Callable[..., LiveSelector]) -> None:
    with pytest.raises(SelectorError, match="must be numbers"):
        make_selector(extra_env={"TOOLCHOICE_PRICE_PER_1K_INPUT": "cheap"})


def test_estimate_grows_with_cases_tools_and_repeats() -> None:
    one = estimate_audit(cases=10, tools_json_chars=4000, repeats=0)
    assert one.calls == 10
    assert one.approx_prompt_tokens > 10 * 1000  # 4,000 characters of tools are about 1,000 tokens a call
    assert estimate_audit(cases=10, tools_json_chars=8000, repeats=0).approx_prompt_tokens > one.approx_prompt_tokens
    assert estimate_audit(cases=10, tools_json_chars=4000, repeats=2).calls == 30


def test_max_tokens_cut_is_explained(server: FakeOpenAI, make_selector: Callable[..., LiveSelector]) -> None:
    server.script.append(completion('{"tool": "NO_TOOL", "argu', finish="length"))
    (sel,) = make_selector().select_many([SelectionRequest(tools=TOOLS, intent="hi")])
    assert sel.error is not None and "cut at max_tokens" in sel.error


def test_estimate_counts_generation_and_validation_calls_like_the_generator_makes() -> None:
    # 3 tools x 2 phrasings: 3 generation calls + 1 off-topic call; 6 + 3 near-miss + 2 off-topic validations
    # (the same counts test_generation.py observes on the wire).
    base = estimate_audit(cases=11, tools_json_chars=4000, repeats=0)
    with_generation = estimate_audit(cases=11, tools_json_chars=4000, repeats=0, generated_tools=3, per_tool=2)
    assert with_generation.calls - base.calls == 4 + 11
    assert with_generation.approx_prompt_tokens > base.approx_prompt_tokens
    without_negatives = estimate_audit(
        cases=6, tools_json_chars=4000, repeats=0, generated_tools=3, per_tool=2, negatives=False
    )
    assert without_negatives.calls == 6 + 3 + 6


def test_prompt_tokens_the_provider_cached_are_recorded_and_priced_apart(
    server: FakeOpenAI, make_selector: Callable[..., LiveSelector]
) -> None:
    reply = answer("send_slack_message")
    details = {"cached_tokens": 1536}
    reply.body["usage"] = {"prompt_tokens": 2000, "completion_tokens": 30, "prompt_tokens_details": details}
    server.script.append(reply)
    prices = {
        "TOOLCHOICE_PRICE_PER_1K_INPUT": "1",
        "TOOLCHOICE_PRICE_PER_1K_OUTPUT": "2",
        "TOOLCHOICE_PRICE_PER_1K_CACHED_INPUT": "0.5",
    }
    selector = make_selector(extra_env=prices)
    (run,) = selector.select_many([SelectionRequest(tools=TOOLS, intent="tell #ops we are live")])
    usage = run.usage or {}
    assert usage["cached_prompt_tokens"] == 1536
    # 464 uncached prompt tokens at 1, 1,536 at 0.5, 30 completion tokens at 2 (per 1,000).
    assert usage["cost"] == pytest.approx(0.464 + 0.768 + 0.06)
    assert usage_totals([run])["provider_cached_prompt_tokens"] == 1536
