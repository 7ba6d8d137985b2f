"""Odd input meets the real graph: rich markup in data, over-long ids and names.

Before the fixes, `documents` and `delete` crashed on a title or id holding `[/...]` (delete
after deleting, exiting 1), and one name over ~8 KB failed the whole batch on every run.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphrag_neo4j import engine as engine_module
from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.input.limits import MAX_KEY_BYTES
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration
MARKUP_ID = "[/bold]doc[/]"
MARKUP_TITLE = "[red]Title[/red] [/link] [bold"
HUGE = "N" * (3 * MAX_KEY_BYTES)


def _rag_factory(settings: Settings, tmp_path: Path) -> Callable[..., GraphRAG]:
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})

    def make(*_: object, **kwargs: object) -> GraphRAG:
        console = kwargs.get("console")
        return GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings(),
                        console=console)  # type: ignore[arg-type]

    return make


def _corpus(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    return path


def test_markup_in_ids_and_titles_is_printed_as_text(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make = _rag_factory(settings, tmp_path)
    corpus = _corpus(tmp_path / "c.jsonl", [
        {"id": MARKUP_ID, "title": MARKUP_TITLE, "text": "Ada met [/x] Babbage.",
         "triplets": [["Ada", "met", "[/x] Babbage"]]},
    ])
    with make() as rag:
        rag.index_triplets(corpus)
    monkeypatch.setattr(engine_module, "GraphRAG", make)
    _register_subcommands()
    runner = CliRunner()
    listed = runner.invoke(app, ["documents"], env={"COLUMNS": "300"})
    assert listed.exit_code == 0, listed.output
    assert MARKUP_ID in listed.output and "[red]Title[/red]" in listed.output
    merges = runner.invoke(app, ["merges"], env={"COLUMNS": "300"})
    assert merges.exit_code == 0, merges.output
    deleted = runner.invoke(app, ["delete", MARKUP_ID, "--no-communities"])
    assert deleted.exit_code == 0, deleted.output
    assert f"Deleted document {MARKUP_ID}" in deleted.output
    assert store.read("indexing/documents/list_documents", skip=0, limit=10) == []


def test_an_over_long_id_or_name_is_refused_and_the_batch_goes_on(
    store: Store, settings: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    corpus = _corpus(tmp_path / "c.jsonl", [
        {"id": "good-1", "text": "Ada wrote notes.", "triplets": [["Ada", "wrote", "Notes"]]},
        {"id": HUGE, "text": "Too long an id.", "triplets": [["Grace", "wrote", "Code"]]},
        {"id": "good-2", "text": "Babbage built it.",
         "triplets": [["Babbage", "built", "Engine"], ["Babbage", "named", HUGE]]},
    ])
    make = _rag_factory(settings, tmp_path)
    with caplog.at_level(logging.WARNING), make() as rag:
        stats = rag.index_triplets(corpus)
        again = rag.index_triplets(corpus)
    documents = store.read("indexing/documents/list_documents", skip=0, limit=10)
    assert [(d["id"], d["complete"]) for d in documents] == [("good-1", True), ("good-2", True)]
    names = {row["name"] for row in store.read("indexing/entities/list_entities", skip=0, limit=50)}
    assert names == {"Ada", "Notes", "Babbage", "Engine"}
    assert stats.refused_documents == 1 and stats.dropped_records == 2
    assert again.documents == 0 and again.unchanged_documents == 2
    refused = [r.getMessage() for r in caplog.records if str(MAX_KEY_BYTES) in r.getMessage()]
    assert len(refused) == 3 and all(len(line) < 400 for line in refused)  # 2 ids, 1 name


def test_a_skipped_file_is_reported_once(settings: Settings, store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("Ada Lovelace wrote the first program.", encoding="utf-8")
    (folder / "b.bin").write_bytes(b"\x00\x01\x02")
    env = dict(os.environ, GRAPHRAG_CACHE_DIR=str(tmp_path / "cache"), COLUMNS="300")
    run = subprocess.run(
        [sys.executable, "-m", "graphrag_neo4j", "index", str(folder), "--method", "fast",
         "--no-communities"], capture_output=True, text=True, env=env, timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    printed = run.stdout + run.stderr
    assert printed.count("not a format the indexer reads") == 1, printed
