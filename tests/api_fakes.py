"""A fake engine for serving tests: the nano graph, a fake LLM for every method, word streaming."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun
from langchain_core.messages import AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings
from tests.nano_fakes import load_nano, nano_fake_llm, write_nano_passages

ANSWER = "Daniel Bernoulli made major contributions to fluid dynamics [Data: Sources (1)]."
GLOBAL_ANSWER = "The Bernoullis shaped calculus and mechanics [Data: Reports (1)]."
NO_ROWS_CYPHER = "MATCH (e:__Entity__) WHERE e.name = 'nobody' RETURN e.name AS name"
_ROW = re.compile(r"^(\d+)\|([^|]*)\|")
# Chat clients' housekeeping prompts (Open WebUI's start with "### Task:"), by their task
# line, and the JSON each gets.
CLIENT_TASK_REPLIES: dict[str, dict[str, Any]] = {
    "Suggest a concise title": {"title": "Bernoulli fluid dynamics"},
    "Suggest broad tags": {"tags": ["Science", "Mathematics"]},
    "Suggest follow-up questions": {"follow_ups": ["What is Bernoulli's principle?"]},
}


class StreamingFakeChatModel(FakeChatModel):
    """FakeChatModel that streams its reply word by word, as real chat models do."""

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        result = await self._agenerate(messages)
        text = result.generations[0].message.text
        usage = result.generations[0].message.usage_metadata  # type: ignore[attr-defined]
        pieces = re.findall(r"\S+\s*", text) or [text]
        for index, piece in enumerate(pieces):
            await asyncio.sleep(0)
            last = index == len(pieces) - 1
            chunk = AIMessageChunk(content=piece, usage_metadata=usage if last else None)
            yield ChatGenerationChunk(message=chunk)


def fake_report(prompt: str) -> str:
    """A community report titled after the community's first entity rows."""
    names = re.findall(r"^[0-9a-f]{16}\|([^|]+)\|", prompt, flags=re.MULTILINE)
    title = " & ".join(names[:2]) or "Community"
    finding = {"summary": f"{title} matters", "explanation": "Because the tables say so."}
    return json.dumps({"title": title, "summary": f"About {', '.join(names)}.", "rating": 6.0,
                       "rating_explanation": "Central.", "findings": [finding] * 5})


def fake_map(prompt: str) -> str:
    """One point of score 50 per report row."""
    points = [{"description": f"Report {m.group(1)} [Data: Reports ({m.group(1)})]", "score": 50}
              for m in map(_ROW.match, prompt.splitlines()) if m]
    return json.dumps({"points": points})


def serving_llm(dataset: dict[str, Any], latency_s: float = 0.0) -> StreamingFakeChatModel:
    """Extraction of the nano passages plus every query method's prompts."""
    extraction = nano_fake_llm(dataset, extra=[
        ("briefing reports on communities", fake_report),
        ("Find what in these reports helps", fake_map),
        ("Several analysts", GLOBAL_ANSWER),
        ("List the proper names in the question", '["Euler"]'),
        ("You pick facts for answering a question",
         json.dumps({"thought_process": "Euler's teacher.", "useful_relationships": [1]})),
        # Cypher search: a query that finds nothing, repaired into one that finds nothing
        # either, so it answers with local search.
        ("Corrected Cypher:", NO_ROWS_CYPHER),
        ("read-only Cypher query for Neo4j 5", NO_ROWS_CYPHER),
        ("-----Question-----", ANSWER),
        *[(f"### Task:\n{task}", json.dumps(reply)) for task, reply in CLIENT_TASK_REPLIES.items()],
    ])
    return StreamingFakeChatModel(rules=extraction.rules, latency_s=latency_s)


def serving_settings(settings: Settings, cache_dir: Path) -> Settings:
    """The test server's settings with a private cache and small communities."""
    return settings.model_copy(update={
        "cache_dir": cache_dir,
        "communities": settings.communities.model_copy(update={"max_cluster_size": 4}),
    })


def nano_engine(settings: Settings, nano_root: Path, cache_dir: Path,
                latency_s: float = 0.0) -> GraphRAG:
    """An engine with the fake models over the graph already in Neo4j."""
    llm = serving_llm(load_nano(nano_root), latency_s)
    return GraphRAG(serving_settings(settings, cache_dir), llm=llm, embeddings=FakeEmbeddings())


def index_nano(rag: GraphRAG, nano_root: Path, folder: Path) -> None:
    """Write the nano passages as files, index them and build communities with reports."""
    write_nano_passages(load_nano(nano_root), folder)
    rag.index([folder])
    rag.build_communities()
