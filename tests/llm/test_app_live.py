"""The App path in live_model mode: run_review with the real AuditReviewer, a repository config asking for
live_model, the model endpoint on loopback; failures complete the check run as failed, never synthetic."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.audit.gate import Conclusion
from app.config import CONFIG_PATH
from app.github.definitions import ChangedFiles, PullRequestInfo, TreeListing
from app.github.publisher import CheckResult
from app.review.models import Outcome, Target
from app.review.reviewer import AuditReviewer
from app.review.run import run_review

from .conftest import TOOLS, fast_profile
from .fake_openai import API_KEY, MODEL, FakeOpenAI, Reply, completion, error

BASE, HEAD = "b" * 40, "h" * 40
DEFS = "mcp/tools.json"


class MemorySource:
    """A pull request whose head changes one tool description; files by commit."""

    def __init__(self, config: str) -> None:
        head_tools = [dict(t) for t in TOOLS]
        head_tools[2]["description"] = "Send a chat message."
        self.files = {
            BASE: {DEFS: json.dumps({"tools": TOOLS}), CONFIG_PATH: config},
            HEAD: {DEFS: json.dumps({"tools": head_tools}), CONFIG_PATH: config},
        }

    def pull_request(self, number: int) -> PullRequestInfo:
        return PullRequestInfo(number=number, base_sha=BASE, head_sha=HEAD)

    def pull_request_for_head(self, head_sha: str) -> int | None:
        return 7

    def merge_base(self, base_sha: str, head_sha: str) -> str:
        return BASE

    def changed_files(self, number: int) -> ChangedFiles:
        return ChangedFiles(paths=[DEFS])

    def tree(self, sha: str) -> TreeListing:
        return TreeListing(blobs={path: f"{sha}:{path}" for path in self.files[sha]})

    def blob_text(self, blob_sha: str, *, path: str) -> str:
        sha, _, name = blob_sha.partition(":")
        return self.files[sha][name]

    def file_text(self, path: str, sha: str) -> str | None:
        return self.files[sha].get(path)


class MemorySink:
    def __init__(self) -> None:
        self.checks: dict[int, CheckResult | None] = {}
        self.comments: list[str] = []

    def start_check(self, head_sha: str, *, external_id: str, summary: str = "") -> int:
        self.checks[len(self.checks) + 1] = None
        return len(self.checks)

    def complete_check(self, check_run_id: int, result: CheckResult) -> None:
        self.checks[check_run_id] = result

    def find_sticky(self, number: int) -> int | None:
        return 1 if self.comments else None

    def check_url(self, check_run_id: int) -> str | None:
        return f"https://github.example/checks/{check_run_id}"

    def upsert_comment(self, number: int, body: str, *, report_url: str | None = None) -> tuple[int, bool]:
        self.comments.append(body)
        return 1, len(self.comments) == 1


@pytest.fixture
def live_env(monkeypatch: pytest.MonkeyPatch, server: FakeOpenAI, tmp_path: Path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("TOOLCHOICE_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("REDIS_URL", "TOOLCHOICE_ALLOWED_MODELS", "TOOLCHOICE_PRICE_PER_1K_INPUT"):
        monkeypatch.delenv(name, raising=False)


def review(config: str) -> tuple[Outcome, MemorySink]:
    sink = MemorySink()
    target = Target(owner="octo", repo="tools", head_sha=HEAD, number=7, base_sha=BASE)
    outcome = run_review(target, source=MemorySource(config), sink=sink, reviewer=AuditReviewer())
    return outcome, sink


LIVE_CONFIG = f"mode: live_model\nmodel: {MODEL}\nconcurrency: 4\n"


def test_live_review_publishes_a_report_labeled_live_model(server: FakeOpenAI, live_env: Any) -> None:
    outcome, sink = review(LIVE_CONFIG)
    assert outcome == Outcome.PUBLISHED
    (check,) = sink.checks.values()
    assert check is not None and check.conclusion != Conclusion.FAILURE
    assert len(sink.comments) == 1 and "live_model" in sink.comments[0]
    assert server.chat_requests and all(r["temperature"] == 0 for r in server.chat_requests)
    calls = len(server.chat_requests)
    # A new push of the same PR: the base side's answers (and unchanged head answers) come from the cache.
    review(LIVE_CONFIG)
    assert len(server.chat_requests) == calls


def test_auth_error_fails_the_check_run_with_the_reason(
    server: FakeOpenAI, live_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "revoked")
    outcome, sink = review(LIVE_CONFIG)
    (check,) = sink.checks.values()
    assert outcome == Outcome.INPUT_INVALID
    assert check is not None and check.conclusion == Conclusion.FAILURE
    assert "refused the API key (401" in check.summary
    assert sink.comments == []


def test_model_the_operator_does_not_allow_fails_before_any_call(
    server: FakeOpenAI, live_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLCHOICE_ALLOWED_MODELS", "gpt-approved")
    outcome, sink = review(LIVE_CONFIG)
    assert outcome == Outcome.INPUT_INVALID
    (check,) = sink.checks.values()
    assert check is not None and check.conclusion == Conclusion.FAILURE
    assert "not allowed by the operator" in check.summary
    assert server.requests == [] and sink.comments == []


def _garbage(request: dict[str, Any]) -> Reply:
    return completion("I think the answer is probably the second one?")


ENDPOINT_FAULTS = {
    "429 throughout": lambda request: error(429, "Rate limit reached", headers={"Retry-After": "0"}),
    "500 throughout": lambda request: error(500, "internal error", headers={"Retry-After": "0"}),
    "502 throughout": lambda request: error(502, "bad gateway", headers={"Retry-After": "0"}),
    "no answer in time": lambda request: Reply(delay=1.0, body={}),
    "no chat completion": lambda request: Reply(body={"unexpected": True}),
}


@pytest.mark.parametrize("fault", sorted(ENDPOINT_FAULTS))
def test_endpoint_faults_fail_the_check_run_and_never_pass_or_comment(
    fault: str, server: FakeOpenAI, live_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.llm.factory.load_profile", lambda: fast_profile(timeout_s=0.3, max_retries=1))
    server.handler = ENDPOINT_FAULTS[fault]
    outcome, sink = review(LIVE_CONFIG)
    (check,) = sink.checks.values()  # started once, completed once
    assert outcome == Outcome.INPUT_INVALID
    assert check is not None and check.conclusion == Conclusion.FAILURE
    assert "Nothing was judged" in check.summary
    assert sink.comments == []
    assert server.chat_requests


def test_unreadable_answers_are_never_counted_as_passes(
    server: FakeOpenAI, live_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.llm.factory.load_profile", lambda: fast_profile())
    server.handler = _garbage
    outcome, sink = review(LIVE_CONFIG)
    assert outcome == Outcome.PUBLISHED
    (check,) = sink.checks.values()
    # The targeted plan runs the template suite; every answer is unreadable, so every run fails on both sides:
    # nothing passes, nothing regresses, and the check says there was nothing to judge rather than success.
    assert check is not None and check.conclusion == Conclusion.NEUTRAL
    assert "gave no usable answer on any of the" in check.summary
    assert "| Selection accuracy | 35% | 0.0 | 0.0 |" in check.summary
