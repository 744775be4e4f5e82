"""live_model through a real OpenAI-compatible server: llama.cpp's, serving SmolLM2-135M-Instruct on loopback.

Installed by `.ci/live-server.sh` (CI runs it); skipped with the reason when it is not installed. The model is
tiny: these tests check the plumbing (formats, usage, errors, the before/after protocol), not its judgement.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.egress.policy import ENV_ALLOW_HOSTS
from tests.conftest import TEST_ALLOW_HOSTS, shared_path

from .conftest import TOOLS
from .fake_openai import FakeOpenAI, Reply
from .llama_server import API_KEY, MODEL_ALIAS, free_port, installed, running

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
# Each run waits for the model; a stuck server should fail the test, not hang CI.
RUN_TIMEOUT_S = 600
# The 50-case evaluation: about 6 s a call on a quiet 2-core machine (bench/RESULTS.md), several times that when
# the machine is shared; the whole CI run still stays far inside its limit.
EVAL_TIMEOUT_S = 1800


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    found = installed()
    if isinstance(found, str):
        pytest.skip(found)
    python, model = found
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with running(python, model, log=log) as url:
        yield url


def toolchoice(
    *args: str, env: dict[str, str], cwd: Path, timeout: float = RUN_TIMEOUT_S
) -> subprocess.CompletedProcess[str]:
    """This checkout's CLI (not whichever copy is installed) in a subprocess, with only the given live settings."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "TOOLCHOICE_", "REDIS_URL"))}
    env = {**base, "PYTHONPATH": str(ROOT), **env}
    command = [sys.executable, "-m", "app.cli", *args]
    return subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def live_env(url: str, tmp_path: Path, **extra: str) -> dict[str, str]:
    return {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": url,
        "TOOLCHOICE_CACHE_DIR": str(tmp_path / "cache"),
        # The server is on loopback, which ToolChoice refuses unless the operator allows it.
        ENV_ALLOW_HOSTS: TEST_ALLOW_HOSTS,
        # SmolLM2's chat template renders no tools: the tool list goes into the system message.
        "TOOLCHOICE_TOOLS_IN_PROMPT": "1",
        # The model's time goes into long answers (it likes to copy the tool list into `arguments`); a cut
        # answer is a failed run, which these tests are as glad to see as a good one.
        "TOOLCHOICE_MAX_TOKENS": "160",
        # The server answers one request at a time; a busy machine makes each one slow.
        "TOOLCHOICE_TIMEOUT_S": "300",
        **extra,
    }


# Concurrency 1: the server runs one request at a time, and the others' waiting counts against their timeout.
LIVE = ["--mode", "live_model", "--model", MODEL_ALIAS, "--concurrency", "1"]


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
        "  - {id: c1, intent: 'Post \"we are live\" to the #ops Slack channel', expected: send_slack_message}\n"
        "  - {id: c2, intent: 'Find open issues about login in acme/web on GitHub', expected: github.search_issues}\n"
        "  - {id: c3, intent: 'What is the capital of Peru?', expected: NO_TOOL}\n"
        "  - {id: c4, intent: 'Tell the team in #release on Slack that 2.3.0 shipped', expected: send_slack_message}\n",
        encoding="utf-8",
    )
    return {"base": base, "head": head, "cases": cases}


def model_runs(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in report["runs"] if not r["why"].startswith("not run")]


def test_audit_through_the_real_server_records_model_settings_tokens_and_latency(
    real: str, files: dict[str, Path], tmp_path: Path
) -> None:
    env = live_env(real, tmp_path)
    # No generated cases: on a busy 2-core machine each call takes up to ~65 s, and generation adds a dozen.
    args = ["audit", str(files["base"]), "--cases", str(files["cases"]), "--intents", "0", *LIVE]
    done = toolchoice(*args, "--format", "json", env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)["report"]
    assert report["mode"] == "live_model" and report["selector"]["name"] == MODEL_ALIAS
    settings = report["selector"]["settings"]
    assert settings["temperature"] == 0 and settings["tools_in_prompt"] is True and settings["max_tokens"] == 160
    runs = model_runs(report)
    assert len(runs) == 4  # the four user cases
    for run in runs:
        usage = run["usage"]
        # llama.cpp refuses json_schema (HTTP 500): every answer was asked for in JSON mode with the schema.
        assert usage["model"] == MODEL_ALIAS and usage["response_format"] == "json_object"
        assert usage["prompt_tokens"] > 200 and usage["completion_tokens"] > 0 and usage["latency_ms"] > 0
        assert run["raw"] is not None  # what the model said, kept whether or not it was usable
    totals = report["totals"]
    # Two runs of one request on one tool set (a generated case repeating another) share one call.
    assert totals["models_returned"] == [MODEL_ALIAS] and totals["model_calls"] + totals["cached_calls"] == len(runs)
    assert totals["prompt_tokens"] == sum(r["usage"]["prompt_tokens"] for r in runs if not r["usage"]["cached"])
    # The same audit again, as text: every answer from the cache, and the line says so.
    again = toolchoice(*args, "--format", "text", env=env, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    line = next(ln for ln in again.stdout.splitlines() if ln.startswith("Model runs:"))
    assert f"model {MODEL_ALIAS} as the server reports it" in line and "answers as json_object" in line
    assert f"0 calls, {len(runs)} from the cache" in line


def test_diff_through_the_real_server_runs_one_suite_on_both_sides_and_confirms_flips(
    real: str, files: dict[str, Path], tmp_path: Path
) -> None:
    env = live_env(real, tmp_path)
    args = ["diff", str(files["base"]), str(files["head"]), "--cases", str(files["cases"]), "--intents", "0", *LIVE]
    done = toolchoice(*args, "--repeats", "1", "--format", "json", env=env, cwd=tmp_path)
    assert done.returncode in (0, 1), done.stderr
    comparison = json.loads(done.stdout)["comparison"]
    base, head = comparison["base"], comparison["head"]
    assert base["suite_hash"] == head["suite_hash"]
    assert [r["case_id"] for r in model_runs(base)] == [r["case_id"] for r in model_runs(head)]
    assert base["selector"] == head["selector"]
    flips = [r for r in model_runs(base) if r["passed"] != _by_id(head)[r["case_id"]]["passed"]]
    claimed = {d["case_id"] for d in comparison["regressions"] + comparison["improvements"]}
    unstable = {d["case_id"] for d in comparison.get("unstable", [])}
    # Every flip was asked again: claimed only when the repeat agreed, else reported unstable.
    assert {r["case_id"] for r in flips} == claimed | unstable
    md = toolchoice(*args, "--format", "md", env=env, cwd=tmp_path)
    assert md.returncode in (0, 1), md.stderr
    assert f"Model runs — model {MODEL_ALIAS} as the server reports it" in md.stdout


def _by_id(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["case_id"]: r for r in report["runs"]}


@pytest.mark.corpus
def test_eval_selector_on_50_labeled_cases_through_the_real_server(real: str, tmp_path: Path) -> None:
    files = sorted(str(p) for p in shared_path("corpora", "labeled").glob("*.dev.json"))
    args = ["eval-selector", *files, "--sample", "50", *LIVE]
    done = toolchoice(*args, env=live_env(real, tmp_path), cwd=tmp_path, timeout=EVAL_TIMEOUT_S)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["selector"]["mode"] == "live_model" and result["selector"]["name"] == MODEL_ALIAS
    overall = result["overall"]
    assert overall["cases"] == 50 and 0.0 <= overall["accuracy"] <= 1.0


def test_a_template_that_drops_the_tools_is_caught_on_the_real_server(
    real: str, files: dict[str, Path], tmp_path: Path
) -> None:
    env = live_env(real, tmp_path, TOOLCHOICE_TOOLS_IN_PROMPT="0")
    done = toolchoice(
        "audit", str(files["base"]), "--cases", str(files["cases"]), "--intents", "0", *LIVE, env=env, cwd=tmp_path
    )
    assert done.returncode == 2, done.stdout
    assert "chat template drops the tools" in done.stderr and "TOOLCHOICE_TOOLS_IN_PROMPT=1" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("what", "message"),
    [
        ("wrong model name", re.escape(f"does not serve model 'gpt-4o-mini' (it serves: {MODEL_ALIAS})")),
        ("wrong key", re.escape("refused the API key (401")),
        ("server down", "cannot reach the model endpoint"),
        ("server answering garbage", r"unusable response|answered without choices|unexpected shape"),
    ],
)
def test_misconfiguration_fails_loudly_with_exit_2(
    real: str, files: dict[str, Path], tmp_path: Path, what: str, message: str
) -> None:
    env = live_env(real, tmp_path)
    model = MODEL_ALIAS
    garbage = FakeOpenAI(handler=lambda _request: Reply(body="<html>502 upstream says hello</html>"))
    if what == "wrong model name":
        model = "gpt-4o-mini"
    elif what == "wrong key":
        env["OPENAI_API_KEY"] = "not-the-key"
    elif what == "server down":
        env["OPENAI_BASE_URL"] = f"http://127.0.0.1:{free_port()}/v1"
    else:
        garbage.models = (MODEL_ALIAS,)
        garbage.api_key = API_KEY
        env["OPENAI_BASE_URL"] = garbage.url
    args = ["audit", str(files["base"]), "--cases", str(files["cases"]), "--intents", "0"]
    with garbage:
        done = toolchoice(*args, "--mode", "live_model", "--model", model, env=env, cwd=tmp_path)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert re.search(message, done.stderr) and "Traceback" not in done.stderr
    assert "synthetic" not in done.stdout  # nothing was reported in place of the model's answers
