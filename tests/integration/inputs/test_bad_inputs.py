"""Bad input gets one clear message each and the run goes on with the rest."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import pytest
from rich.console import Console

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration

GOOD = "Ada Lovelace wrote notes on the Analytical Engine of Charles Babbage."
BROKEN = "Grace Hopper worked on the Harvard Mark I computer."


def _rag(settings: Settings, tmp_path: Path, llm: FakeChatModel) -> GraphRAG:
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})
    return GraphRAG(tuned, llm=llm, embeddings=FakeEmbeddings())


def test_binary_empty_and_broken_tags_are_reported_and_skipped(
    store: Store, settings: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "good.txt").write_text(GOOD)
    (docs / "broken.txt").write_text(BROKEN)
    (docs / "empty.txt").write_text("   \n")
    (docs / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    llm = FakeChatModel(rules=[
        ("Missing records:", "<done/>"),
        (GOOD, "<concept><name>Ada Lovelace</name><type>person</type><description>Wrote notes."
               "</description></concept>\n<concept><name>Charles Babbage</name><type>person"
               "</type><description>Designed the engine.</description></concept>\n<triplet>"
               "<subject>Ada Lovelace</subject><predicate>wrote notes on the engine of</predicate>"
               "<object>Charles Babbage</object><strength>9</strength></triplet>"),
        (BROKEN, "<concept><name>Grace Hopper</name><type>person</type><description>Worked on"
                 " Mark I.</description></concept>\n<concept><name>Harvard Mark I<type>object"
                 "</concept>\n<triplet><subject>Grace Hopper</subject><predicate>worked on"),
        ("may or may not name the same", '{"merges": []}'),
    ])
    with caplog.at_level(logging.WARNING), _rag(settings, tmp_path, llm) as rag:
        stats, loaded = rag.index([docs])
        counts = rag.counts()
    skipped = {path.name: reason for path, reason in ((s.path, s.reason) for s in loaded.skipped)}
    assert set(skipped) == {"empty.txt", "image.png"}
    assert all(reason.count("\n") == 0 for reason in skipped.values())
    assert stats.skipped_files == 2 and stats.documents == 2
    assert stats.dropped_records >= 2
    dropped = [r.getMessage() for r in caplog.records if "malformed" in r.getMessage()]
    assert len(dropped) == 1 and "dropped" in dropped[0]
    names = {row["name"] for row in store.read("indexing/entities/list_entities", skip=0, limit=10)}
    assert names == {"Ada Lovelace", "Charles Babbage", "Grace Hopper"}
    assert counts["relations"] == 1


def test_invalid_triplet_lines_are_named_and_the_rest_is_indexed(
    store: Store, settings: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    corpus = tmp_path / "corpus.jsonl"
    good = {"id": "p1", "title": "Ada", "text": GOOD,
            "triplets": [["Ada Lovelace", "worked with", "Charles Babbage"], ["bad"]]}
    corpus.write_text(json.dumps(good) + "\n{not json at all\n")
    shown = io.StringIO()
    with _rag(settings, tmp_path, FakeChatModel(rules=[])) as rag, \
            caplog.at_level(logging.WARNING):
        rag.console = Console(file=shown, width=1000)
        stats = rag.index_triplets(corpus)
        counts = rag.counts()
    assert stats.skipped_files == 1 and stats.documents == 1
    # The reason is told once: as a warning, not printed again on the console.
    told = [r.getMessage() for r in caplog.records] + shown.getvalue().splitlines()
    assert sum("line 2" in line for line in told) == 1, told
    assert counts["relations"] == 1 and counts["entities"] == 2
