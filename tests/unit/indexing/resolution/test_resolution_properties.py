"""Properties of grouping, merging and alias folding over random mention sets."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from graphrag_neo4j.indexing.graph.unmerging import UNDOABLE_DECIDERS
from graphrag_neo4j.indexing.records import (
    ChunkExtraction,
    EntityMention,
    entity_id,
    normalize_name,
)
from graphrag_neo4j.indexing.resolution.aliases import (
    AliasScope,
    _is_alias,
    alias_folds,
    fold_aliases,
)
from graphrag_neo4j.indexing.resolution.decisions import (
    Resolution,
    apply_merge,
    repoint_merges,
    surface_merges,
)
from graphrag_neo4j.indexing.resolution.grouping import (
    ExistingEntity,
    ProtoEntity,
    compatible,
    group_mentions,
    mention_key,
)

TYPES = ("person", "organization", "location")
OPENING = ("person",)  # the default of extraction.fast.alias_opening_types
# Few words, so names share words, abbreviate each other in chains and collide after folding.
WORDS = ("Tim", "Tiny", "Cratchit", "Award", "Academy", "Best", "École", "ÉCOLE", "Straße",
         "ﬁsh", "the", "!!", "🚀", "-", "")
KINDS = (*TYPES, "unknown", "concept")
CHUNKS = tuple(f"c{n}" for n in range(5))
BOUNDED = settings(max_examples=150, deadline=None)

names = st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join)
cased_names = st.one_of(names, names.map(str.upper), names.map(str.lower), names.map(str.title))
mentions = st.builds(
    EntityMention, st.sampled_from(CHUNKS), cased_names, st.sampled_from(KINDS),
    st.sampled_from(("", "a clerk", "a prize")),
)


@st.composite
def chained_mentions(draw: st.DrawFn) -> list[EntityMention]:
    """Names each one word longer at either end: "Tim", "Tiny Tim", "Tiny Tim Cratchit"."""
    words = draw(st.lists(st.sampled_from(WORDS[:6]), min_size=2, max_size=4, unique=True))
    chain = [words[0]]
    for word in words[1:]:
        chain.append(f"{word} {chain[-1]}" if draw(st.booleans()) else f"{chain[-1]} {word}")
    kind = draw(st.sampled_from(TYPES))
    return [EntityMention(draw(st.sampled_from(CHUNKS[:2])), name, kind, "") for name in chain]


@dataclass(frozen=True)
class Batch:
    """One batch as resolution sees it: mentions per chunk, documents, stored entities."""

    mentions: list[EntityMention]
    documents: dict[str, str]
    stored: list[ExistingEntity]

    def extractions(self) -> list[ChunkExtraction]:
        return [ChunkExtraction(c, [m for m in self.mentions if m.chunk_id == c]) for c in CHUNKS]

    def shuffled(self, seed: int) -> Batch:
        order = random.Random(seed)
        return Batch(order.sample(self.mentions, len(self.mentions)), self.documents,
                     order.sample(self.stored, len(self.stored)))


@st.composite
def batches(draw: st.DrawFn) -> Batch:
    """Mentions over five chunks of up to three documents, some names already stored."""
    found = draw(st.lists(mentions, max_size=25)) + draw(chained_mentions())
    documents = {c: draw(st.sampled_from(("d0", "d1", "d2"))) for c in CHUNKS}
    stored = []
    named: dict[str, str] = {}  # one node per id: "Tim Tim" and "Tim Tim !!" share one
    for name, kind in draw(st.lists(st.tuples(names, st.sampled_from(TYPES)), max_size=4)):
        node = entity_id(name, kind)
        name = named.setdefault(node, name)
        # A stored entity is found by its own name and, through a recorded merge, by another.
        for key in {normalize_name(name), normalize_name(draw(names))}:
            stored.append(ExistingEntity(node, name, kind, key))
    return Batch(found, documents, stored)


def folded(batch: Batch, vetoed: frozenset[tuple[str, str]] = frozenset()) -> Resolution:
    """The fast path of the resolution stage: exact grouping, then alias folding."""
    grouping = group_mentions(batch.mentions, batch.stored)
    resolution = Resolution(grouping.protos, grouping.assignment, surface_merges(grouping))
    resolution.vetoed = set(vetoed)
    fold_aliases(resolution, AliasScope.of(batch.extractions(), batch.documents), TYPES,
                 OPENING)
    return resolution


def check_consistent(batch: Batch, resolution: Resolution) -> None:
    """Every mention on a live entity; every entity gone has a merge onto a live one."""
    for mention in batch.mentions:
        assert resolution.entity_of(mention_key(mention)).id in resolution.protos
    grouped = group_mentions(batch.mentions, batch.stored)
    into = {m.from_id: m.into_id for m in resolution.merges}
    assert all(target in resolution.protos for target in into.values())
    for proto_id, proto in grouped.protos.items():
        assert proto_id in resolution.protos or (not proto.existing and proto_id in into)


def outcome(resolution: Resolution) -> tuple[object, ...]:
    """What is written: entities, where each mention key goes, and the merges."""
    entities = sorted((p.id, p.name, p.type, sorted(p.descriptions)) for p in
                      resolution.protos.values())
    merges = sorted((m.id, m.from_name, m.into_id, m.decided_by) for m in resolution.merges)
    return entities, sorted(resolution.assignment.items()), merges


@BOUNDED
@given(batches())
def test_folding_keeps_every_mention_on_a_live_entity(batch: Batch) -> None:
    check_consistent(batch, folded(batch))


@BOUNDED
@given(batches(), st.integers(0, 2**16))
def test_folding_does_not_depend_on_the_order_of_mentions(batch: Batch, seed: int) -> None:
    assert outcome(folded(batch)) == outcome(folded(batch.shuffled(seed)))


@BOUNDED
@given(batches(), st.randoms(use_true_random=False))
def test_every_fold_can_be_undone_and_is_not_made_again(batch: Batch, rng: random.Random) -> None:
    folds = [m for m in folded(batch).merges if m.decided_by == "alias"]
    assert all(m.decided_by in UNDOABLE_DECIDERS for m in folds)
    grouped = group_mentions(batch.mentions, batch.stored).assignment
    for fold in folds:  # an undo finds the folded mentions again by the merged name's key
        keys = {normalize_name(m.name) for m in batch.mentions
                if grouped[mention_key(m)] == fold.from_id}
        assert keys == {normalize_name(fold.from_name)}
    undone = rng.sample(folds, rng.randint(0, len(folds)))  # a user undoes some of them
    vetoed = frozenset((normalize_name(m.from_name), m.into_id) for m in undone)
    again = folded(batch, vetoed)
    check_consistent(batch, again)
    for mention in batch.mentions:
        assert (normalize_name(mention.name), again.entity_of(mention_key(mention)).id) not in (
            vetoed
        )


@BOUNDED
@given(batches(), st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=12))
def test_any_merge_decisions_even_cyclic_keep_the_graph_consistent(
    batch: Batch, pairs: Sequence[tuple[int, int]]
) -> None:
    # Decisions as a model may give them: chains, repeats, both directions, self-merges.
    grouping = group_mentions(batch.mentions, batch.stored)
    resolution = Resolution(grouping.protos, grouping.assignment, surface_merges(grouping))
    ids = sorted(grouping.protos)
    for source, target in pairs:
        if ids:
            apply_merge(resolution, ids[source % len(ids)], ids[target % len(ids)], "same")
    repoint_merges(resolution)
    check_consistent(batch, resolution)


def folds_by_scanning(resolution: Resolution, extractions: Sequence[ChunkExtraction],
                      documents: dict[str, str]) -> dict[str, str]:
    """Alias folds as a scan of every mention of the input finds them (the rule, read
    slowly): each document's entities, then each short name's one full name everywhere."""
    found: dict[str, dict[str, ProtoEntity]] = defaultdict(dict)
    chunks: dict[str, set[str]] = defaultdict(set)  # a first name needs its full name beside it
    for extraction in extractions:
        for mention in extraction.entities:
            if extraction.chunk_id in documents:
                chunks[mention_key(mention)[0]].add(extraction.chunk_id)
            key = mention_key(mention)
            entity = (resolution.entity_of(key) if key in resolution.assignment else
                      ProtoEntity(entity_id(mention.name, mention.type), mention.name,
                                  mention.type, key[0]))
            if extraction.chunk_id in documents and entity.type in TYPES:
                found[documents[extraction.chunk_id]][entity.id] = entity
    targets: dict[str, set[str | None]] = defaultdict(set)
    for by_id in found.values():
        entities = [by_id[i] for i in sorted(by_id)]
        for short in entities:
            fulls = [full.id for full in entities if compatible(short.type, full.type)
                     and (_is_alias(short.name_key, full.name_key, False) or (
                         _is_alias(short.name_key, full.name_key, short.type in OPENING)
                         and chunks[short.name_key] & chunks[full.name_key]))]
            targets[short.id].add(fulls[0] if len(fulls) == 1 else None)
    return {short: only for short, chosen in targets.items() if len(chosen) == 1
            and (only := next(iter(chosen))) is not None
            and short in resolution.protos and only in resolution.protos}


FAMILY = ("Tim", "Tiny Tim", "Tiny Tim Cratchit", "Bob", "Bob Cratchit", "Cratchit", "TIM")
INPUT_CHUNKS = tuple(f"c{n}" for n in range(8))


@st.composite
def inputs(draw: st.DrawFn) -> tuple[list[ChunkExtraction], dict[str, str],
                                     list[ExistingEntity]]:
    """A run's input where short names and their full names meet across documents."""
    documents = {c: draw(st.sampled_from(("d0", "d1", "d2", "d3", "d4"))) for c in INPUT_CHUNKS}
    extractions = [ChunkExtraction(chunk, [
        EntityMention(chunk, name, kind, "") for name, kind in draw(st.lists(
            st.tuples(st.sampled_from(FAMILY), st.sampled_from(("person", "unknown"))),
            max_size=4))]) for chunk in INPUT_CHUNKS]
    stored = [ExistingEntity(entity_id(name, "person"), name, "person", normalize_name(key))
              for name, key in draw(st.lists(st.tuples(st.sampled_from(FAMILY),
                                                       st.sampled_from(FAMILY)), max_size=2))]
    return extractions, documents, stored


@settings(max_examples=400, deadline=None)
@given(inputs(), st.integers(1, len(INPUT_CHUNKS)))
def test_a_batch_folds_as_a_scan_of_the_whole_input_would(
    given_input: tuple[list[ChunkExtraction], dict[str, str], list[ExistingEntity]], cut: int
) -> None:
    # The batch is the first `cut` chunks; the scope is every chunk (the run's input), so
    # names outside the batch make short names ambiguous without being folded themselves.
    everything, documents, stored = given_input
    grouping = group_mentions([m for x in everything[:cut] for m in x.entities], stored)
    resolution = Resolution(grouping.protos, grouping.assignment, surface_merges(grouping))
    scope = AliasScope.of(everything, documents)
    assert alias_folds(resolution, scope, TYPES, OPENING) == folds_by_scanning(
        resolution, everything, documents)
