"""Schema-guided extraction: types and relations mapped onto the schema, and counted."""

from __future__ import annotations

from graphrag_neo4j.indexing.extraction.llm import Extractor
from graphrag_neo4j.indexing.extraction.schema import ExtractionSchema, SchemaCounts, apply_schema
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction, EntityMention, RelationMention
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.settings import ExtractionSchemaSettings, Settings

SCHEMA = ExtractionSchemaSettings(
    entity_types={"person": "a human being or a ghost", "place": "a town, street or house",
                  "organization": "a firm or a school", "event": "a feast or a visit"},
    relation_types=["employs", "lives in", "visits"],
    patterns=[("organization", "employs", "person"), ("person", "lives in", "place")],
)


def _extraction() -> ChunkExtraction:
    entities = [
        EntityMention("c", "Fezziwig", "PERSON", ""),
        EntityMention("c", "Fezziwig's", "organisation", ""),  # a misspelt allowed type
        EntityMention("c", "London", "location", ""),  # nothing similar: other
        EntityMention("c", "Bob", "person", ""),
    ]
    relations = [
        RelationMention("c", "Fezziwig's", "employ", "Bob"),  # closest: employs
        RelationMention("c", "Bob", "lives in", "London"),  # allowed, but London is other
        RelationMention("c", "Bob", "admires", "Fezziwig"),  # no similar relation: other
    ]
    return ChunkExtraction("c", entities, relations)


def test_types_and_relations_are_kept_mapped_or_other_and_counted() -> None:
    schema = ExtractionSchema.from_settings(SCHEMA)
    assert schema is not None
    counts = SchemaCounts()
    mapped = apply_schema(_extraction(), schema, counts)
    assert [m.type for m in mapped.entities] == ["person", "organization", "other", "person"]
    assert [r.predicate for r in mapped.relations] == ["employs", "lives in", "other"]
    assert counts.types == {"kept": 2, "mapped": 1, "other": 1}
    assert counts.relations == {"mapped": 1, "kept": 1, "other": 1}
    assert counts.outside_patterns == 2  # person lives in other; person other person


def test_other_outside_maps_nothing_and_no_schema_is_none() -> None:
    strict = ExtractionSchema.from_settings(SCHEMA.model_copy(update={"outside": "other"}))
    assert strict is not None
    assert strict.map_type("organisation") == ("other", "other")
    assert strict.map_type("Person") == ("person", "kept")
    assert ExtractionSchema.from_settings(ExtractionSchemaSettings()) is None


def test_the_llm_prompt_lists_the_types_with_descriptions_and_the_relations() -> None:
    settings = Settings()
    extraction = settings.extraction.model_copy(update={"schema_": SCHEMA})
    llm = LLMCaller(FakeChatModel(rules=[]), settings.llm, None, no_cache=True)
    prompt = Extractor(llm, extraction).extraction_prompt(Chunk("c", "d", "Text.", 0, 1))
    assert "person (a human being or a ghost), place (a town, street or house)" in prompt
    assert "Use exactly one of these predicates: employs, lives in, visits." in prompt
    assert "organization employs person" in prompt
    plain = Extractor(llm, settings.extraction).extraction_prompt(Chunk("c", "d", "Text.", 0, 1))
    assert "person, organization, location, event, concept" in plain
    assert "Use exactly one" not in plain
