"""A process answering queries beside two CLI loops over one cache folder: no query fails, every
cache file passes SQLite's integrity check, and every reply and vector written is kept.

Before one connection per process and file, the engine opened a cache file beside its
connection and closed it, which dropped the process's SQLite locks; a CLI `query` ending beside
`serve` then deleted the server's WAL (issue 59, item 3: later "database disk image is
malformed"). Here that kept 44 of 48 replies and 62 of 66 vectors: the writes of the processes
left on the deleted WAL were lost.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.llm.testing import pipeline_fake_llm
from tests.integration.llm.fake_openai import hosted_env, serving_answers

pytestmark = pytest.mark.integration
CLI_RUNS = 3  # queries per CLI loop (a CLI start takes 2 s on an idle machine, 20 on a busy one)
# Long enough to take pages of its own in the cache file, as real answers do.
ANSWER = "Ada Lovelace wrote notes on the Analytical Engine [Data: Sources (1)]. " * 60
DOCS = {
    "lovelace.txt": "Ada Lovelace wrote notes on the Analytical Engine. Charles Babbage designed "
                    "the Analytical Engine in London.",
    "turing.txt": "Alan Turing worked at Bletchley Park with Joan Clarke.",
}
# The answering process: queries until told to stop, half of them new (a fresh LLM call and
# cache write), half repeated (cache hits); prints its counts.
ANSWERING = """
import sys, traceback
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.settings import load_settings
stop, done, failed = sys.argv[1], 0, 0
with GraphRAG(load_settings()) as rag:
    from pathlib import Path
    while not Path(stop).exists() or done < 4:
        try:
            rag.query(f"Who wrote about engine {done // 2}?", method="naive")
        except Exception:
            failed += 1
            traceback.print_exc()
        done += 1
print(f"queries={done} failed={failed}")
"""


def _answer(prompt: str) -> str:
    try:
        return pipeline_fake_llm().answer(prompt)
    except LookupError:  # a query's answer prompt
        return ANSWER


def _rows(path: Path, table: str) -> int:
    with sqlite3.connect(path) as check:
        return int(check.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def _cli_loop(name: str, env: dict[str, str], failures: list[str]) -> None:
    """`query` CLI_RUNS times, a new question each time."""
    for run in range(CLI_RUNS):
        done = subprocess.run(
            [sys.executable, "-m", "graphrag_neo4j", "query", f"What did {name} see {run}?",
             "--method", "naive"], env=env, capture_output=True, text=True, timeout=300,
            check=False)
        if done.returncode != 0:
            failures.append(f"{name} run {run}: {(done.stdout + done.stderr)[-1500:]}")


def test_queries_beside_two_cli_loops_keep_one_cache_folder_whole(
    store: Store, tmp_path: Path
) -> None:
    docs, cache = tmp_path / "docs", tmp_path / "cache"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    with serving_answers(_answer) as fake:
        env = hosted_env(fake.base_url, cache)
        subprocess.run([sys.executable, "-m", "graphrag_neo4j", "index", str(docs), "--method",
                        "llm"], env=env, capture_output=True, check=True, timeout=600)
        stop = tmp_path / "stop"
        answering = subprocess.Popen([sys.executable, "-c", ANSWERING, str(stop)], env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        failures: list[str] = []
        loops = [threading.Thread(target=_cli_loop, args=(name, env, failures))
                 for name in ("Ada", "Alan")]
        for loop in loops:
            loop.start()
        for loop in loops:
            loop.join()
        stop.touch()
        out, _ = answering.communicate(timeout=300)
        asked, embedded = len(fake.requests), fake.embedded_texts
    assert answering.returncode == 0 and "failed=0" in out, out[-3000:]
    assert not failures, failures[0]
    files = sorted(cache.glob("*.sqlite"))
    assert {f.name for f in files} >= {"llm_cache.sqlite", "embedding_cache.sqlite"}
    for path in files:
        with sqlite3.connect(path) as check:
            assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)], path
    # Every prompt and text was new to the cache when sent (no two processes send the same
    # one), so each reply and vector is kept: none lost to another process's writes.
    kept = {name: _rows(cache / file, table) for name, file, table in (
        ("replies", "llm_cache.sqlite", "responses"),
        ("vectors", "embedding_cache.sqlite", "vectors"))}
    assert kept == {"replies": asked, "vectors": embedded}
    print(out.strip().splitlines()[-1])
