"""The BM25 floor, and the synthetic selector kept above it on every labeled dev file and on the natural set."""

from __future__ import annotations

import math

import pytest

from app.audit.bm25_floor import THRESHOLD, Bm25Floor, beside_floor
from app.audit.models import NO_TOOL
from app.selector_factory import synthetic_selector
from tests.conftest import ROOT, shared_path

WEATHER = {
    "name": "get_weather_forecast",
    "description": "Weather forecast for a city: temperature, rain and wind.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
}
EMAIL = {
    "name": "send_email",
    "description": "Send an email message to a recipient.",
    "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}, "subject": {"type": "string"}}},
}
# Corpus statistics come from the tools of the cases evaluated: many unrelated tools make weather rare.
OTHERS = [{"name": f"tool_{i}", "description": f"Manage item kind {i} of the inventory."} for i in range(40)]
NATURAL = ROOT / "tests" / "fixtures" / "natural" / "natural.dev.json"


def test_the_threshold_is_ln_100() -> None:
    assert pytest.approx(math.log(100)) == THRESHOLD


def test_floor_calls_the_best_tool_when_its_score_reaches_the_threshold() -> None:
    floor = Bm25Floor([[WEATHER, EMAIL], *([t] for t in OTHERS)])
    sel = floor.select([WEATHER, EMAIL], "weather forecast with rain and wind for the city of Oslo")
    assert sel.tool == "get_weather_forecast"
    scores = floor.scores([WEATHER, EMAIL], "weather forecast with rain and wind for the city of Oslo")
    assert scores[0] >= THRESHOLD > scores[1]


def test_floor_abstains_below_the_threshold_and_says_by_how_much() -> None:
    floor = Bm25Floor([[WEATHER, EMAIL], *([t] for t in OTHERS)])
    sel = floor.select([WEATHER, EMAIL], "a recipient of the inventory")
    assert sel.tool == NO_TOOL
    assert "send_email" in sel.reason and f"{THRESHOLD:.2f}" in sel.reason
    assert floor.select([], "anything").tool == NO_TOOL


def test_a_corpus_of_one_list_cannot_reach_the_threshold() -> None:
    # With N = 1 every idf is ln(1 + 0.5/1.5): the reason the floor takes corpus statistics.
    floor = Bm25Floor([[WEATHER]])
    assert floor.select([WEATHER], "weather forecast temperature rain wind city").tool == NO_TOOL


@pytest.mark.corpus
@pytest.mark.slow
def test_committed_profile_stays_above_the_floor_on_every_dev_file() -> None:
    files = sorted(shared_path("corpora", "labeled").glob("*.dev.json"))
    rows, overall, _, _ = beside_floor(synthetic_selector(), files)
    assert len(rows) == len(files) >= 8
    below = {r.file: r.below_floor() for r in rows if r.below_floor()}
    assert below == {}, below
    assert overall.below_floor() == []  # overall, NO_TOOL half and tool half
    by_name = {r.file: r.selector for r in rows}
    # Single-tool requests: measured 84.6% (bench/RESULTS.md). An earlier goal of 85% was met in-sample only (86.0%
    # with 85 synonym groups written on the dev files, deleted since because they added nothing elsewhere).
    assert (by_name["bfcl_live_simple.dev.json"].accuracy or 0) >= 0.84


@pytest.mark.corpus
@pytest.mark.slow
def test_synthetic_beats_the_floor_on_the_natural_set() -> None:
    shared_path("corpora", "servers")
    rows, overall, _, _ = beside_floor(synthetic_selector(), [NATURAL])
    assert rows[0].selector.cases == 140
    assert overall.below_floor() == []
    # Measured 41.4% (NO_TOOL 60.7%, tool 36.6%) against 31.4% for the floor (bench/RESULTS.md).
    assert (overall.selector.accuracy or 0) >= 0.40
