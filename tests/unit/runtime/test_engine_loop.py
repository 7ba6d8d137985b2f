"""The engine's sync methods share one event loop, so clients bound to it stay usable."""

from __future__ import annotations

import asyncio
from pathlib import Path

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings


async def _loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


def test_every_sync_call_of_an_engine_runs_on_its_one_loop_until_close(tmp_path: Path) -> None:
    rag = GraphRAG(Settings(cache_dir=tmp_path), llm=FakeChatModel(), embeddings=FakeEmbeddings())
    first = rag.run(_loop())
    assert rag.run(_loop()) is first and not first.is_closed()
    rag.close()
    assert first.is_closed()
    with GraphRAG(Settings(cache_dir=tmp_path), llm=FakeChatModel(),
                  embeddings=FakeEmbeddings()) as other:
        assert other.run(_loop()) is not first
