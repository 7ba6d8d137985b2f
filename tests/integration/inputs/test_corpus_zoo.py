"""A few documents of every real corpus (bundled in tests/fixtures/zoo), fast-indexed: no crash,
junk under 2%, the documents in other languages refused by name."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.extraction.names import junk_reason
from graphrag_neo4j.indexing.run.run_report import IndexStats
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration

ZOO = Path(__file__).resolve().parents[2] / "fixtures" / "zoo"
MAX_JUNK = 0.02
# corpus -> (files, the languages fast extraction is expected to refuse, one document each)
CORPORA: dict[str, tuple[list[str], list[str]]] = {
    "book": (["christmas_carol_stave1.txt"], []),
    "dulce-md": (["operation_dulce_chapter1.md"], []),
    "musique": (["musique.jsonl"], []),
    "2wiki": (["2wiki.jsonl"], []),
    "biomed": (["biomed.jsonl"], []),
    "en-markdown-code": (["graph_rag_walkthrough.en.md"], []),
    "zh-ja-ru": (["graph_query_notes.zh.md", "graph_query_notes.ja.md",
                  "graph_query_notes.ru.md"], ["Chinese", "Japanese", "Russian"]),
}


def _engine(settings: Settings, tmp_path: Path) -> GraphRAG:
    extraction = settings.extraction.model_copy(update={"method": "fast"})
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache", "extraction": extraction})
    return GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings())


def _junk(store: Store, max_words: int) -> tuple[list[str], list[str]]:
    """The graph's entity names, and those of them `junk_reason` refuses."""
    names = [r["name"] for r in store.read("bench/entity_names")]
    return names, [n for n in names if junk_reason(n, max_words) is not None]


def test_the_zoo_fixtures_are_all_there() -> None:
    files = {name for paths, _ in CORPORA.values() for name in paths}
    assert files <= {p.name for p in ZOO.iterdir()}
    assert sum(p.stat().st_size for p in ZOO.iterdir()) < 200_000


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_a_sample_of_each_corpus_indexes_cleanly(
    corpus: str, store: Store, settings: Settings, tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    files, refused = CORPORA[corpus]
    with _engine(settings, tmp_path) as rag, caplog.at_level(logging.WARNING):
        stats, loaded = rag.index([ZOO / name for name in files])
    _assert_clean(stats, loaded.skipped, refused, caplog.text)
    names, junk = _junk(store, rag.settings.extraction.max_name_words)
    assert len(junk) <= MAX_JUNK * len(names), junk
    if len(refused) < stats.documents:
        assert names, "an English sample gave no entities"
    else:
        assert names == [], "a refused document wrote entities"


def _assert_clean(stats: IndexStats, skipped: Sequence[object], refused: list[str],
                  log: str) -> None:
    assert skipped == [] and stats.refused_documents == 0
    assert stats.unextracted_documents == len(refused)
    for language in refused:
        assert f"is written in {language}" in log and "--method llm" in log, language


def test_the_musique_triplets_sample_indexes_cleanly(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """A triplet corpus states its names itself: they are kept, but for values (a year), whose
    triplets become facts on their entity, and nothing else is made up."""
    with _engine(settings, tmp_path) as rag:
        stats = rag.index_triplets(ZOO / "musique.jsonl")
    records = [json.loads(line) for line in (ZOO / "musique.jsonl").read_text().splitlines()]
    stated = {name for r in records for s, _, o in r["triplets"] for name in (s, o)}
    names = {r["name"] for r in store.read("bench/entity_names")}
    assert stats.documents == len(records) and stats.triplets > 0 and stats.relations > 0
    assert names and names <= stated, names - stated
    assert _junk(store, settings.extraction.max_name_words)[1] == []
    assert "1963" in stated and stats.value_facts >= 1 and stats.refused_names >= 1
    (journal,) = store.read("bench/entities_named",
                            names=["Journal of Small Business Management"])
    assert "Journal of Small Business Management first published in 1963." in (
        journal["description"])
