"""The answer check: an answer that repeats the question, or gives no date to a when-question
and no number to a how-many one, is a misfit; honest "do not know" replies and fitting answers
are not, and the check notes what it found after every method's answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphrag_neo4j.query.answers.run import ANSWER_LOOPED, run_query
from graphrag_neo4j.query.answers.shape import REPEATS_QUESTION, misfit
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.retrieval.naive import NaiveSearch
from tests.unit.query.fakes import fake_services

WHEN = "When did the Admiral Twin open in the city where the Philbrook Museum is located?"
HOW_MANY = "How many spirits visit Scrooge?"
NO_DATE = "gives no date or time, which the question asks for"


@pytest.mark.parametrize(("answer", "question", "problem"), [
    ("Tulsa [Data: Sources (1)]", WHEN, NO_DATE),       # the step on the way, not the answer
    ("Marley and his ghosts", HOW_MANY, "gives no number, which the question asks for"),
    ("US", "What is the debt load for the US carried by China?", REPEATS_QUESTION),
    ("Democratic Governor", "Who are the democratic candidates for governor?", REPEATS_QUESTION),
    ("Tulsa", "In what year did the Admiral Twin open?", NO_DATE),
    ("清华大学", "清华大学在哪个城市？", REPEATS_QUESTION),  # unspaced text: compared squashed
    # A quotation that does not say how long; "no" is not a count.
    ('The passage states: "There is no doubt that Marley was dead."',
     "How long had Marley been dead when the story begins?",
     "gives no number, which the question asks for"),
])
def test_an_answer_that_cannot_answer_is_a_misfit(answer: str, question: str,
                                                   problem: str) -> None:
    assert misfit(answer, question) == problem


@pytest.mark.parametrize(("answer", "question"), [
    ("1998", WHEN),
    ("In the summer of that year", WHEN),
    ("At the end of the book.", "When does Scrooge change?"),  # told by a time word alone
    ("Only at the start of the story [Data: Sources (1)].", "When does Marley's ghost come?"),
    ("Marley died seven years ago, on Christmas Eve [Data: Sources (2)].", "When did Marley die?"),
    ("3 a.m.", "What time does the state stop selling alcohol?"),
    ("Three spirits, after Marley's ghost.", HOW_MANY),
    ("Scrooge", "Who came first, Scrooge or Marley?"),  # a choice: one of its own names
    ("Eine kleine Nachtmusik", "What piece by Mozart is used as a cliche?"),
    ("The data does not say when it opened.", WHEN),    # honest, not a misfit
    ("I do not know.", HOW_MANY),
    ("", WHEN),
])
def test_an_answer_that_may_answer_is_left_alone(answer: str, question: str) -> None:
    assert misfit(answer, question) is None


@given(year=st.integers(min_value=1, max_value=2100), words=st.text(max_size=40))
def test_a_when_answer_with_a_year_is_never_a_misfit(year: int, words: str) -> None:
    assert misfit(f"{words} {year}", "When was the bridge built?") is None


@given(words=st.text(max_size=60))
def test_a_reply_that_says_it_does_not_know_is_never_a_misfit(words: str) -> None:
    assert misfit(f"{words} The passages do not say. {words}", HOW_MANY) is None


async def _answered(tmp_path: Path, check: str) -> tuple[str, list[str]]:
    passages = [{"chunk_id": "c1", "document_id": "d1", "title": "Admiral Twin",
                 "text": "Admiral Twin is a drive-in theatre in Tulsa.", "score": 0.9}]
    services = fake_services(
        {
            "query/search/search_chunks_by_vector": passages,
            "query/search/search_chunks_by_fulltext": [],
        },
        [("similarity search found", "Tulsa [Data: Sources (1)]")],
        tmp_path,
    )
    query = make_query(services.settings, WHEN, answer_check=check)
    answer = await run_query(services, NaiveSearch(services), query)
    return answer.misfit, answer.note_texts()


async def test_every_answer_is_checked_and_the_notes_say_why_it_misfits(tmp_path: Path) -> None:
    problem, notes = await _answered(tmp_path, "flag")
    assert problem == NO_DATE
    assert f"Answer check: the answer {NO_DATE}; it may name a step on the way rather than" \
           " the answer." in notes


async def test_the_docs_quote_the_note_as_the_check_writes_it(tmp_path: Path) -> None:
    _, notes = await _answered(tmp_path, "flag")
    page = Path(__file__).resolve().parents[4] / "docs" / "query-methods.md"
    docs = " ".join(page.read_text(encoding="utf-8").split())
    assert f'the note says so: "{notes[-1]}"' in docs


async def test_off_checks_nothing(tmp_path: Path) -> None:
    problem, notes = await _answered(tmp_path, "off")
    assert problem == "" and not any(note.startswith("Answer check") for note in notes)


async def test_an_answer_that_loops_keeps_one_copy_and_says_so(tmp_path: Path) -> None:
    passages = [{"chunk_id": "c1", "document_id": "d1", "title": "Admiral Twin",
                 "text": "Admiral Twin is a drive-in theatre in Tulsa.", "score": 0.9}]
    looping = "It is in Tulsa. " + "Admiral Twin is a drive-in theatre in Tulsa, Oklahoma. " * 8
    services = fake_services(
        {
            "query/search/search_chunks_by_vector": passages,
            "query/search/search_chunks_by_fulltext": [],
        },
        [("similarity search found", looping)],
        tmp_path,
    )
    query = make_query(services.settings, WHEN, answer_check="off")
    answer = await run_query(services, NaiveSearch(services), query)
    assert answer.text.count("drive-in theatre") == 2 and len(answer.text) < len(looping) / 3
    assert ANSWER_LOOPED in answer.note_texts()
