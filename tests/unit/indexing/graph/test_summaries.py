"""Extractive descriptions of fast extraction keep a few verbatim sentences and ask no LLM."""

from __future__ import annotations

from pathlib import Path

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.extraction.base import RunServices
from graphrag_neo4j.indexing.extraction.registry import create_extraction_method
from graphrag_neo4j.indexing.graph.refresh import entity_embedding_text
from graphrag_neo4j.indexing.graph.summaries import DescriptionMerger, shortest
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.testing import FakeEmbeddings
from graphrag_neo4j.settings import Settings


def _merger(settings: Settings, tmp_path: Path) -> DescriptionMerger:
    """The merger the configured extraction method's style asks for (no LLM here)."""
    embedder = EmbeddingCaller(FakeEmbeddings(), settings.embedding, tmp_path)
    services = RunServices(settings, Store.__new__(Store), embedder)
    method = create_extraction_method(settings.extraction.method, services)
    return DescriptionMerger.from_settings(None, settings, method.description_style)


async def test_fast_settings_give_an_extractive_merger_without_llm(tmp_path: Path) -> None:
    settings = Settings()
    settings.extraction.method = "fast"
    merger = _merger(settings, tmp_path)
    assert merger.llm is None and merger.max_sentences == 2
    descriptions = ["A long sentence that goes on and on.\nShort one.", "Mid sized one."]
    merged = await merger.merge("entity", "Scrooge", descriptions)
    # the one sentence of six words or more, then the shortest other, in reading order
    assert merged == "A long sentence that goes on and on. Short one."


async def test_llm_summaries_can_be_asked_for(tmp_path: Path) -> None:
    settings = Settings()
    settings.extraction.method = "fast"
    settings.extraction.fast.llm_summaries = True
    assert _merger(settings, tmp_path).max_sentences is None


def test_entity_vector_text_keeps_the_first_words_asked_for() -> None:
    assert entity_embedding_text("Bob", "Clerk to Scrooge. Poor.", 0) == "Bob"
    assert entity_embedding_text("Bob", "Clerk to Scrooge. Poor.", 2) == "Bob: Clerk to"
    assert entity_embedding_text("Bob", "Clerk to Scrooge.") == "Bob: Clerk to Scrooge."
    assert entity_embedding_text("Bob", "") == "Bob"


def test_fast_mergers_carry_the_vector_words_and_llm_ones_embed_everything(tmp_path: Path) -> None:
    settings = Settings()
    settings.extraction.method = "fast"
    assert _merger(settings, tmp_path).vector_words == 0
    settings.extraction.fast.llm_summaries = True
    assert _merger(settings, tmp_path).vector_words is None


def test_triplet_entity_vectors_keep_to_the_name_and_their_facts_are_joined(tmp_path: Path) -> None:
    settings = Settings()
    settings.extraction.method = "triplets"
    merger = _merger(settings, tmp_path)
    assert merger.vector_words == 0 and merger.max_sentences is None
    assert entity_embedding_text("Publix", "Publix founded in 1930.", merger.vector_words) == (
        "Publix")
    settings.extraction.method = "llm"
    assert _merger(settings, tmp_path).vector_words is None


def test_extractive_descriptions_prefer_sentences_that_say_something() -> None:
    sentences = ["Ebenezer!", "Bob Cratchit was clerk to Ebenezer Scrooge.",
                 "'Mr. Scrooge!' said Bob.",
                 "Scrooge kept the coal-box in his own room, so the clerk's fire stayed small."]
    assert shortest(sentences, 2) == [sentences[1], sentences[3]]
    assert shortest(["Ebenezer!", "'Mr. Scrooge!' said Bob."], 1) == ["Ebenezer!"]


def test_extractive_descriptions_put_sentences_opening_with_the_name_first() -> None:
    sentences = ["'My little, little child!' cried Bob.", "Mrs. Cratchit, wife of Bob Cratchit.",
                 "Bob Cratchit, clerk to Ebenezer Scrooge.", "'Bob Cratchit!' said Scrooge."]
    assert shortest(sentences, 1, "Bob Cratchit") == [sentences[2]]
    # a sentence that opens with the name but says next to nothing still waits
    assert shortest(sentences[1:], 1, "Bob Cratchit") == [sentences[2]]
    assert shortest(sentences, 1) == [sentences[1]]
