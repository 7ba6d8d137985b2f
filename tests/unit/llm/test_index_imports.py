"""The index command loads no LangChain and no openai client until a call misses the cache,
and no pandas or pyarrow at all.

Those imports take over a second; a warm run (every LLM reply and vector cached) needs none.
Each check runs in a fresh interpreter, since this one has long imported both.
"""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import graphrag_neo4j
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.lazy_model import LazyModel
from graphrag_neo4j.llm.providers import resolve_embeddings, resolve_llm
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import load_settings

SOURCE_ROOT = Path(graphrag_neo4j.__file__).parents[1]
# The model side of the call path: imported when a model is built or a call misses the cache.
MODEL_SIDE = {
    "graphrag_neo4j.llm.calls.model_requests", "graphrag_neo4j.llm.calls.call_errors",
    "graphrag_neo4j.llm.tokens.prompt_tokens", "graphrag_neo4j.llm.offline.llm",
    "graphrag_neo4j.llm.offline.embeddings", "graphrag_neo4j.llm.offline.multilingual",
    # The window guard, imported by the call path only when a call goes to the model.
    "graphrag_neo4j.llm.tokens.prompt_window",
    # The embedder of `--ray` runs, a LangChain model the engine builds only with Ray on.
    "graphrag_neo4j.indexing.cluster.embeddings",
}
# What `index` reaches: its command, the engine, the store and the rooms it runs.
INDEX_ROOMS = ("indexing", "communities", "llm")
# In those rooms but never reached by `index`: the parquet import and export (commands of their
# own that read tables with pandas) and the fake LangChain models of users' tests.
NOT_INDEX = ("graphrag_neo4j.indexing.interop", "graphrag_neo4j.llm.testing")
INDEX_MODULES = [
    "graphrag_neo4j.cli.app", "graphrag_neo4j.cli.graph.index", "graphrag_neo4j.engine",
    "graphrag_neo4j.database.store",
]
LOADED = ("import sys; print(sorted(m for m in sys.modules"
          " if m.split('.')[0].startswith('langchain') or m.split('.')[0] == 'openai'))")


def _run(code: str, cwd: Path | None = None) -> str:
    """Run `code` in a fresh interpreter on this checkout's package; its stdout."""
    env = {**os.environ, "PYTHONPATH": str(SOURCE_ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd or SOURCE_ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _index_modules() -> list[str]:
    rooms = [info.name for info in pkgutil.walk_packages(graphrag_neo4j.__path__,
                                                         "graphrag_neo4j.")
             if info.name.split(".")[1] in INDEX_ROOMS and info.name not in MODEL_SIDE
             and not info.name.startswith(NOT_INDEX)]
    return INDEX_MODULES + rooms


def test_the_model_side_is_what_the_list_names() -> None:
    known = {info.name for info in pkgutil.walk_packages(graphrag_neo4j.__path__,
                                                         "graphrag_neo4j.")}
    assert known >= MODEL_SIDE


def test_the_index_command_imports_no_langchain_and_no_openai() -> None:
    imports = "; ".join(f"import {name}" for name in _index_modules())
    assert _run(f"{imports}; {LOADED}").strip() == "[]"


def test_the_driver_starts_without_pandas_and_pyarrow_which_stay_importable() -> None:
    imports = "; ".join(f"import {name}" for name in _index_modules())
    dataframes = "[m for m in ('pandas', 'pyarrow') if m in sys.modules]"
    loaded = _run(f"{imports}; import sys; print({dataframes}); import neo4j._optional_deps as d;"
                  " print(d.np is not None, d.pd, d.pa); import pandas, pyarrow.parquet;"
                  " print(pandas.DataFrame({'a': [1]}).shape)")
    assert loaded.split("\n")[:3] == ["[]", "True None None", "(1, 1)"]


@pytest.mark.filterwarnings("ignore:A test tried to use socket.socket")
async def test_a_warm_engine_answers_from_the_cache_without_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An OpenAI-compatible server that is never reached: every answer comes from the cache.
    for name, value in {"GRAPHRAG_CACHE_DIR": str(tmp_path / "cache"),
                        "GRAPHRAG_LLM__BASE_URL": "http://127.0.0.1:9/v1",
                        "GRAPHRAG_EMBEDDING__BASE_URL": "http://127.0.0.1:9/v1",
                        "GRAPHRAG_LLM__MAX_RETRIES": "0"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    settings = load_settings()
    # The cold run, with fakes built from the real recipes: the cache and what the models
    # said of themselves.
    chat = resolve_llm(settings).source
    llm = LLMCaller(LazyModel(chat.recipe, lambda: FakeChatModel(rules=[("France", "Paris")])),
                    settings.llm, settings.cache_dir)
    await llm.complete("France?", stage="qa")
    llm.close()
    vectors = resolve_embeddings(settings).source
    embedder = EmbeddingCaller(LazyModel(vectors.recipe, FakeEmbeddings), settings.embedding,
                               settings.cache_dir)
    expected = await embedder.embed(["Scrooge"])
    await embedder.dimension()
    embedder.close()
    warm = _run(
        "import json\n"
        "from graphrag_neo4j.engine import GraphRAG\n"
        "with GraphRAG() as rag:\n"
        "    answer = rag.run(rag.llm.complete('France?', stage='qa'))\n"
        "    vectors = rag.run(rag.embedder.embed(['Scrooge']))\n"
        "    size = rag.run(rag.embedder.dimension())\n"
        "print(json.dumps([answer, vectors, size]))\n"
        f"{LOADED}\n",
        cwd=tmp_path,
    )
    answers, loaded = warm.strip().split("\n")
    assert json.loads(answers) == ["Paris", expected, 384]
    assert loaded == "[]"
