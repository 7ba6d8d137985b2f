"""`index --ray` whose driver is killed mid-run, started again, resumes and writes the graph of
one uninterrupted in-process run (on the test command's two-node Ray cluster)."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing import indexer
from graphrag_neo4j.indexing.input.batching import plan_batches
from graphrag_neo4j.settings import Settings
from tests.integration.cluster.test_ray_index import (
    _documents,
    _fast_graph,
    _rag,
    ray_driver,  # noqa: F401  (the fixture)
)
from tests.integration.indexing.test_fast_shards import graph_parts

pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("ray_driver")]
ROOT = Path(__file__).resolve().parents[3]
# Two documents a batch: the run writes its graph in several batches, so the driver can be
# killed between the first batch it marked indexed and the last.
DOCUMENTS_PER_BATCH = 2

# The killed driver: `index --ray` in batches of two documents, nothing else changed.
KILLED_DRIVER = f"""
import functools, sys
from pathlib import Path
from graphrag_neo4j.indexing import indexer
from graphrag_neo4j.indexing.input.batching import plan_batches
from graphrag_neo4j.settings import load_settings
from tests.integration.cluster.test_ray_index import _rag

indexer.plan_batches = functools.partial(plan_batches, max_documents={DOCUMENTS_PER_BATCH})
docs = sorted(Path(sys.argv[1]).iterdir())
with _rag(load_settings(), Path(sys.argv[2]), True, method="fast") as rag:
    rag.index(docs)
"""


def _indexed(store: Store) -> tuple[int, int]:
    """Documents marked indexed, and documents written."""
    rows = store.read("indexing/documents/list_documents", skip=0, limit=1000)
    return sum(bool(row["complete"]) for row in rows), len(rows)


def _kill_once_part_is_written(store: Store, docs: Path, cache: Path) -> tuple[int, int]:
    """Start the driver, SIGKILL it once some but not all documents are indexed; the counts
    then."""
    driver = subprocess.Popen([sys.executable, "-c", KILLED_DRIVER, str(docs), str(cache)],
                              cwd=ROOT, env=dict(os.environ), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    total = len(list(docs.iterdir()))
    try:
        deadline = time.monotonic() + 120
        while driver.poll() is None and time.monotonic() < deadline:
            complete, _ = _indexed(store)
            if 0 < complete < total:
                driver.send_signal(signal.SIGKILL)
                driver.wait(timeout=30)
                return _indexed(store)
            time.sleep(0.05)
        out = driver.stdout.read().decode(errors="replace") if driver.stdout else ""
        pytest.fail(f"the driver was not seen with part of the graph written: {out[-2000:]}")
    finally:
        driver.kill()
        driver.wait()


def test_a_driver_killed_mid_run_resumes_and_writes_the_graph_of_one_run(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexer, "plan_batches", functools.partial(
        plan_batches, max_documents=DOCUMENTS_PER_BATCH))
    docs = _documents(tmp_path / "docs")
    one = _fast_graph(store, settings, docs, tmp_path / "cache-one", ray=False)
    store.run_autocommit("database/delete_all")
    complete, written = _kill_once_part_is_written(store, tmp_path / "docs",
                                                   tmp_path / "cache-killed")
    assert 0 < complete < len(docs), (complete, written)
    # The same command again, on the cluster and the killed run's cache: it resumes.
    with _rag(settings, tmp_path / "cache-killed", True, method="fast") as rag:
        stats, _ = rag.index(docs)
        rag.build_communities(reports="none")
        resumed = {**graph_parts(rag.store), "counts": rag.counts()}
    assert stats.documents == len(docs) - complete
    assert resumed == one
