"""Types and predicates no allowed name is spelled like are mapped by meaning, once a run."""

from __future__ import annotations

from graphrag_neo4j.indexing.extraction.schema import ExtractionSchema, SchemaCounts, apply_schema
from graphrag_neo4j.indexing.extraction.schema_meanings import closest_in_meaning, learn_meanings
from graphrag_neo4j.indexing.records import ChunkExtraction, EntityMention, RelationMention
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.testing import RecordingEmbeddings
from graphrag_neo4j.settings import EmbeddingSettings, ExtractionSchemaSettings

SCHEMA = ExtractionSchemaSettings(
    entity_types={"person": "a human being or a ghost", "place": "a town, street or house"},
    relation_types=["employs", "lives in"],
)


def test_each_value_gets_the_nearest_allowed_name_or_other_below_the_least_similarity() -> None:
    meanings = closest_in_meaning(
        ["town", "ghost", "cake", "void"], [[1, 0.1], [0.1, 1], [0.8, -0.5], [0, 0]],
        ["place", "person"], [[1, 0], [0, 1]], min_similarity=0.5)
    assert meanings == {"town": "place", "ghost": "person", "cake": "place", "void": "other"}
    strict = closest_in_meaning(["cake"], [[0.8, -0.5]], ["place", "person"], [[1, 0], [0, 1]],
                                min_similarity=0.9)
    assert strict == {"cake": "other"}
    assert closest_in_meaning(["town"], [[1, 0]], [], [], 0.5) == {"town": "other"}


def _extraction(entity_type: str, predicate: str) -> ChunkExtraction:
    return ChunkExtraction(
        "c",
        [EntityMention("c", "Camden", entity_type, ""), EntityMention("c", "Bob", "person", "")],
        [RelationMention("c", "Bob", predicate, "Camden")])


async def test_meanings_are_learnt_once_and_map_what_spelling_cannot() -> None:
    model = RecordingEmbeddings()
    embedder = EmbeddingCaller(model, EmbeddingSettings(), None)
    schema = ExtractionSchema.from_settings(SCHEMA)
    assert schema is not None
    first = [_extraction("town", "lives in a")]  # a word of "place"'s description; a near verb
    schema = await learn_meanings(schema, first, embedder, min_similarity=0.3)
    counts = SchemaCounts()
    (mapped,) = [apply_schema(e, schema, counts) for e in first]
    assert [m.type for m in mapped.entities] == ["place", "person"]
    assert [r.predicate for r in mapped.relations] == ["lives in"]  # by spelling: no lookup
    assert counts.types == {"mapped": 1, "kept": 1}
    assert "town" in model.texts and "lives in a" not in model.texts
    # A value seen before is not embedded again; one unlike every allowed name is `other`.
    model.texts.clear()
    schema = await learn_meanings(schema, [_extraction("town", "lives in"),
                                           _extraction("zyx", "lives in")], embedder, 0.3)
    assert model.texts == ["zyx", "person: a human being or a ghost",
                           "place: a town, street or house"]
    assert schema.map_type("zyx") == ("other", "other")
    assert schema.map_type("town") == ("place", "mapped")
    # outside = "other" looks nothing up.
    strict = ExtractionSchema.from_settings(SCHEMA.model_copy(update={"outside": "other"}))
    assert strict is not None
    model.texts.clear()
    assert await learn_meanings(strict, first, embedder, 0.3) is strict and model.texts == []
