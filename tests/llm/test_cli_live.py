"""`toolchoice audit|diff --mode live_model` in a subprocess against the loopback fake server."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import TEST_ALLOW_HOSTS

from app.egress.policy import ENV_ALLOW_HOSTS
from app.llm.tools import map_tools

from .conftest import TOOLS
from .fake_openai import API_KEY, MODEL, RETURNED_MODEL, FakeOpenAI, error

# Each test starts `toolchoice` in a subprocess (seconds each); the default run keeps only the 401 case.
slow = pytest.mark.slow


def toolchoice(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("toolchoice")
    command = [exe, *args] if exe else [sys.executable, "-m", "app.cli", *args]
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "TOOLCHOICE_", "REDIS_URL"))}
    return subprocess.run(command, env={**base, **env}, cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    base = tmp_path / "base.json"
    base.write_text(json.dumps({"tools": TOOLS}, indent=2), encoding="utf-8")
    changed = [dict(t) for t in TOOLS]
    changed[2]["description"] = "Send a chat message."
    head = tmp_path / "head.json"
    head.write_text(json.dumps({"tools": changed}, indent=2), encoding="utf-8")
    cases = tmp_path / "cases.yaml"
    cases.write_text(
        "cases:\n"
        "  - {id: c1, intent: 'tell #ops via send_slack_message that we are live', expected: send_slack_message}\n"
        "  - {id: c2, intent: 'what is the capital of Peru?', expected: NO_TOOL}\n",
        encoding="utf-8",
    )
    return {"base": base, "head": head, "cases": cases}


def live_env(server: FakeOpenAI, tmp_path: Path, **extra: str) -> dict[str, str]:
    return {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": server.url,
        "TOOLCHOICE_CACHE_DIR": str(tmp_path / "cache"),
        ENV_ALLOW_HOSTS: TEST_ALLOW_HOSTS,  # the fake server is on loopback
        **extra,
    }


def audit_args(files: dict[str, Path], *more: str) -> list[str]:
    return ["audit", str(files["base"]), "--cases", str(files["cases"]), "--intents", "1", *more]


@slow
def test_live_audit_reports_only_model_runs_and_a_rerun_costs_nothing(
    server: FakeOpenAI, files: dict[str, Path], tmp_path: Path
) -> None:
    env = live_env(server, tmp_path)
    args = audit_args(files, "--mode", "live_model", "--model", MODEL, "--concurrency", "4", "--format", "json")
    first = toolchoice(*args, env=env, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    report: dict[str, Any] = json.loads(first.stdout)["report"]
    assert report["mode"] == "live_model"
    assert report["selector"]["name"] == MODEL and report["selector"]["settings"]["concurrency"] == 4
    assert report["selector"]["profile_hash"]
    runs = report["runs"]
    calls = len(server.chat_requests)
    # Selection calls carry the tools; the others are the model writing and validating cases.
    selection_calls = [r for r in server.chat_requests if r.get("tools")]
    assert len(selection_calls) == len([r for r in runs if not r["why"].startswith("not run")]) > 0
    assert calls > len(selection_calls), "live mode writes its generated cases with the model"
    assert all(r["usage"]["model"] == RETURNED_MODEL for r in runs if r.get("usage"))
    assert {r["case_id"]: r["selected"] for r in runs}["c1"] == "send_slack_message"
    sent = selection_calls[0]
    assert sent["temperature"] == 0 and sent["tools"] == map_tools(TOOLS).tools
    assert {r["messages"][-1]["content"] for r in server.chat_requests} >= {
        "tell #ops via send_slack_message that we are live"
    }
    second = toolchoice(*args, env=env, cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert len(server.chat_requests) == calls
    again = json.loads(second.stdout)["report"]
    assert all(r["usage"]["cached"] for r in again["runs"] if r.get("usage"))


@slow
def test_estimate_prints_calls_and_tokens_without_calling(
    server: FakeOpenAI, files: dict[str, Path], tmp_path: Path
) -> None:
    args = audit_args(files, "--mode", "live_model", "--model", MODEL, "--estimate")
    done = toolchoice(*args, env=live_env(server, tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    estimate = json.loads(done.stdout)
    assert estimate["calls"] > 0 and estimate["approx_prompt_tokens"] > estimate["calls"]
    assert server.requests == []


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        ({"OPENAI_API_KEY": "wrong"}, "refused the API key (401"),
        pytest.param({"OPENAI_API_KEY": ""}, "needs an API key", marks=slow),
        pytest.param({"TOOLCHOICE_ALLOWED_MODELS": "gpt-a"}, "not allowed by the operator", marks=slow),
    ],
)
def test_live_audit_fails_loudly_with_exit_2(
    server: FakeOpenAI, files: dict[str, Path], tmp_path: Path, extra: dict[str, str], needle: str
) -> None:
    args = audit_args(files, "--mode", "live_model", "--model", MODEL, "--format", "json")
    done = toolchoice(*args, env=live_env(server, tmp_path, **extra), cwd=tmp_path)
    assert done.returncode == 2
    assert needle in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""  # no report at all, never a synthetic one


@slow
def test_endpoint_errors_after_retries_fail_the_audit(
    server: FakeOpenAI, files: dict[str, Path], tmp_path: Path
) -> None:
    server.handler = lambda request: error(503, "overloaded", headers={"Retry-After": "0"})
    args = audit_args(files, "--mode", "live_model", "--model", MODEL, "--concurrency", "1")
    done = toolchoice(*args, env=live_env(server, tmp_path), cwd=tmp_path)
    assert done.returncode == 2
    assert "failing with 503 after 5 attempts" in done.stderr
    assert len(server.chat_requests) == 5  # the profile's 4 retries, then the audit stops


@slow
def test_unknown_model_fails_the_audit(server: FakeOpenAI, files: dict[str, Path], tmp_path: Path) -> None:
    args = audit_args(files, "--mode", "live_model", "--model", "gpt-unknown")
    done = toolchoice(*args, env=live_env(server, tmp_path), cwd=tmp_path)
    assert done.returncode == 2 and "does not serve model 'gpt-unknown'" in done.stderr


@slow
def test_model_from_the_config_file(server: FakeOpenAI, files: dict[str, Path], tmp_path: Path) -> None:
    config = tmp_path / "toolchoice.yml"
    config.write_text(f"mode: live_model\nmodel: {MODEL}\n", encoding="utf-8")
    done = toolchoice(
        *audit_args(files, "--config", str(config), "--format", "json"), env=live_env(server, tmp_path), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["report"]["selector"]["name"] == MODEL
    assert server.chat_requests


@slow
def test_live_diff_runs_both_sides_on_the_same_suite(
    server: FakeOpenAI, files: dict[str, Path], tmp_path: Path
) -> None:
    args = [
        "diff",
        str(files["base"]),
        str(files["head"]),
        "--cases",
        str(files["cases"]),
        "--intents",
        "1",
        "--mode",
        "live_model",
        "--model",
        MODEL,
        "--repeats",
        "2",
        "--format",
        "json",
    ]
    done = toolchoice(*args, env=live_env(server, tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    comparison = json.loads(done.stdout)["comparison"]
    assert comparison["mode"] == "live_model"
    assert comparison["base"]["suite_hash"] == comparison["head"]["suite_hash"]
    assert comparison["base"]["selector"]["profile_hash"] == comparison["head"]["selector"]["profile_hash"]
    texts = [r["messages"][-1]["content"] for r in server.chat_requests]
    assert texts.count("what is the capital of Peru?") == 2  # once per side; the head's tools differ


@slow
def test_eval_selector_in_live_mode(server: FakeOpenAI, tmp_path: Path) -> None:
    labeled = Path(__file__).resolve().parent.parent / "fixtures" / "labeled" / "small.json"
    cases = json.loads(labeled.read_text(encoding="utf-8"))["cases"]
    args = ["eval-selector", str(labeled), "--mode", "live_model", "--model", MODEL, "--concurrency", "4"]
    done = toolchoice(*args, env=live_env(server, tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)
    assert len(server.chat_requests) == len(cases)
    assert {r["messages"][-1]["content"] for r in server.chat_requests} == {c["intent"] for c in cases}
