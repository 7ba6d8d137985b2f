"""Alias folding: a short name joins the one full name of its documents that holds it."""

from __future__ import annotations

from typing import Any

import pytest

from graphrag_neo4j.indexing.records import ChunkExtraction, EntityMention, entity_id
from graphrag_neo4j.indexing.resolution import aliases
from graphrag_neo4j.indexing.resolution.aliases import AliasScope, RunAliasScopes, fold_aliases
from graphrag_neo4j.indexing.resolution.decisions import Resolution, surface_merges
from graphrag_neo4j.indexing.resolution.grouping import ExistingEntity, group_mentions

TYPES = ("person", "location", "organization")
OPENING = ("person",)  # the default of extraction.fast.alias_opening_types


def _extraction(chunk: str, *names: str, kind: str = "person") -> ChunkExtraction:
    return ChunkExtraction(chunk, [EntityMention(chunk, name, kind, "") for name in names])


def _fold(
    extractions: list[ChunkExtraction],
    documents: dict[str, str],
    vetoed: frozenset[tuple[str, str]] = frozenset(),
    stored: tuple[ExistingEntity, ...] = (),
    opening: tuple[str, ...] = OPENING,
) -> Resolution:
    grouping = group_mentions([m for x in extractions for m in x.entities], stored)
    resolution = Resolution(grouping.protos, grouping.assignment, surface_merges(grouping))
    resolution.vetoed = set(vetoed)
    fold_aliases(resolution, AliasScope.of(extractions, documents), TYPES, opening)
    return resolution


def test_a_short_name_with_one_full_name_is_folded_and_recorded() -> None:
    extractions = [_extraction("c1", "Ebenezer Scrooge", "Bob Cratchit"),
                   _extraction("c2", "Scrooge", "Bob", "scrooge", "Bob Cratchit")]
    resolution = _fold(extractions, {"c1": "d1", "c2": "d1"})
    folded = {(m.from_name, m.decided_by): m.into_id for m in resolution.merges}
    scrooge = entity_id("Ebenezer Scrooge", "person")
    assert folded[("Scrooge", "alias")] == scrooge
    assert folded[("Bob", "alias")] == entity_id("Bob Cratchit", "person")
    # The lower-case spelling folded into "Scrooge" follows it to the full name.
    assert folded[("scrooge", "normalisation")] == scrooge
    assert resolution.assignment[("scrooge", "person")] == scrooge


def test_ambiguous_alone_or_other_type_names_are_not_folded() -> None:
    extractions = [
        _extraction("c1", "Cratchit", "Bob Cratchit", "Martha Cratchit"),  # two full names
        _extraction("c2", "Marley"),  # d2 names no full name
        _extraction("c3", "Jacob Marley", "Marley"),
        _extraction("c4", "Christmas"), _extraction("c4", "Christmas Past", kind="concept"),
        _extraction("c5", "Scrooge Scrooge", "Scrooge"),  # a stutter, no fuller name
    ]
    documents = {"c1": "d1", "c2": "d2", "c3": "d3", "c4": "d4", "c5": "d5"}
    resolution = _fold(extractions, documents)
    assert [m for m in resolution.merges if m.decided_by == "alias"] == []


def test_a_vetoed_fold_is_not_made_again() -> None:
    extractions = [_extraction("c1", "Ebenezer Scrooge", "Scrooge")]
    veto = frozenset({("scrooge", entity_id("Ebenezer Scrooge", "person"))})
    resolution = _fold(extractions, {"c1": "d1"}, veto)
    assert resolution.merges == []


def _stored(name: str, kind: str = "person") -> ExistingEntity:
    return ExistingEntity(entity_id(name, kind), name, kind, name.lower())


def test_two_stored_short_names_of_one_new_full_name_do_not_crash() -> None:
    # The 2wiki crash: the first fold keeps the stored short name and merges the new full name
    # away, so the second fold's full name is no longer an entity of its own.
    full = "Academy Award for Best Adapted Screenplay"
    shorts = ("Academy Award", "Academy Award for Best")
    extractions = [_extraction(f"c{n}", full, short, kind="organization")
                   for n, short in enumerate(shorts)]
    stored = tuple(_stored(name, "organization") for name in shorts)
    # Organizations' opening folds allowed here: the crash was on that path.
    resolution = _fold(extractions, {"c0": "d0", "c1": "d1"}, stored=stored, opening=TYPES)
    (merge,) = [m for m in resolution.merges if m.decided_by == "alias"]
    assert merge.from_name == full and merge.into_id in {s.id for s in stored}
    assert all(s.id in resolution.protos for s in stored)  # two stored entities never merge
    assert resolution.assignment[(full.lower(), "organization")] == merge.into_id


def test_a_chain_of_short_names_folds_into_its_longest_name() -> None:
    # "Tim" abbreviates only "Tiny Tim", which abbreviates only "Tiny Tim Cratchit".
    extractions = [_extraction("c1", "Tim", "Tiny Tim", "Tiny Tim Cratchit")]
    resolution = _fold(extractions, {"c1": "d1"})
    longest = entity_id("Tiny Tim Cratchit", "person")
    assert sorted((m.from_name, m.into_id) for m in resolution.merges) == [
        ("Tim", longest), ("Tiny Tim", longest)
    ]
    assert set(resolution.assignment.values()) == {longest}


CHAINS = [("Tim", "Tiny Tim", "Tiny Tim Cratchit"), ("Bob", "Bob Cratchit", "Young Bob Cratchit")]


@pytest.mark.parametrize("chain", CHAINS)
def test_an_undone_fold_is_not_made_again_through_a_chain(chain: tuple[str, str, str]) -> None:
    # The user undid only "short -> longest" (where the chain had put it); the two chains
    # apply their folds in opposite orders (folds go by entity id).
    short, longest = chain[0], chain[-1]
    veto = frozenset({(short.lower(), entity_id(longest, "person"))})
    resolution = _fold([_extraction("c1", *chain)], {"c1": "d1"}, veto)
    assert resolution.assignment[(short.lower(), "person")] != entity_id(longest, "person")


def test_a_name_found_through_its_recorded_merge_is_not_recorded_again() -> None:
    """A resumed run meets "Scrooge" already folded into the stored "Ebenezer Scrooge": the
    alias merge is in the trail, so no "same normalised name" record is added beside it."""
    full = entity_id("Ebenezer Scrooge", "person")
    stored = (ExistingEntity(full, "Ebenezer Scrooge", "person", "ebenezer scrooge"),
              ExistingEntity(full, "Ebenezer Scrooge", "person", "scrooge"))
    extractions = [_extraction("c1", "Ebenezer Scrooge", "EBENEZER SCROOGE"),
                   _extraction("c2", "Scrooge", "scrooge")]
    resolution = _fold(extractions, {"c1": "d1", "c2": "d1"}, stored=stored)
    assert resolution.assignment[("scrooge", "person")] == full
    # Only the new spelling of the stored name itself is a record of this run.
    assert [(m.from_name, m.decided_by) for m in resolution.merges] == [
        ("EBENEZER SCROOGE", "normalisation")
    ]


def test_a_batch_reads_only_the_documents_its_names_are_in() -> None:
    # A run's input of 2,000 documents, one name each: the batch of one document (Scrooge's)
    # reads its own document and the one other holding "Scrooge", not the whole input
    # (a scan of the whole input per batch made a run quadratic in its documents).
    extractions = [_extraction(f"c{n}", f"Person{n} Surname{n}") for n in range(2000)]
    extractions += [_extraction("s1", "Ebenezer Scrooge", "Scrooge"), _extraction("s2", "Scrooge")]
    documents = {x.chunk_id: f"d-{x.chunk_id}" for x in extractions}
    scope = AliasScope.of(extractions, documents)
    batch = extractions[-2:-1]
    grouping = group_mentions([m for x in batch for m in x.entities], [])
    resolution = Resolution(grouping.protos, grouping.assignment, surface_merges(grouping))
    holding = {resolution.protos[proto_id].name: sorted(documents)
               for proto_id, documents in scope.documents_holding(resolution).items()}
    assert holding == {"Ebenezer Scrooge": ["d-s1"], "Scrooge": ["d-s1", "d-s2"]}
    # d-s2 holds "Scrooge" alone, so the short name is ambiguous there: nothing is folded.
    assert fold_aliases(resolution, scope, TYPES) == 0


def test_a_short_name_in_a_long_document_compares_only_names_it_opens_or_closes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One long document (a big text file) naming 2,000 people: "Scrooge" is checked against
    # the one name ending on it, not against all 2,000 (that comparison, for every short name
    # of every batch, made a long file's resolution quadratic in its length).
    compared: list[tuple[str, str]] = []
    real = aliases._is_alias

    def counting(short_key: str, full_key: str, may_open: bool = True) -> bool:
        compared.append((short_key, full_key))
        return real(short_key, full_key, may_open)

    monkeypatch.setattr(aliases, "_is_alias", counting)
    extractions = [_extraction(f"c{n}", f"Person{n} Surname{n}") for n in range(2000)]
    extractions.append(_extraction("s1", "Ebenezer Scrooge", "Scrooge"))
    resolution = _fold(extractions, {x.chunk_id: "book" for x in extractions})
    folded = {m.from_name: m.into_id for m in resolution.merges if m.decided_by == "alias"}
    assert folded == {"Scrooge": entity_id("Ebenezer Scrooge", "person")}
    assert compared == [("scrooge", "ebenezer scrooge")]


class _CountingReads(dict[str, Any]):
    """A scope's documents that count how often one is read."""

    reads = 0

    def __getitem__(self, document: str) -> Any:
        self.reads += 1
        return super().__getitem__(document)


def test_a_name_found_alone_in_a_document_is_settled_without_reading_the_rest() -> None:
    # "Scrooge" stands alone in 2,000 documents: the first one read settles that it is never
    # folded, whichever it is, so a batch holding it does not read the other 1,999.
    extractions = [_extraction(f"c{n}", "Scrooge") for n in range(2000)]
    extractions.append(_extraction("s1", "Ebenezer Scrooge", "Scrooge"))
    documents = {x.chunk_id: f"d-{x.chunk_id}" for x in extractions}
    built = AliasScope.of(extractions, documents)
    counted = _CountingReads(built.mentions)
    scope = AliasScope(counted, built.documents_by_key, built.documents_by_id)
    grouping = group_mentions(list(extractions[-1].entities), [])
    resolution = Resolution(grouping.protos, grouping.assignment, surface_merges(grouping))
    assert fold_aliases(resolution, scope, TYPES) == 0
    assert counted.reads <= 3  # d-s1 for each of the two names, and one document alone


def test_a_run_builds_its_scope_once_for_all_batches() -> None:
    extractions = [_extraction("c1", "Ebenezer Scrooge", "Scrooge")]
    built: list[int] = []

    def documents() -> dict[str, str]:
        built.append(1)
        return {"c1": "d1"}

    scopes = RunAliasScopes()
    first = scopes.of(extractions, documents)
    assert scopes.of(extractions, documents) is first and len(built) == 1
    assert scopes.of(list(extractions), documents) is not first and len(built) == 2


@pytest.mark.parametrize(("short", "full"), [
    ("autovacuum", "autovacuum logging"),  # a term in lower case is no proper name
    ("Arch", "Arch jargon"),  # a phrase about the name adds a common word
    ("ACL", "ACL privilege abbreviations"),
    ("London", "City of London"),  # a thing of London, not London's full name
    ("Saarbrücken", "Count of Nassau- Saarbrücken"),  # a part of a compound
    ("Oxford University", "Oxford University Cricket Club"),  # a modifier of another thing
])
def test_a_term_is_not_folded_into_a_phrase_that_holds_it(short: str, full: str) -> None:
    resolution = _fold([_extraction("c1", full, short, kind="organization")], {"c1": "d1"})
    assert [m for m in resolution.merges if m.decided_by == "alias"] == []


def test_a_first_name_folds_and_a_place_folds_into_the_name_it_closes() -> None:
    resolution = _fold([_extraction("c1", "Ludwig van Beethoven", "Ludwig"),
                        _extraction("c2", "Las Vegas", "Vegas", kind="location")],
                       {"c1": "d1", "c2": "d2"})
    assert sorted(m.from_name for m in resolution.merges if m.decided_by == "alias") == [
        "Ludwig", "Vegas"]


def test_a_first_name_never_found_beside_the_full_name_is_not_folded() -> None:
    # The book's old Joe, named throughout, and Joe Miller, named once, far from him.
    extractions = [_extraction("c1", "Joe"), _extraction("c2", "Joe"),
                   _extraction("c3", "Joe Miller"), _extraction("c4", "Scrooge"),
                   _extraction("c5", "Ebenezer Scrooge")]
    resolution = _fold(extractions, {f"c{n}": "book" for n in range(1, 6)})
    # A surname closes its full name: folded even when they are never in one chunk.
    assert [m.from_name for m in resolution.merges if m.decided_by == "alias"] == ["Scrooge"]
