"""The methods share passage tables, answer prompts and the answer call."""

from __future__ import annotations

import pytest

from graphrag_neo4j.query.answers.passages import evidence_and_answer, passage_context
from graphrag_neo4j.query.retrieval.candidates import ann_candidates
from graphrag_neo4j.runtime.resources import load_prompt


def test_passages_rank_documents_and_fill_the_table_within_budget() -> None:
    passages = [
        {"chunk_id": "c1", "document_id": "d1", "title": "Euler", "text": "Euler " * 10},
        {"chunk_id": "c2", "document_id": "d1", "title": "Euler", "text": "more"},
        {"chunk_id": "c3", "document_id": "d2", "title": "Daniel", "text": "long " * 500},
    ]
    context = passage_context(passages, budget_tokens=100, extra={"Mentions": [{"text": "E"}]})
    assert context.ranked_document_ids == ["d1", "d2"]  # every passage counts for recall
    assert [row["chunk_id"] for row in context.sources["Sources"]] == ["c1", "c2"]
    assert context.text.startswith("-----Sources-----\nid|title|text\n1|Euler|Euler Euler")
    assert context.sources["Mentions"] == [{"text": "E"}]


@pytest.mark.parametrize(("name", "ending"), [("query/answers/naive", "Answer:"),
                                              ("query/answers/hops", "Answer:")])
def test_answer_prompts_take_the_shared_placeholders(name: str, ending: str) -> None:
    text = load_prompt(name).format(
        response_type="Single Sentence", history="", context="CONTEXT", question="QUESTION?"
    )
    assert "Single Sentence" in text and "CONTEXT" in text
    assert text.rstrip().endswith(f"QUESTION?\n\n{ending}")


@pytest.mark.parametrize(("reply", "facts", "answer"), [
    (" 2, 5\nAnswer: Norway [Data: Sources (1)]", "2, 5", "Norway [Data: Sources (1)]"),
    ("Facts used: 1\n**Answer:** G. Stanley Hall", "1", "G. Stanley Hall"),
    ("Norway.", "", "Norway."),
    ("none\nAnswer: I do not know.", "none", "I do not know."),
    (" 'It is not fair,' said Scrooge. (Sources 1)\n\nAnswer: Harshly [Data: Sources (1)]",
     "'It is not fair,' said Scrooge. (Sources 1)", "Harshly [Data: Sources (1)]"),
    ("**Evidence:** none\n**Answer:** I do not know.", "none", "I do not know."),
])
def test_an_evidence_first_reply_splits_into_evidence_and_answer(
    reply: str, facts: str, answer: str
) -> None:
    assert evidence_and_answer(reply) == (facts, answer)


def test_vector_searches_ask_for_enough_neighbours() -> None:
    assert ann_candidates(3) == 100 and ann_candidates(500) == 500
