"""`--shard I/N`: every document lands in exactly one shard, the same one on every machine."""

from __future__ import annotations

import pytest

from graphrag_neo4j.indexing.input.sharding import Shard, parse_shard
from graphrag_neo4j.indexing.records import Document
from graphrag_neo4j.runtime.errors import InputError


def _documents(n: int) -> list[Document]:
    return [Document(id=f"doc-{i}", title="t", source="s", text="x") for i in range(n)]


@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_shards_partition_the_documents(count: int) -> None:
    documents = _documents(200)
    parts = [Shard(i, count).select(documents) for i in range(1, count + 1)]
    assert sorted(d.id for part in parts for d in part) == sorted(d.id for d in documents)
    if count > 1:
        assert all(10 < len(part) < 200 for part in parts)


def test_the_split_is_fixed_by_the_id_alone() -> None:
    # Pinned: another machine (or a later run) must make the very same split.
    assert [d.id for d in Shard(1, 2).select(_documents(8))] == ["doc-0", "doc-2"]
    assert Shard(1, 2).holds("doc-0") != Shard(2, 2).holds("doc-0")


@pytest.mark.parametrize("spec", ["0/2", "3/2", "1", "a/b", "1/0", ""])
def test_a_bad_spec_is_one_sentence(spec: str) -> None:
    with pytest.raises(InputError, match="is not I/N"):
        parse_shard(spec)


def test_a_good_spec_parses() -> None:
    assert parse_shard(" 2 / 4 ") == Shard(2, 4) and str(Shard(2, 4)) == "2/4"
