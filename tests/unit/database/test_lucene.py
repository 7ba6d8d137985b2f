"""Text becomes Lucene queries of words only: nothing in it can change what they ask."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphrag_neo4j.database.lucene import MAX_TERMS, content_query, shared_word_query


@pytest.mark.parametrize(
    ("question", "query"),
    [
        ('Who wrote "Hamlet": the ~play AND (its) sequel?', "wrote hamlet play sequel"),
        ("title:Euler OR name:Bernoulli^3", "title euler name bernoulli 3"),
        ("C++ -- a\\b [1700 TO 1782] {x} !y *z? /re/", "1700 1782 re"),
        ("NOT", "not"),
        ("¿Quién enseñó a Euler?", "quién enseñó euler"),
    ],
)
def test_questions_become_word_only_queries(question: str, query: str) -> None:
    assert content_query(question) == query


def test_a_question_of_stop_words_or_symbols_asks_nothing() -> None:
    assert content_query("Who is it? ...") == "" and content_query('":~()') == ""


def test_long_questions_are_cut_to_the_clause_limit() -> None:
    words = " ".join(f"word{i}" for i in range(100))
    assert len(content_query(words).split()) == MAX_TERMS


def test_names_sharing_a_word_of_three_letters_or_more_are_asked_for_once_each() -> None:
    assert shared_word_query("ada lovelace-byron of ada") == "ada OR byron OR lovelace"
    assert shared_word_query("j. r. r.") == ""


@given(st.text(max_size=80))
def test_no_query_holds_anything_but_words_and_its_own_operators(text: str) -> None:
    for query in (content_query(text), shared_word_query(text)):
        assert all(re.fullmatch(r"\w+|OR", word) for word in query.split())
