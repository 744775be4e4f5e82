"""lemminflect's answers kept across runs (app/audit/suite/kept_forms.py): the same suite with and without them,
lemminflect never loaded when every word is kept, and a cache that cannot be used changes nothing."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

TOOLS = {
    "tools": [
        {
            "name": "fetch_invoice",
            "description": "Fetches one invoice by its number, with its lines and totals.",
            "inputSchema": {
                "type": "object",
                "properties": {"invoice_number": {"type": "string", "description": "The invoice's number."}},
                "required": ["invoice_number"],
            },
        },
        {
            "name": "list_invoices",
            "description": "Lists the invoices a customer received, newest first.",
            "inputSchema": {
                "type": "object",
                "properties": {"customer_id": {"type": "string", "description": "The customer's id."}},
                "required": ["customer_id"],
            },
        },
        {
            "name": "cancel_subscription",
            "description": "Cancels a customer's subscription at the end of the billing period.",
            "inputSchema": {
                "type": "object",
                "properties": {"subscription_id": {"type": "string"}},
                "required": ["subscription_id"],
            },
        },
    ]
}

# Builds the suite of a tool file in a fresh process and prints its cases, then whether lemminflect was loaded.
SCRIPT = """
import json, sys
from app.audit.loader import load_definitions
from app.audit.suite.build import build_suite
with open(sys.argv[1], encoding="utf-8") as f:
    toolset = load_definitions(sys.argv[1], text=f.read())
suite = build_suite([toolset])
print(json.dumps([c.model_dump(mode="json") for c in suite.cases], sort_keys=True))
print(json.dumps("lemminflect" in sys.modules))
"""


def _suite(tools: Path, cache: Path | None) -> tuple[str, bool]:
    env = {k: v for k, v in os.environ.items() if k not in ("TOOLCHOICE_CACHE_DIR", "TOOLCHOICE_NO_CACHE")}
    if cache is None:
        env["TOOLCHOICE_NO_CACHE"] = "1"
    else:
        env["TOOLCHOICE_CACHE_DIR"] = str(cache)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tools)], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    cases, loaded = done.stdout.splitlines()
    return cases, json.loads(loaded)


@pytest.fixture
def tools(tmp_path: Path) -> Path:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(TOOLS), encoding="utf-8")
    return path


def test_a_second_run_reads_every_word_kept_and_writes_the_same_suite(tools: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    without, loaded_without = _suite(tools, None)
    first, loaded_first = _suite(tools, cache)
    second, loaded_second = _suite(tools, cache)
    assert loaded_without and loaded_first
    assert not loaded_second  # every word this suite asks about was kept by the first run
    assert first == without and second == without
    with sqlite3.connect(cache / "words.sqlite3") as db:
        kinds = {row[0] for row in db.execute("SELECT substr(key, 1, instr(key, char(0)) - 1) FROM answers")}
    assert kinds <= {"lemmas", "lemma", "inflection"} and "lemmas" in kinds


def test_kept_answers_are_lemminflects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lemminflect import getAllLemmas, getInflection, getLemma

    from app.audit.suite import kept_forms, word_forms

    monkeypatch.setenv("TOOLCHOICE_CACHE_DIR", str(tmp_path))
    words = ["fetches", "information", "analyses", "unstages", "data", "went", "criteria", "indices", "zorbs"]
    computed = {
        w: (word_forms._all_lemmas(w), word_forms._lemma(w, "VERB"), word_forms._inflection(w, "VBZ")) for w in words
    }
    for word, (lemmas, lemma, inflected) in computed.items():
        assert {pos: tuple(forms) for pos, forms in lemmas.items()} == getAllLemmas(word)
        assert tuple(lemma) == tuple(getLemma(word, "VERB"))
        assert tuple(inflected) == tuple(getInflection(word, tag="VBZ"))
        for kind, compute, args in (
            ("lemmas", word_forms._all_lemmas, (word,)),
            ("lemma", word_forms._lemma, (word, "VERB")),
            ("inflection", word_forms._inflection, (word, "VBZ")),
        ):
            kept_forms.kept(kind, compute, *args)
    kept_forms.flush()
    kept_forms._kept.cache_clear()
    try:
        known = kept_forms._kept()
        for word, (lemmas, lemma, inflected) in computed.items():
            # What JSON gives back is what was computed (lists for tuples, order kept).
            assert known[f"lemmas\0{word}"] == lemmas
            assert known[f"lemma\0{word}\0VERB"] == lemma
            assert known[f"inflection\0{word}\0VBZ"] == inflected
    finally:
        kept_forms._kept.cache_clear()


def test_a_damaged_or_unwritable_cache_changes_nothing(tools: Path, tmp_path: Path) -> None:
    without, _ = _suite(tools, None)
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "words.sqlite3").write_bytes(b"this is not a database" * 100)
    assert _suite(tools, damaged)[0] == without
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache directory should be", encoding="utf-8")
    assert _suite(tools, blocked)[0] == without
