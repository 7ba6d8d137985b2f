"""Batches bounded in documents and chunks; a long document split in pieces, finished once."""

from __future__ import annotations

from graphrag_neo4j.indexing.input.batching import plan_batches
from graphrag_neo4j.indexing.records import Chunk, Document


def _corpus(sizes: list[int]) -> tuple[list[Document], dict[str, list[Chunk]]]:
    documents = [Document(f"d{i}", f"t{i}", "s", "x") for i in range(len(sizes))]
    chunks = {d.id: [Chunk(f"{d.id}-{k}", d.id, "x", k, 1) for k in range(n)]
              for d, n in zip(documents, sizes, strict=True)}
    return documents, chunks


def test_a_long_document_is_split_and_finished_in_its_last_batch() -> None:
    documents, chunks = _corpus([2, 10, 1, 0])
    plans = list(plan_batches(documents, chunks, max_documents=100, max_chunks=4))
    assert [sum(len(c) for c in p.chunks.values()) for p in plans] == [4, 4, 4, 1]
    assert [p.finished for p in plans] == [["d0"], [], ["d1"], ["d2", "d3"]]
    # Every chunk is in exactly one batch, in order.
    seen = [c.id for p in plans for d in p.documents for c in p.chunks[d.id]]
    assert seen == [c.id for d in documents for c in chunks[d.id]]
    # A continued piece knows the chunk before it, to chain NEXT_CHUNK across batches.
    assert plans[1].preceding == {"d1": chunks["d1"][1]}
    assert plans[2].preceding == {"d1": chunks["d1"][5]}
    assert plans[0].preceding == {}


def test_batches_hold_at_most_the_document_limit() -> None:
    documents, chunks = _corpus([1] * 7)
    plans = list(plan_batches(documents, chunks, max_documents=3, max_chunks=100))
    assert [[d.id for d in p.documents] for p in plans] == [
        ["d0", "d1", "d2"], ["d3", "d4", "d5"], ["d6"]]
    assert [p.finished for p in plans] == [[d.id for d in p.documents] for p in plans]


def test_no_documents_no_batches() -> None:
    assert list(plan_batches([], {})) == []


def test_a_half_written_document_goes_on_from_where_it_stopped() -> None:
    documents, chunks = _corpus([3, 10])
    plans = list(plan_batches(documents, chunks, {"d1": 6}, max_documents=100, max_chunks=4))
    assert [[c.chunk_index for c in p.chunks["d1"]] for p in plans] == [[6], [7, 8, 9]]
    assert plans[0].preceding == {"d1": chunks["d1"][5]}  # chained to what is in the graph
    assert [p.finished for p in plans] == [["d0"], ["d1"]]
