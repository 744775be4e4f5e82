"""The indefinite article a request gives a word (app/audit/suite/articles.py)."""

from __future__ import annotations

import pytest

from app.audit.suite.articles import indefinite_article, with_articles


@pytest.mark.parametrize(
    ("word", "article"),
    [
        ("unified", "a"), ("unique", "a"), ("user", "a"), ("usage", "a"), ("one-time", "a"), ("European", "a"),
        ("unread", "an"), ("uninstalled", "an"), ("unimportant", "an"), ("update", "an"), ("upload", "an"),
        ("hour", "an"), ("honest", "an"), ("hotel", "a"), ("invoice", "an"), ("order", "an"), ("event", "an"),
        ("API", "an"), ("SSH", "an"), ("HTML", "an"), ("MCP", "an"), ("URL", "a"), ("JSON", "a"), ("PDF", "a"),
        ("INSERT", "an"), ("SELECT", "a"), ("8-hour", "an"), ("11", "an"), ("18-month", "an"), ("180", "a"),
        ("1042", "a"), ('"overdue"', "an"), ("ticket", "a"), ("", "a"),
    ],
)  # fmt: skip
def test_the_article_follows_how_the_word_is_spoken(word: str, article: str) -> None:
    assert indefinite_article(word) == article


def test_articles_are_matched_in_a_sentence_both_ways_and_keep_their_capital() -> None:
    text = "A update to an ticket, then an unified view of a unread inbox. An hour later, a API call."
    assert with_articles(text) == (
        "An update to a ticket, then a unified view of an unread inbox. An hour later, an API call."
    )


def test_words_that_merely_contain_an_article_are_left_alone() -> None:
    text = "Plan a trip to Anaheim with a banana and an apple."
    assert with_articles(text) == text
