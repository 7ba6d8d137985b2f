"""Same-name grouping, type conflicts and near-duplicate candidates."""

from __future__ import annotations

from graphrag_neo4j.indexing.records import EntityMention, entity_id, normalize_name
from graphrag_neo4j.indexing.resolution.decisions import MergeDecider
from graphrag_neo4j.indexing.resolution.grouping import (
    ExistingEntity,
    Grouping,
    ProtoEntity,
    group_mentions,
    names_overlap,
    near_duplicate_groups,
)
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import LLMSettings

# e1..e3 are the candidates A, B, C in prompt order: A goes into B, then B into C.
CHAIN = '{"merges": [{"from": "e1", "into": "e2"}, {"from": "e2", "into": "e3"}]}'


def _mention(name: str, kind: str = "person", chunk: str = "c1", text: str = "") -> EntityMention:
    return EntityMention(chunk, name, kind, text)


def test_normalisation_folds_case_quotes_punctuation_and_articles() -> None:
    assert normalize_name("  Leonhard   EULER ") == normalize_name("leonhard Euler")
    assert normalize_name("“Bernoulli’s principle”") == normalize_name("Bernoulli's principle")
    assert normalize_name("The Bernoulli theorem") == normalize_name("the Bernoulli theorem")


def test_same_name_and_compatible_type_merge() -> None:
    grouping = group_mentions(
        [_mention("Leonhard Euler", "person", "c1"), _mention("leonhard Euler", "unknown", "c2"),
         _mention("Leonhard Euler", "person", "c3")],
        [],
    )
    assert len(grouping.protos) == 1
    (proto,) = grouping.protos.values()
    assert proto.name == "Leonhard Euler" and proto.type == "person"
    assert not grouping.conflicts


def test_homographs_of_different_types_become_a_conflict() -> None:
    grouping = group_mentions(
        [_mention("Apple", "organization", "c1"), _mention("apple", "food", "c2")], []
    )
    assert len(grouping.protos) == 2
    assert len(grouping.conflicts) == 1 and len(grouping.conflicts[0]) == 2


def test_stored_entity_keeps_its_id() -> None:
    stored = ExistingEntity("stored-id", "Basel", "location", "basel", "A Swiss city.")
    grouping = group_mentions([_mention("BASEL", "unknown")], [stored])
    assert grouping.assignment[("basel", "unknown")] == "stored-id"


def test_untyped_entity_takes_the_type_of_a_typed_mention() -> None:
    grouping = group_mentions([_mention("Basel", "unknown"), _mention("basel", "location")], [])
    (proto,) = grouping.protos.values()
    assert proto.type == "location"
    assert proto.id == entity_id("Basel", "location")


def test_names_overlap_needs_all_words_of_the_shorter_name() -> None:
    assert names_overlap("euler", "leonhard euler")
    assert not names_overlap("johann euler", "leonhard euler")
    assert not names_overlap("euler", "euler")


def test_near_duplicates_are_grouped_only_when_compatible() -> None:
    grouping = group_mentions(
        [_mention("Euler"), _mention("Leonhard Euler"), _mention("Euler", "location", "c9"),
         _mention("Basel", "location")],
        [],
    )
    protos = list(grouping.protos.values())
    embedder = FakeEmbeddings()
    vectors = dict(zip([p.id for p in protos], embedder.embed_documents([p.name for p in protos]),
                       strict=True))
    groups = near_duplicate_groups(protos, vectors, threshold=0.99)
    names = [sorted(grouping.protos[i].name for i in group) for group in groups]
    assert ["Euler", "Leonhard Euler"] in names
    assert all("Basel" not in group for group in names)


async def test_chained_decisions_record_every_merge_into_the_survivor() -> None:
    protos = {pid: ProtoEntity(pid, name, "person", name.lower()) for pid, name in
              (("A", "Len"), ("B", "Leon"), ("C", "Leonhard"))}
    grouping = Grouping(protos, {(p.name_key, "person"): p.id for p in protos.values()}, [])
    fake = FakeChatModel(rules=[("may or may not name the same", CHAIN)])
    llm = LLMCaller(fake, LLMSettings(), cache_dir=None)
    resolution = await MergeDecider(llm).resolve(grouping, [["A", "B", "C"]])
    assert sorted((m.from_id, m.into_id) for m in resolution.merges) == [("A", "C"), ("B", "C")]
