"""The real offline models: MiniLM vectors and the llama.cpp extraction probe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graphrag_neo4j.cli.models import embedding_probe_texts, probe_embedder, probe_llm
from graphrag_neo4j.indexing.extraction.schema import ExtractionSchema
from graphrag_neo4j.indexing.extraction.schema_meanings import learn_meanings
from graphrag_neo4j.indexing.records import ChunkExtraction, EntityMention
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.costs.stats import EMBEDDING_STAGE
from graphrag_neo4j.llm.offline.catalog import MINILM
from graphrag_neo4j.llm.offline.embeddings import MiniLMEmbeddings
from graphrag_neo4j.llm.tokens.counting import count_tokens
from graphrag_neo4j.settings import ExtractionSchemaSettings, Settings

pytestmark = pytest.mark.slow


def test_offline_embedder_gives_384_unit_vectors_that_rank_sensibly() -> None:
    embedder = MiniLMEmbeddings()
    query = np.array(embedder.embed_query("Who was Leonhard Euler's teacher?"))
    docs = np.array(embedder.embed_documents([
        "Leonhard Euler studied mathematics under Johann Bernoulli in Basel.",
        "Daniel Bernoulli worked on fluid dynamics.",
        "A recipe for chocolate cake with butter and sugar.",
    ]))
    assert query.shape == (MINILM.dimension,) and docs.shape == (3, MINILM.dimension)
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-4)
    scores = docs @ query
    assert scores[0] > scores[1] > scores[2]


def test_offline_embedder_sees_all_of_a_long_text_and_batches_consistently() -> None:
    windows, first = MiniLMEmbeddings(run_tokens=64), MiniLMEmbeddings(long_texts="truncate")
    head = "The weather in London was cold and grey that winter. " * 40  # past 256 tokens
    tail = "Leonhard Euler studied mathematics under Johann Bernoulli in Basel. " * 6
    question = np.array(windows.embed_query("Who did Euler study under?"))
    seen = np.array(windows.embed_documents([head + tail, "Euler", "Basel"]))
    unseen = np.array(first.embed_query(head + tail))
    assert question @ seen[0] > question @ unseen + 0.1  # the tail counts in windows mode
    assert np.allclose(seen[1], windows.embed_query("Euler"), atol=1e-5)
    assert np.allclose(first.embed_query("Euler"), seen[1], atol=1e-5)  # short: both modes agree


def _peak_rss_mb() -> float:
    with open("/proc/self/status", encoding="utf-8") as status:
        return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM"))


def _reset_peak_rss() -> None:
    with open("/proc/self/clear_refs", "w", encoding="utf-8") as refs:
        refs.write("5")  # the kernel's reset of VmHWM to the current RSS


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux /proc")
def test_offline_embedder_run_holds_little_beyond_its_tensors() -> None:
    embedder = MiniLMEmbeddings()
    embedder.embed_query("load the session first")
    texts = [f"word{i} " * 400 for i in range(8)]  # 8 texts of four 256-token windows each
    _reset_peak_rss()
    before = _peak_rss_mb()
    embedder.embed_documents(texts)
    embedder.embed_documents([text[:1500] for text in texts])  # another shape after it
    # Its attention tensors are ~100 MB at a time; from malloc's heap (no arena) the holes
    # each run left stayed resident: +560 MB.
    assert _peak_rss_mb() - before < 300


async def test_offline_probe_dimension_and_timing_for_estimates(tmp_path: Path) -> None:
    settings = Settings(embedding={"provider": "offline"}, cache_dir=tmp_path)
    description, result = await probe_embedder(settings)
    assert result.ok and result.detail == "dimension 384"
    assert "all-MiniLM-L6-v2" in description
    # One batch is timed and kept beside the vector cache (no vector is cached), so an
    # estimate has the embedder's speed.
    embedder = EmbeddingCaller(MiniLMEmbeddings(), settings.embedding, tmp_path)
    assert embedder.model_stats is not None and embedder.cache is not None
    timed = embedder.model_stats.stages(embedder.identity)[EMBEDDING_STAGE]
    texts = embedding_probe_texts()
    assert timed.calls == 1 and timed.prompt_tokens == sum(map(count_tokens, texts))
    assert embedder.cached_keys([embedder.text_key(text) for text in texts]) == set()
    embedder.close()


async def test_offline_llm_probe_reply_is_parseable() -> None:
    settings = Settings(llm={"provider": "local", "max_tokens": 400})
    description, result = await probe_llm(settings)
    assert "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf" in description
    assert result.ok, result.detail


async def test_minilm_maps_spacy_types_onto_a_schema_by_meaning_at_the_default_similarity() -> None:
    schema_settings = ExtractionSchemaSettings(entity_types={
        "person": "a human being or a ghost", "place": "a town, street or house",
        "organization": "a firm, a school or a charity", "event": "a feast or a visit"})
    schema = ExtractionSchema.from_settings(schema_settings)
    assert schema is not None
    types = ["location", "company", "human", "festival", "concept", "date", "product"]
    extraction = ChunkExtraction("c", [EntityMention("c", t, t, "") for t in types])
    embedder = EmbeddingCaller(MiniLMEmbeddings(), Settings().embedding, None)
    schema = await learn_meanings(schema, [extraction], embedder, schema_settings.min_similarity)
    assert [schema.map_type(t)[0] for t in types] == [
        "place", "organization", "person", "event", "other", "other", "other"]
