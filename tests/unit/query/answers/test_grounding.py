"""Grounding after the answer, with the fake LLM: invented names flagged or dropped,
citations of rows the context did not show repaired or removed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.extraction.fast.named_entities import named_entities
from graphrag_neo4j.query.answers.grounding import (
    CITATIONS_REPAIRED,
    NAMES_UNCHECKED,
    drop_sentences,
    ground_answer,
    is_family_of,
    is_supported,
)
from graphrag_neo4j.query.answers.run import run_query
from graphrag_neo4j.query.base import Answer, make_query
from graphrag_neo4j.query.global_search.search import GlobalSearch
from graphrag_neo4j.query.retrieval.naive import NaiveSearch
from graphrag_neo4j.settings import Settings
from tests.unit.query.fakes import WRITTEN_LEVEL, fake_services

PASSAGES = [
    {"chunk_id": "c1", "document_id": "d1", "title": "Stave 1",
     "text": "Scrooge kept a very small fire; his clerk, Bob Cratchit, had a smaller one.",
     "score": 0.9},
    {"chunk_id": "c2", "document_id": "d2", "title": "Stave 3",
     "text": "Bob had but fifteen shillings a week.", "score": 0.8},
]
INVENTED = (
    "Scrooge's clerk is Bob Cratchit, who works by a tiny fire [Data: Sources (1, 7)]. "
    "Characters include Oliver Twist and Mr. Brownlow [Data: Reports (1)]. "
    "Bob earns fifteen shillings a week [Data: Source (2)]."
)


async def _grounded(tmp_path: Path, mode: str) -> Answer:
    services = fake_services(
        {
            "query/search/search_chunks_by_vector": PASSAGES,
            "query/search/search_chunks_by_fulltext": [],
        },
        [("similarity search found", INVENTED)],
        tmp_path,
    )
    query = make_query(services.settings, "Who is Scrooge's clerk?", grounding=mode)
    return await run_query(services, NaiveSearch(services), query, named_entities)


async def test_flag_lists_invented_names_and_repairs_citations(tmp_path: Path) -> None:
    answer = await _grounded(tmp_path, "flag")
    assert answer.grounding == "flag"
    assert answer.unsupported_entities == ["Oliver Twist", "Brownlow"]
    assert "Unsupported by the context (check them): Oliver Twist, Brownlow." in answer.note_texts()
    assert CITATIONS_REPAIRED in answer.note_texts()
    # Source 7 and the Reports table were never shown; "Source (2)" is repaired to "Sources".
    assert "[Data: Sources (1)]" in answer.text and "Sources (1, 7)" not in answer.text
    assert "Reports" not in answer.text and "[Data: Sources (2)]" in answer.text
    assert "Oliver Twist" in answer.text  # flag keeps the text


async def test_drop_removes_the_sentence_and_says_so(tmp_path: Path) -> None:
    answer = await _grounded(tmp_path, "drop")
    assert "Oliver Twist" not in answer.text and "Brownlow" not in answer.text
    assert answer.text.startswith("Scrooge's clerk is Bob Cratchit")
    assert answer.text.endswith("fifteen shillings a week [Data: Sources (2)].")
    assert any(note.startswith("Grounding removed 1 sentence(s) naming Oliver Twist")
               for note in answer.note_texts())


async def test_off_leaves_the_answer_alone(tmp_path: Path) -> None:
    answer = await _grounded(tmp_path, "off")
    assert answer.text == INVENTED and answer.grounding == ""
    assert answer.unsupported_entities == [] and answer.notes == []


def test_a_name_is_supported_by_all_its_words_not_one() -> None:
    text = "bob cratchit worked for mr. scrooge"
    words = set(text.replace(".", "").split())
    assert is_supported("Bob Cratchit", text, words)
    assert is_supported("Mr. Scrooge", text, words)
    assert is_supported("the Cratchit", text, words)
    assert not is_supported("Bob Marley", text, words)


@pytest.mark.parametrize(("answer", "unsupported"), [
    ("Daniel was one of the Bernoullis.", []),  # the family of the context's Bernoulli
    ("The Joneses met them.", []),
    ("Daniel met Roberts.", ["Roberts"]),  # a lone plural is a name of its own
    ("Daniel was one of the Smiths.", ["Smiths"]),  # no Smith in the context
])
def test_the_family_of_a_name_in_the_context_is_supported(
    answer: str, unsupported: list[str]
) -> None:
    context = "Daniel Bernoulli and Robert Jones studied fluid flow."
    grounded = ground_answer(Answer(text=answer, method="local", context=context), "Who?",
                             "flag", named_entities)
    assert grounded.unsupported_entities == unsupported
    assert is_family_of("the Bernoullis", "They were the Bernoullis.", {"bernoulli"})


@pytest.mark.parametrize("mode", ["flag", "drop"])
def test_an_answer_in_another_script_is_left_unchecked_not_dropped(mode: str) -> None:
    text = "斯克鲁奇的职员是鲍勃·克拉奇特。他住在伦敦。"
    answer = Answer(text=text, method="local", context="鲍勃·克拉奇特 伦敦 斯克鲁奇")
    with GraphRAG(Settings()) as rag:  # nothing connects: the finder needs no server
        grounded = ground_answer(answer, "斯克鲁奇的职员是谁？", mode, rag.find_entities)
    assert grounded.text == text and grounded.unsupported_entities == []
    assert grounded.note_texts() == [
        f"{NAMES_UNCHECKED}: the answer is not in the Latin script, and the shipped named-entity"
        " model reads English"
    ]


def test_dropping_every_sentence_leaves_a_plain_statement() -> None:
    answer = Answer(text="Oliver Twist did it.", method="global", context="Scrooge.")
    ground_answer(answer, "Who?", "drop", lambda text: ["Oliver Twist"])
    assert answer.text == "The context found for this question does not support an answer."
    assert drop_sentences("A b.\nOliver c! D e?", ["Oliver"]) == ("A b.\n D e?", 1)


@pytest.mark.parametrize("mode", ["flag", "drop"])
def test_without_a_name_finder_only_citations_are_checked(mode: str) -> None:
    answer = Answer(text="Scrooge [Data: Sources (3)].", method="naive", context="x",
                    sources={"Sources": [{"ref": 1, "text": "Scrooge"}]})
    ground_answer(answer, "Who?", mode, None)
    assert answer.text == "Scrooge." and answer.unsupported_entities == []


REPORTS = [
    {"id": "k1", "level": 0, "title": "Scrooge and his clerk", "rank": 8.0,
     "summary": "Scrooge keeps Bob Cratchit cold and poorly paid.",
     "full_content": "Scrooge keeps Bob Cratchit cold and poorly paid."},
]


def _map_inventing(prompt: str) -> str:
    # The map step names a character of another book; its point is model text, not evidence.
    return json.dumps({"points": [{"description": "Greed, as with Oliver Twist [Data: Reports (1)]",
                                   "score": 80}]})


async def _global_grounded(tmp_path: Path, mode: str, known: set[str]) -> Answer:
    services = fake_services(
        {"query/communities/community_levels": [{"level": 0, "communities": 1}],
         "query/communities/community_reports_at_level": REPORTS,
         "query/communities/community_level_status": WRITTEN_LEVEL},
        [("community\nreports", _map_inventing),
         ("Several analysts", "Scrooge keeps Bob Cratchit cold [Data: Reports (1)]. "
          "Oliver Twist and Tiny Tim suffer too [Data: Reports (1)].")],
        tmp_path,
    )
    looked_up: list[list[str]] = []

    def graph_names(names: list[str]) -> set[str]:
        looked_up.append(names)
        return {name for name in names if name in known}

    query = make_query(services.settings, "What are the main themes?", level=0, grounding=mode)
    answer = await run_query(services, GlobalSearch(services), query, named_entities, graph_names)
    assert looked_up == [["Oliver Twist", "Tiny Tim"]]  # the names no shown report holds
    return answer


async def test_a_global_answer_is_checked_against_the_reports_and_the_graph(
    tmp_path: Path,
) -> None:
    # "Oliver Twist" is in the map's points (the reduce's context) but in no report and no
    # entity of the graph: unsupported. "Tiny Tim" is in no shown report but is in the graph.
    answer = await _global_grounded(tmp_path, "flag", known={"Tiny Tim"})
    assert answer.unsupported_entities == ["Oliver Twist"]
    assert "Unsupported by the context (check them): Oliver Twist." in answer.note_texts()
    dropped = await _global_grounded(tmp_path, "drop", known={"Tiny Tim"})
    assert dropped.text == "Scrooge keeps Bob Cratchit cold [Data: Reports (1)]."
    assert any(note.startswith("Grounding removed 1 sentence(s) naming Oliver Twist")
               for note in dropped.note_texts())


async def test_a_global_answer_naming_only_graph_entities_passes(tmp_path: Path) -> None:
    answer = await _global_grounded(tmp_path, "flag", known={"Oliver Twist", "Tiny Tim"})
    assert answer.unsupported_entities == []


@pytest.mark.parametrize(("amount", "evidence", "supported"), [
    ("3 feet", "peter cratchit was small; tim had a crutch. 3 houses. feet", False),
    ("3 feet", "the wall was 13 feet high", False),
    ("3 feet", "the wall was 3.5 feet high", False),
    ("3 feet", "a wall 3 feet high", True),
    ("about $1.18 trillion", "a debt of 1.18 trillion dollars", True),
    ("$1,180 billion", "some 1180 billion in bonds", True),
    ("50%", "50 percent of the votes", True),
    ("$21.4 trillion", "a debt of $1.18 trillion", False),
])
def test_an_amount_is_supported_only_as_a_whole(
    amount: str, evidence: str, supported: bool
) -> None:
    assert is_supported(amount, evidence, set(evidence.split())) is supported


def test_amounts_written_with_digits_are_checked_and_counts_in_words_are_not() -> None:
    found = named_entities("Peter Cratchit was 3 feet tall and owed $21.4 trillion to"
                           " three friends.")
    assert "3 feet" in found and "$21.4 trillion" in found
    assert not any("three" in name for name in found)


def test_a_name_holding_digits_is_checked_word_by_word_like_any_name() -> None:
    evidence = "the boeing b - 29 superfortress dropped it"
    assert is_supported("B-29", evidence, set(re.findall(r"\w+", evidence)))
    assert not is_supported("B-52", evidence, set(re.findall(r"\w+", evidence)))
