"""`toolchoice diff --mode live_model` with the targeted plan, budgets, --record and --replay, against the
loopback fake server answering as a model that reads the tool descriptions. Tools written for these tests."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from app.cli import app
from app.errors import ToolChoiceError

from .fake_openai import API_KEY, MODEL, FakeOpenAI, Reply, answer

TOOLS: dict[str, str] = {
    "open_ticket": "Open a support ticket for a customer who reports a problem.",
    "close_ticket": "Close a support ticket once the problem is solved.",
    "assign_ticket": "Assign a support ticket to an agent of the team.",
    "list_agents": "List the support agents of a team and who is on duty.",
    "page_oncall": "Page the engineer on call about an outage.",
    "post_status": "Post a message on the public status page.",
    "refund_order": "Refund a customer's order in full or in part.",
    "ship_order": "Mark an order as shipped with its tracking number.",
    "find_customer": "Find a customer by their email address or name.",
    "export_report": "Export the weekly support report as a spreadsheet.",
}


def _write(path: Path, descriptions: dict[str, str]) -> Path:
    tools = [
        {
            "name": name,
            "description": text,
            "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "Its id."}}},
        }
        for name, text in descriptions.items()
    ]
    path.write_text(json.dumps({"tools": tools}, indent=2), encoding="utf-8")
    return path


def reads_descriptions(request: dict[str, Any]) -> Reply:
    """A deterministic 'model': the tool whose name and description share most words with the request."""
    text = next((m["content"] for m in request["messages"] if m.get("role") == "user"), "")
    asked = set(re.findall(r"[a-z]{3,}", text.lower()))
    best, best_score = "NO_TOOL", 1
    for tool in request.get("tools") or []:
        function = tool["function"]
        own = set(re.findall(r"[a-z]{3,}", f"{function['name'].replace('_', ' ')} {function.get('description', '')}"))
        shared = len(asked & own)
        if shared > best_score:
            best, best_score = function["name"], shared
    return answer(best, {}, reason="shares the most words")


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    base = _write(tmp_path / "base.json", TOOLS)
    head = _write(tmp_path / "head.json", TOOLS | {"close_ticket": "Close a support ticket once the problem is solved."
                                                                    " Use it after the customer confirms the fix."})
    return base, head


@pytest.fixture
def fake() -> Any:
    with FakeOpenAI(handler=reads_descriptions) as server:
        yield server


def _env(server: FakeOpenAI | None, tmp_path: Path, **extra: str) -> dict[str, str | None]:
    env: dict[str, str | None] = {
        "OPENAI_API_KEY": API_KEY if server else None,
        "OPENAI_BASE_URL": server.url if server else None,
        "TOOLCHOICE_CACHE_DIR": str(tmp_path / "cache"),
        "REDIS_URL": None,
        "TOOLCHOICE_PRICE_PER_1K_INPUT": None,
        "TOOLCHOICE_PRICE_PER_1K_OUTPUT": None,
    }
    return env | extra


def run(args: list[str], env: dict[str, str | None]) -> tuple[int, str]:
    """The command as `toolchoice` runs it: a ToolChoiceError is one line and exit 2."""
    result = CliRunner().invoke(app, args, env=env)
    if isinstance(result.exception, ToolChoiceError):
        return 2, f"toolchoice: error: {result.exception}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def _diff(pair: tuple[Path, Path], *more: str) -> list[str]:
    return ["diff", str(pair[0]), str(pair[1]), "--mode", "live_model", "--model", MODEL, "--intents", "3", *more]


def _selection_calls(server: FakeOpenAI) -> int:
    return sum(1 for r in server.chat_requests if r.get("tools"))


def test_the_targeted_plan_asks_only_near_the_change_and_says_what_it_left_out(
    fake: FakeOpenAI, pair: tuple[Path, Path], tmp_path: Path
) -> None:
    code, out = run(_diff(pair, "--format", "json", "--sample", "2"), _env(fake, tmp_path))
    assert code == 0, out
    head = json.loads(out)["comparison"]["head"]
    plan = head["totals"]["live_plan"]
    assert plan["scope"] == "targeted" and plan["sampled"] == 2 and plan["left_out"] > 0
    asked = plan["targeted"] + plan["sampled"]
    left_out = [r for r in head["runs"] if r["why"].startswith("not run: left out of the live plan")]
    assert len(left_out) == plan["left_out"]
    # close_ticket's own cases are asked; each asked case once per side, the head side's unchanged lists
    # being the base side's own calls (from the cache), plus the probe.
    ran = {r["case_id"] for r in head["runs"] if not r["why"].startswith("not run")}
    assert len(ran) == asked
    assert any(r["expected"] == "close_ticket" for r in head["runs"] if r["case_id"] in ran)
    assert _selection_calls(fake) <= 2 * asked


def test_scope_all_asks_every_case_of_the_same_suite(fake: FakeOpenAI, pair: tuple[Path, Path], tmp_path: Path) -> None:
    # A pinned suite (the model would write the cases in the whole scope; this fake writes none).
    cases = tmp_path / "cases.yaml"
    intents = [f"Open a support ticket for customer {i}." for i in range(4)]
    intents += [f"Refund order {i} of a customer." for i in range(4)]
    intents += ["Close the support ticket T-1, the problem is solved.", "Page the engineer on call now."]
    rows = [f"  - {{intent: '{text}', expected: {'refund_order' if 'Refund' in text else 'open_ticket'}}}"
            for text in intents[:8]]  # fmt: skip
    rows += [f"  - {{intent: '{intents[8]}', expected: close_ticket}}"]
    rows += [f"  - {{intent: '{intents[9]}', expected: page_oncall}}"]
    cases.write_text("cases:\n" + "\n".join(rows) + "\n", encoding="utf-8")
    pinned = ["--intents", "0", "--cases", str(cases), "--format", "json", "--sample", "1"]
    code, out = run(_diff(pair, *pinned), _env(fake, tmp_path / "targeted"))
    assert code == 0, out
    targeted = json.loads(out)["comparison"]["head"]["totals"]["live_plan"]
    code, out = run(_diff(pair, *pinned, "--scope", "all"), _env(fake, tmp_path / "all"))
    assert code == 0, out
    every = json.loads(out)["comparison"]["head"]
    assert every["totals"]["live_plan"]["scope"] == "all"
    assert not [r for r in every["runs"] if "left out of the live plan" in r["why"]]
    assert targeted["targeted"] + targeted["sampled"] < len([r for r in every["runs"] if r["expected"]])


def test_the_comment_says_what_the_plan_asked(fake: FakeOpenAI, pair: tuple[Path, Path], tmp_path: Path) -> None:
    code, out = run(_diff(pair, "--format", "md"), _env(fake, tmp_path))
    assert code == 0, out
    said = r"plan: \d+ cases asked: \d+ the change can reach, \d+ sampled of the \d+ others; \d+ left out"
    assert re.search(said, out)
    assert "Live plan: selection accuracy over every scored case, estimated from the targeted cases" in out


def _without_bookkeeping(export: dict[str, Any]) -> dict[str, Any]:
    """The review's evidence: every answer, score and verdict, less the count of calls made and where from."""
    comparison = export["comparison"]
    for side in ("base", "head"):
        report = comparison[side]
        report["totals"] = {k: v for k, v in report["totals"].items() if k in ("live_plan", "measured", "runs")}
        for run_ in report["runs"]:
            if run_.get("usage"):
                run_["usage"] = {k: v for k, v in run_["usage"].items() if k not in ("cached", "replayed")}
    return export


def test_a_replayed_review_is_the_recorded_one_with_no_call_and_no_key(
    fake: FakeOpenAI, pair: tuple[Path, Path], tmp_path: Path
) -> None:
    recording = tmp_path / "answers.jsonl"
    code, recorded = run(_diff(pair, "--format", "json", "--record", str(recording)), _env(fake, tmp_path))
    assert code == 0, recorded
    lines = recording.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["model"] == MODEL and len(lines) > 1
    calls = len(fake.requests)
    # No key, no endpoint, an empty cache: only the recording answers.
    env = _env(None, tmp_path / "elsewhere")
    code, replayed = run(_diff(pair, "--format", "json", "--replay", str(recording)), env)
    assert code == 0, replayed
    assert len(fake.requests) == calls
    assert _without_bookkeeping(json.loads(replayed)) == _without_bookkeeping(json.loads(recorded))
    # The model comes from the recording when none is named.
    no_model = [a for a in _diff(pair, "--format", "md", "--replay", str(recording)) if a not in ("--model", MODEL)]
    code, md = run(no_model, env)
    assert code == 0, md
    assert re.search(r"0 calls, 0 from the cache, \d+ answers replayed from a recording", md)


def test_a_replay_fails_loudly_on_a_missing_answer_another_model_or_a_broken_file(
    fake: FakeOpenAI, pair: tuple[Path, Path], tmp_path: Path
) -> None:
    recording = tmp_path / "answers.jsonl"
    assert run(_diff(pair, "--record", str(recording)), _env(fake, tmp_path))[0] == 0
    calls = len(fake.requests)
    env = _env(None, tmp_path / "elsewhere")
    other_head = _write(tmp_path / "other.json", TOOLS | {"close_ticket": "Close a ticket for good."})
    code, out = run(_diff((pair[0], other_head), "--replay", str(recording)), env)
    assert code == 2 and "no answer recorded for the call" in out and "for case " in out
    code, out = run([*_diff(pair, "--replay", str(recording))[:-4], "--model", "another-model", "--replay",
                     str(recording)], env)  # fmt: skip
    assert code == 2 and f"{recording}:1: recorded for model '{MODEL}', not 'another-model'" in out
    truncated = tmp_path / "truncated.jsonl"
    truncated.write_text(recording.read_text(encoding="utf-8")[:-40], encoding="utf-8")
    code, out = run(_diff(pair, "--replay", str(truncated)), env)
    assert code == 2 and "the recording is truncated" in out and f"{truncated}:" in out
    assert len(fake.requests) == calls  # nothing was asked


def test_a_call_budget_keeps_the_first_cases_and_never_spends_past_it(
    fake: FakeOpenAI, pair: tuple[Path, Path], tmp_path: Path
) -> None:
    code, out = run(_diff(pair, "--format", "json", "--max-calls", "5"), _env(fake, tmp_path))
    assert code == 0, out
    plan = json.loads(out)["comparison"]["head"]["totals"]["live_plan"]
    assert plan["over_budget"] > 0 and plan["budget_calls"] == 5 and plan["planned_calls"] <= 5
    assert len(fake.chat_requests) + len(fake.probe_requests) <= 5  # the probe of the tools counts too


@pytest.mark.parametrize(
    ("more", "says"),
    [
        (["--max-cost", "1"], "--max-cost needs the operator's prices"),
        (["--max-cost", "0"], "--max-cost must be more than 0"),
        (["--max-calls", "0"], "--max-calls"),
        (["--scope", "some"], "--scope"),
    ],
)
def test_bad_budget_and_scope_options_are_one_line_and_exit_2_with_nothing_spent(
    fake: FakeOpenAI, pair: tuple[Path, Path], tmp_path: Path, more: list[str], says: str
) -> None:
    code, out = run(_diff(pair, *more), _env(fake, tmp_path))
    assert code == 2 and says in out
    assert fake.chat_requests == []


def test_live_options_are_refused_in_synthetic_mode(pair: tuple[Path, Path], tmp_path: Path) -> None:
    code, out = run(["diff", str(pair[0]), str(pair[1]), "--record", str(tmp_path / "r.jsonl")], _env(None, tmp_path))
    assert code == 2 and "apply to --mode live_model only" in out


def test_the_estimate_is_the_plan_and_costs_nothing(fake: FakeOpenAI, pair: tuple[Path, Path], tmp_path: Path) -> None:
    code, out = run(_diff(pair, "--estimate"), _env(fake, tmp_path))
    assert code == 0, out
    estimate = json.loads(out)
    assert estimate["scope"] == "targeted" and estimate["calls"] == estimate["plan"]["planned_calls"]
    assert estimate["calls"] < estimate["all_scope"]["calls"]
    assert fake.requests == []


def test_a_second_push_reuses_the_base_side_and_the_sample(
    fake: FakeOpenAI, pair: tuple[Path, Path], tmp_path: Path
) -> None:
    env = _env(fake, tmp_path)
    code, first = run(_diff(pair, "--format", "json"), env)
    assert code == 0, first
    pushed = _write(tmp_path / "pushed.json", TOOLS | {"close_ticket": "Close a support ticket once it is solved."})
    code, out = run(_diff((pair[0], pushed), "--format", "json"), env)
    assert code == 0, out
    second = json.loads(out)["comparison"]
    base = second["base"]["totals"]
    # The base side was asked on the first push: its answers come from the cache now.
    assert base["cached_calls"] > 0 and base["model_calls"] < base["cached_calls"]
    plans = [json.loads(text)["comparison"]["head"]["totals"]["live_plan"] for text in (first, out)]
    drawn = [set(plan["sampled_cases"]) for plan in plans]
    # Cases are drawn by their own hash: the ones the second push's change took into the targeted set (or added
    # to the remainder) are the only ones that can change.
    assert len(drawn[0] & drawn[1]) >= len(drawn[0]) // 2, drawn
