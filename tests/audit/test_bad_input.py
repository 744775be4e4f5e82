"""Bad input at scale: 1,000+ mutations of the real corpus servers through loader -> rules -> suite -> selection ->
render. None may raise; every refusal names the file and line. (Speed and memory are measured in
bench/bench_fuzz.py, not asserted here.)"""

from __future__ import annotations

import random
from functools import cache

import pytest
from conftest import shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .mutations import MUTATIONS, mutate, names_file_and_line, run_pipeline, seed_texts

pytestmark = [pytest.mark.slow, pytest.mark.corpus]

# Seconds per input each: a few of every seed's kind below, the cheap kinds through the property test.
HEAVY = ("10 MB string", "100k-member enum")
LIGHT = sorted(k for k in MUTATIONS if k not in HEAVY)


@cache
def _seeds() -> list[tuple[str, str]]:
    return seed_texts(shared_path("corpora", "servers"))


def _check(kind: str, seed: int, salt: int) -> None:
    seeds = _seeds()
    rng = random.Random(salt)
    name, text = seeds[seed % len(seeds)]
    suffix, bad = mutate(kind, text, rng)
    fname = name.rsplit(".", 1)[0] + suffix
    ended = run_pipeline(fname, bad)  # anything raised fails the test with its traceback
    if ended.outcome == "refused":
        assert names_file_and_line(fname, ended.message), ended.message


@settings(
    max_examples=1000,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(kind=st.sampled_from(LIGHT), seed=st.integers(0, 1000), salt=st.integers(0, 2**32 - 1))
def test_mutated_corpus_files_never_raise_and_refusals_name_file_and_line(kind: str, seed: int, salt: int) -> None:
    _check(kind, seed, salt)


@pytest.mark.parametrize("kind", HEAVY)
@pytest.mark.parametrize("salt", [1, 2, 3])
def test_huge_strings_and_enums_are_audited(kind: str, salt: int) -> None:
    _check(kind, salt * 7, salt)
