"""A few documents of every real corpus, fast-indexed: no crash, junk under 2%, expected skips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.extraction.names import junk_reason
from graphrag_neo4j.settings import Settings
from graphrag_neo4j.store import Store
from graphrag_neo4j.testing import FakeChatModel, FakeEmbeddings

pytestmark = pytest.mark.integration

SHARED = Path(__file__).resolve().parents[3] / "shared"
DATA, SEEDS = SHARED / "data", SHARED / "seeds"
RECORDS = 4  # documents taken from each JSONL corpus
MAX_JUNK = 0.02
# corpus -> (files, documents fast extraction is expected to refuse as not English)
CORPORA = {
    "dulce-md": ([DATA / "operation_dulce" / "Operation_Dulce_v2_1_1.md"], 0),
    "musique": ([DATA / "musique" / "corpus.jsonl"], 0),
    "2wiki": ([DATA / "2wiki" / "corpus.jsonl"], 0),
    "biomed": ([DATA / "biomed" / "corpus.jsonl"], 0),
    "seeds-zh": ([SEEDS / "msgraphrag_query_on_neo4j.zh.md"], 1),
    "seeds-en-code": ([SEEDS / "graph_rag_with_milvus.en.md"], 0),
}


def _sample(paths: list[Path], folder: Path) -> list[Path]:
    """The files, a JSONL one cut to its first RECORDS records."""
    sampled = []
    for path in paths:
        if path.suffix == ".jsonl":
            lines = path.read_text(encoding="utf-8").splitlines()[:RECORDS]
            path = folder / path.name
            path.write_text("\n".join(json.dumps(json.loads(x)) for x in lines), encoding="utf-8")
        sampled.append(path)
    return sampled


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_a_sample_of_each_corpus_indexes_cleanly(
    corpus: str, store: Store, settings: Settings, tmp_path: Path
) -> None:
    paths, refused = CORPORA[corpus]
    if not all(p.exists() for p in paths):
        pytest.skip(f"{paths[0].parent} is absent (the shared data lives beside the repo)")
    extraction = settings.extraction.model_copy(update={"method": "fast"})
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache", "extraction": extraction})
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
        stats, loaded = rag.index(_sample(paths, tmp_path))
    assert loaded.skipped == [] and stats.refused_documents == 0
    assert stats.unextracted_documents == refused
    names = [r["name"] for r in store.read("bench/entity_names")]
    junk = [n for n in names if junk_reason(n, tuned.extraction.max_name_words) is not None]
    assert len(junk) <= MAX_JUNK * len(names), junk
    if refused < stats.documents:
        assert names, "an English sample gave no entities"
