"""Local search's packed context: co-occurrences are no facts, passages get what is left."""

from __future__ import annotations

from graphrag_neo4j.llm.tokens.counting import count_tokens
from graphrag_neo4j.query.local.search import pack_context
from graphrag_neo4j.settings import Settings

CO = "co-occurs with"
CHUNKS = [{"id": f"c{i}", "document_id": f"d{i}", "text": f"Passage {i}. " + "word " * 150}
          for i in range(5)]
ENTITY = {"name": "Bob Cratchit", "type": "person", "description": "Scrooge's clerk."}
STATED = {"id": "r1", "source": "Scrooge", "predicate": "employs", "target": "Bob Cratchit",
          "description": "", "chunk_ids": ["c0"]}
TOGETHER = {"id": "r2", "source": "Bob Cratchit", "predicate": CO, "target": "family",
            "description": "Bob was very cheerful with them.", "chunk_ids": ["c9"]}


def _search(tokens: int) -> Settings:
    settings = Settings()
    local = settings.search.local.model_copy(update={"context_tokens": tokens})
    return settings.model_copy(
        update={"search": settings.search.model_copy(update={"local": local})})


def test_co_occurrences_are_left_out_and_their_room_goes_to_passages() -> None:
    metadata = {"chunks": CHUNKS, "entities": [ENTITY], "reports": [],
                "inside_rels": [STATED, TOGETHER], "outside_rels": []}
    search = _search(1000).search
    context = pack_context(metadata, search, 0.5, CO)
    assert "cheerful" not in context.text and "named together" not in context.text
    assert [row["id"] for row in context.sources["Relationships"]] == ["r1"]
    assert "(1) Scrooge employs Bob Cratchit [Data: Sources (1)]" in context.text
    # Their share (half the budget and the unused reports share) holds four passages; what
    # the entities and facts leave holds the fifth.
    assert len(context.sources["Sources"]) == 5
    # Another graph's relations with that predicate are facts like any other.
    kept = pack_context(metadata, search, 0.5, None)
    assert len(kept.sources["Relationships"]) == 2
    # The passages come last, nearest the question.
    text = context.text
    assert text.index("-----Entities-----") < text.index("-----Relationships-----") \
        < text.index("-----Sources-----")
    assert len(pack_context({**metadata, "inside_rels": [STATED]}, search, 0.5, CO)
               .sources["Sources"]) == 5


def test_a_passage_longer_than_its_share_does_not_take_the_context_past_its_budget() -> None:
    long_chunk = {"id": "c0", "document_id": "d0", "text": "word " * 1100}
    entities = [{**ENTITY, "name": f"Person {i}", "description": "A clerk. " * 20}
                for i in range(40)]
    metadata = {"chunks": [long_chunk], "entities": entities, "reports": [],
                "inside_rels": [], "outside_rels": []}
    context = pack_context(metadata, _search(1500).search, 0.5, None)
    # The passage did not fit half the budget, so the entities took the room it left; it
    # no longer comes back on top of them (1,900 tokens of a 1,500 budget before).
    assert count_tokens(context.text) <= 1500
    assert context.sources["Entities"]
