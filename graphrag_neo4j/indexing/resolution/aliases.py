"""Alias folding: a short name ("Scrooge") joins the one full name of its document that holds it."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from graphrag_neo4j.indexing.records import ChunkExtraction, entity_id
from graphrag_neo4j.indexing.resolution.decisions import Resolution, apply_merge, repoint_merges
from graphrag_neo4j.indexing.resolution.grouping import ProtoEntity, compatible, mention_key

DECIDER = "alias"


def _is_alias(short_key: str, full_key: str, may_open: bool = True) -> bool:
    """The short name's words close the longer name ("scrooge" of "ebenezer scrooge"), or,
    when `may_open`, open it ("ebenezer")."""
    short, full = short_key.split(), full_key.split()
    if not short or len(short) >= len(full) or set(full) <= set(short):
        return False  # "scrooge scrooge" is a stutter, not a fuller name
    return (may_open and full[: len(short)] == short) or full[-len(short) :] == short


# The longest lower-case word a full name may add to a short one: a particle of a name ("of",
# "de", "van", "von"). A longer one makes a phrase about the name, not a fuller name of it.
MAX_PARTICLE_CHARS = 3


def _names_alike(short: str, full: str) -> bool:
    """Whether `full` may be a fuller name of `short` as written: the short name is a proper
    name (it opens with a capital or a digit), and the words the full name adds are too, or
    particles, and it does not follow a particle. "Scrooge" of "Ebenezer Scrooge"; not
    "autovacuum" of "autovacuum logging", nor "Arch" of "Arch jargon" (a term and a phrase that
    holds it are two things), nor "London" of "City of London"."""
    if not short[:1].isupper() and not short[:1].isdigit():
        return False
    words, short_words = full.split(), short.split()
    closes = len(words) > len(short_words) and words[-len(short_words):] == short_words
    before = words[-len(short_words) - 1] if closes else ""
    if before.islower() or before.endswith("-"):
        return False  # "City of London" is a place of London, not London's full name
    added = [w for w in words if w.casefold() not in set(short.casefold().split())]
    return all(w[:1].isupper() or w[:1].isdigit() or len(w) <= MAX_PARTICLE_CHARS
               or not w[:1].isalpha() for w in added)


Key = tuple[str, str]  # a mention's normalised name and type (grouping.mention_key)


@dataclass(frozen=True)
class AliasScope:
    """Where each name of the input occurs, by document: built once per run and read by
    every batch, so a batch reads the documents its own names are in, not the whole input
    (reading the whole input per batch made alias folding quadratic in the corpus)."""

    # document -> each of its keys, as the entity it stands for outside the batch
    mentions: dict[str, dict[Key, ProtoEntity]]
    documents_by_key: dict[Key, set[str]]
    # the documents holding each key's own entity id (a stored entity found by a merge
    # keeps the id of its first name, which other documents may hold under that name)
    documents_by_id: dict[str, set[str]]
    # the chunks each normalised name is found in: a first name folds only into a full name
    # it is found beside at least once
    chunks_by_name: dict[str, set[str]] = field(default_factory=dict)

    def together(self, short_key: str, full_key: str) -> bool:
        """Whether the two names are found in one chunk at least once."""
        short, full = self.chunks_by_name.get(short_key, set()), self.chunks_by_name.get(
            full_key, set())
        return not short.isdisjoint(full)

    @classmethod
    def of(cls, extractions: Sequence[ChunkExtraction],
           chunk_documents: Mapping[str, str]) -> AliasScope:
        """The scope of these extractions; a chunk of no known document counts nowhere."""
        mentions: dict[str, dict[Key, ProtoEntity]] = defaultdict(dict)
        outside: dict[Key, ProtoEntity] = {}
        by_key: dict[Key, set[str]] = defaultdict(set)
        by_id: dict[str, set[str]] = defaultdict(set)
        by_name: dict[str, set[str]] = defaultdict(set)
        for extraction in extractions:
            document = chunk_documents.get(extraction.chunk_id)
            if document is None:
                continue
            for mention in extraction.entities:
                key = mention_key(mention)
                entity = outside.get(key) or outside.setdefault(key, ProtoEntity(
                    entity_id(mention.name, mention.type), mention.name, mention.type, key[0]))
                # Kept in the order of each key's last mention: where two keys share an
                # entity id, the later one speaks for it, as in a scan of the input.
                mentions[document][key] = mentions[document].pop(key, entity)
                by_key[key].add(document)
                by_id[entity.id].add(document)
                by_name[key[0]].add(extraction.chunk_id)
        return cls(dict(mentions), dict(by_key), dict(by_id), dict(by_name))

    def documents_holding(self, resolution: Resolution) -> dict[str, Iterator[str]]:
        """Each entity of the resolution -> the documents it may stand in (those of its names,
        and those holding its id), lazily: a name found all over the corpus is usually settled
        by its first few documents, and reading them all made every batch read most of them."""
        names: dict[str, list[Key]] = defaultdict(list)
        for key, proto_id in resolution.assignment.items():
            names[proto_id].append(key)
        return {proto_id: _unique(itertools.chain(
            *(self.documents_by_key.get(key, ()) for key in names[proto_id]),
            self.documents_by_id.get(proto_id, ()),
        )) for proto_id in resolution.protos}


def _unique(documents: Iterable[str]) -> Iterator[str]:
    seen: set[str] = set()
    for document in documents:
        if document not in seen:
            seen.add(document)
            yield document


@dataclass
class RunAliasScopes:
    """One run's alias scope, built again only when the input's extractions change (a
    method deciding over the whole input decides once; its batches share the result)."""

    _built: tuple[Sequence[ChunkExtraction], AliasScope] | None = None

    def of(self, extractions: Sequence[ChunkExtraction],
           chunk_documents: Callable[[], Mapping[str, str]]) -> AliasScope:
        """The scope of `extractions` (the same list object as last time: the same scope)."""
        if self._built is None or self._built[0] is not extractions:
            self._built = (extractions, AliasScope.of(extractions, chunk_documents()))
        return self._built[1]


@dataclass(frozen=True)
class DocumentNames:
    """A document's entities of the alias types, each also found by the word runs that open
    or close its name, so a short name finds its full names without reading every entity
    (a long text file is one document: scanning it per short name made a run quadratic)."""

    entities: dict[str, ProtoEntity]
    by_edge: dict[tuple[str, ...], list[ProtoEntity]]

    @classmethod
    def of(cls, entities: dict[str, ProtoEntity]) -> DocumentNames:
        """Index `entities` (id -> entity) by the opening and closing word runs of their names."""
        by_edge: dict[tuple[str, ...], list[ProtoEntity]] = defaultdict(list)
        for entity in entities.values():
            words = tuple(entity.name_key.split())
            runs = range(1, len(words))
            for edge in {words[:n] for n in runs} | {words[-n:] for n in runs}:
                by_edge[edge].append(entity)
        return cls(entities, dict(by_edge))

    def full_names(self, short: ProtoEntity, opening_types: Collection[str] = (),
                   together: Together | None = None) -> list[str]:
        """Ids of the longer names of a compatible type that `short`'s name closes, or opens
        when its type is one of `opening_types` (a person's first name: other names end on
        their head, so "Oxford University" opens "Oxford University Cricket Club", another
        thing). A name it opens must be found beside it in some chunk (`together`): a long
        text may name old Joe throughout and Joe Miller once."""
        candidates = self.by_edge.get(tuple(short.name_key.split()), ())
        may_open = short.type in opening_types
        return [full.id for full in candidates
                if compatible(short.type, full.type)
                and (_is_alias(short.name_key, full.name_key, False) or (
                    _is_alias(short.name_key, full.name_key, may_open)
                    and (together is None or together(short.name_key, full.name_key))))
                and _names_alike(short.name, full.name)]


NamesOf = Callable[[str], DocumentNames]
Together = Callable[[str, str], bool]


def _document_names(
    resolution: Resolution, scope: AliasScope, types: Collection[str]
) -> NamesOf:
    """The entities (of the alias types) a document mentions, indexed by name, as the batch
    sees them: a name of the batch stands for its resolved entity, any other for itself (the
    scope may reach past the batch: such a name still makes a short name ambiguous, and is
    never folded by this batch). Each document is read once per batch."""

    @cache
    def names_of(document: str) -> DocumentNames:
        found: dict[str, ProtoEntity] = {}
        for key, entity in scope.mentions[document].items():
            if key in resolution.assignment:
                entity = resolution.entity_of(key)
            if entity.type in types:
                found[entity.id] = entity
        return DocumentNames.of(found)

    return names_of


def _one_full_name(short_id: str, documents: Iterable[str], names_of: NamesOf,
                   opening_types: Collection[str], together: Together) -> str | None:
    """The one full name holding `short_id` in every document where it stands; None when it
    is ambiguous or stands alone in one of them (the rest are then not read), or in none."""
    chosen: str | None = None
    for document in documents:
        names = names_of(document)
        short = names.entities.get(short_id)
        if short is None:
            continue
        fulls = names.full_names(short, opening_types, together)
        if len(fulls) != 1 or chosen not in (None, fulls[0]):
            return None
        chosen = fulls[0]
    return chosen


def alias_folds(
    resolution: Resolution, scope: AliasScope, types: Collection[str],
    opening_types: Collection[str] = (),
) -> dict[str, str]:
    """short id -> full id, where every document using the short name holds one full name;
    only entities of `resolution` are folded."""
    names_of = _document_names(resolution, scope, types)
    folds: dict[str, str] = {}
    for short_id, documents in sorted(scope.documents_holding(resolution).items()):
        full_id = _one_full_name(short_id, documents, names_of, opening_types, scope.together)
        if full_id is not None and full_id in resolution.protos:
            folds[short_id] = full_id
    return folds


def fold_aliases(resolution: Resolution, scope: AliasScope, types: Collection[str],
                 opening_types: Collection[str] = ()) -> int:
    """Merge each unambiguous alias into its full name, recorded as an undoable merge;
    `scope` may cover more than the batch: the run's input.

    Folds chain ("Tim" -> "Tiny Tim" -> "Tiny Tim Cratchit") and a full name may be merged
    away by an earlier fold (into a stored short name, which keeps its id): every merge lands
    on whatever its two ends have become, so no fold needs another to have run first.
    """
    folds = alias_folds(resolution, scope, types, opening_types)
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
