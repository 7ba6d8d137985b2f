"""Alias folding: a short name ("Scrooge") joins the one full name of its document that holds it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence

from graphrag_neo4j.indexing.records import ChunkExtraction, entity_id
from graphrag_neo4j.indexing.resolution.decisions import Resolution, apply_merge, repoint_merges
from graphrag_neo4j.indexing.resolution.grouping import ProtoEntity, compatible, mention_key

DECIDER = "alias"


def _is_alias(short_key: str, full_key: str) -> bool:
    """The short name's words open or close the longer name: "scrooge" of "ebenezer scrooge"."""
    short, full = short_key.split(), full_key.split()
    if not short or len(short) >= len(full) or set(full) <= set(short):
        return False  # "scrooge scrooge" is a stutter, not a fuller name
    return full[: len(short)] == short or full[-len(short) :] == short


def _entities_by_document(
    resolution: Resolution,
    extractions: Sequence[ChunkExtraction],
    chunk_documents: Mapping[str, str],
    types: Collection[str],
) -> dict[str, dict[str, ProtoEntity]]:
    """The entities (of the alias types) each document mentions, by id.

    `extractions` may reach past the batch (the run's whole input): a name the batch does
    not hold stands for itself there, so it still counts where it makes a short name
    ambiguous, and is never folded by this batch.
    """
    found: dict[str, dict[str, ProtoEntity]] = defaultdict(dict)
    elsewhere: dict[tuple[str, str], ProtoEntity] = {}
    for extraction in extractions:
        document = chunk_documents.get(extraction.chunk_id)
        for mention in extraction.entities:
            key = mention_key(mention)
            if key in resolution.assignment:
                entity = resolution.entity_of(key)
            else:
                entity = elsewhere.setdefault(key, ProtoEntity(
                    entity_id(mention.name, mention.type), mention.name, mention.type, key[0]))
            if document is not None and entity.type in types:
                found[document][entity.id] = entity
    return found


def alias_folds(
    resolution: Resolution,
    extractions: Sequence[ChunkExtraction],
    chunk_documents: Mapping[str, str],
    types: Collection[str],
) -> dict[str, str]:
    """short id -> full id, where every document using the short name holds one full name;
    only entities of `resolution` are folded."""
    targets: dict[str, set[str | None]] = defaultdict(set)
    for by_id in _entities_by_document(resolution, extractions, chunk_documents, types).values():
        entities = [by_id[i] for i in sorted(by_id)]
        for short in entities:
            fulls = [
                full.id for full in entities
                if compatible(short.type, full.type) and _is_alias(short.name_key, full.name_key)
            ]
            # None marks a document where the short name is ambiguous or stands alone.
            targets[short.id].add(fulls[0] if len(fulls) == 1 else None)
    folds: dict[str, str] = {}
    for short_id, chosen in targets.items():
        only = next(iter(chosen)) if len(chosen) == 1 else None
        if only is not None and short_id in resolution.protos and only in resolution.protos:
            folds[short_id] = only
    return folds


def fold_aliases(
    resolution: Resolution,
    extractions: Sequence[ChunkExtraction],
    chunk_documents: Mapping[str, str],
    types: Collection[str],
) -> int:
    """Merge each unambiguous alias into its full name, recorded as an undoable merge;
    `extractions` (and `chunk_documents`) may cover more than the batch: the run's input.

    Folds chain ("Tim" -> "Tiny Tim" -> "Tiny Tim Cratchit") and a full name may be merged
    away by an earlier fold (into a stored short name, which keeps its id): every merge lands
    on whatever its two ends have become, so no fold needs another to have run first.
    """
    folds = alias_folds(resolution, extractions, chunk_documents, types)
    # Read before any merge: an earlier fold may have merged the full name away.
    names = {proto_id: proto.name for proto_id, proto in resolution.protos.items()}
    before = len(resolution.merges)
    for short_id, full_id in sorted(folds.items()):
        reason = (
            f"{names[short_id]!r} is a short form of {names[full_id]!r}, "
            "the only full name holding it in its documents"
        )
        apply_merge(resolution, short_id, full_id, reason, decided_by=DECIDER)
    repoint_merges(resolution)
    return len(resolution.merges) - before
