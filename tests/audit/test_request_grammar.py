"""No article or agreement error in the generated requests of the demo, our successor fixtures and the 21 shared
servers, as an independent reader (tests/audit/request_grammar.py) finds them; and that reader finds each kind of
error in sentences written wrong on purpose, so a zero means something."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.audit.suite.values import tool_values
from tests.audit.case_goldens import DEMO, SERVERS, SUCCESSORS, _load, sources
from tests.audit.request_grammar import errors

SOURCES = sources()
# Example values: every variant of every parameter the generator may put into a request.
VARIANTS = 4


def _definition_files(name: str) -> list[Path]:
    if name == "demo":
        return [DEMO / "before.json", DEMO / "after.json"]
    if name.startswith("successors_"):
        base = name.removeprefix("successors_")
        return [SUCCESSORS / f"{base}_base.json", SUCCESSORS / f"{base}_head.json"]
    return [SERVERS / f"{name.removeprefix('servers/')}.json"]


def _values(name: str) -> set[str]:
    """Every example value the source's tools give a request (a value such as "invoices" is a name, not a noun)."""
    return {
        value.text
        for path in _definition_files(name)
        for tool in _load(path).tools
        for variant in range(VARIANTS)
        for value in tool_values(tool, limit=20, variant=variant)
    }


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_generated_requests_have_no_article_or_agreement_error(name: str) -> None:
    values = _values(name)
    wrong = [
        f"{case.id}: {case.intent} ({e.kind}: {e.words})"
        for case in SOURCES[name]()
        for e in errors(case.intent, values)
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("Get an unified diff of the page.", "article"),
        ("Add an user to the team.", "article"),
        ("Wait a hour for the build.", "article"),
        ("Read an URL from the page.", "article"),
        ("Fetch a notifications for me.", "singular determiner"),
        ("Archive each repositories in acme.", "singular determiner"),
        ("List these file in acme/webshop.", "plural determiner"),
        ('Is there any issues about "login"?', "there is/are"),
        ('Are there any code about "parseConfig"?', "there is/are"),
        ("The notifications is out of date.", "subject and verb"),
        ("The ticket T-1042 are no longer needed.", "subject and verb"),
        ("The pods in payments still needs to run again.", "subject and verb"),
        ("The route and fare for Lisbon still needs to be worked out.", "subject and verb"),
    ],
)
def test_the_reader_finds_each_kind_of_error(sentence: str, kind: str) -> None:
    assert [e.kind for e in errors(sentence, ["T-1042", "payments"])] == [kind]


@pytest.mark.parametrize(
    "sentence",
    [
        "Get a unified diff of the page.",
        "Wait an hour for the build.",
        "Open a URL in the browser.",
        "Get an HTML page.",
        "Make a one-off backup.",
        'Is there any code about "parseConfig"?',
        'Are there any issues about "login"?',
        "The collection invoices in orders is no longer needed.",
        "The project PROJ's epics still need to be grouped.",
        "The NetObserv flow records in payments still need to be exported.",
        "Get one of the files.",
        "The route and fare for Lisbon still need to be worked out.",
        "The quick and cheap route for Lisbon still needs to be worked out.",
    ],
)
def test_the_reader_passes_correct_sentences(sentence: str) -> None:
    assert errors(sentence, ["invoices", "orders", "payments"]) == []
