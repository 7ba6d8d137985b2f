"""The MCP server (stdio): query the graph and explore its entities, relations and reports."""

# No `from __future__ import annotations`: the SDK reads the tools' annotations at run time,
# and they use names local to create_mcp_server.
from collections.abc import Awaitable
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from starlette.exceptions import HTTPException

from graphrag_neo4j.api.answers import answer_json, checked_call, jsonable
from graphrag_neo4j.api.mcp import graph_lookup
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.errors import GraphRAGError
from graphrag_neo4j.query.registry import DEFAULT_METHOD, method_guide, method_list

INSTRUCTIONS = """This server answers questions over a knowledge graph built from a collection of
documents: entities (people, places, organisations, concepts, ...) joined by relations, the text
chunks that mention them, and communities of related entities with written reports. Start with
`query` for a direct answer with citations. To look around, find entities with
`search_entities`, then follow one with `entity_neighbourhood` (its relations, the passages that
mention it, its communities) and read a community's report with `community_report`.
`list_documents` shows which documents the graph was built from."""

QUERY = """Answer a question from the documents in the knowledge graph, with citations.
Choose the `method` that suits the question:
{methods}
The result has `answer`, `citations` (the rows the answer cites, with entity/chunk/document
ids), `notes` and `usage`."""
SEARCH = """Find entities (people, places, organisations, concepts, ...) by name or by a few
words describing them. Returns up to `limit` entities with `id`, `name`, `type`, a short
`description`, `degree` (how many relations it has) and `matched` ("name" or "description").
Pass an `id` to entity_neighbourhood to see what it is connected to."""
NEIGHBOURHOOD = """Everything the graph holds around one entity (id from search_entities): its
description, its strongest relations (predicate, the other entity's name and id, description,
weight), the text chunks that mention it (with document ids and titles) and the communities it
belongs to (ids for community_report), lowest level first."""
REPORT = """The written report of one community of related entities (id from
entity_neighbourhood): title, summary, full report, rank, its parent and child communities,
and its best-connected members with their entity ids."""
DOCUMENTS = """The documents the graph was built from: id, title, source, chunk count, and
whether indexing finished. Use it to learn what the collection covers before asking, or to name
the documents behind an answer (citations carry document ids). Page with `limit` and `skip`."""
_READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
T = TypeVar("T")


async def _told(call: Awaitable[T]) -> T:
    """The call's result; a user mistake becomes a ToolError, whose sentence the agent sees
    (the SDK hides the text of any other exception)."""
    try:
        return await call
    except GraphRAGError as exc:
        raise ToolError(str(exc)) from exc
    except HTTPException as exc:
        raise ToolError(exc.detail) from exc


def create_mcp_server(rag: GraphRAG) -> MCPServer[Any]:
    """An MCP server whose tools read and query `rag`'s graph (the caller closes `rag`)."""
    server: MCPServer[Any] = MCPServer(name="graphrag-neo4j", instructions=INSTRUCTIONS)
    _add_query_tool(server, rag)
    _add_lookup_tools(server, rag)
    return server


def _add_query_tool(server: MCPServer[Any], rag: GraphRAG) -> None:
    @server.tool(description=QUERY.format(methods=method_guide()), annotations=_READ_ONLY)
    async def query(
        question: Annotated[str, Field(description="The question, in plain language.")],
        method: Annotated[str, Field(description=f"One of {method_list()}.")]
        = DEFAULT_METHOD,
        options: Annotated[dict[str, Any] | None, Field(
            description='Optional: {"response_type": "Single Sentence"}, {"level": 1} for'
            ' global, or a search setting such as {"local.top_chunks": 5}.')] = None,
    ) -> dict[str, Any]:
        async def answer() -> dict[str, Any]:
            checked = checked_call(rag, question, method, options or {})
            answer = await rag.aquery(question, method, **checked)
            return dict(jsonable(answer_json(answer, with_context=False)))

        return await _told(answer())


def _add_lookup_tools(server: MCPServer[Any], rag: GraphRAG) -> None:
    @server.tool(description=SEARCH, annotations=_READ_ONLY)
    async def search_entities(
        text: Annotated[str, Field(description="A name (or part of one) or a few words.")],
        limit: Annotated[int, Field(ge=1, le=50, description="Most entities returned.")] = 10,
    ) -> dict[str, Any]:
        return {"entities": await _told(graph_lookup.search_entities(rag, text, limit))}

    @server.tool(description=NEIGHBOURHOOD, annotations=_READ_ONLY)
    async def entity_neighbourhood(
        entity_id: Annotated[str, Field(description="An entity id from search_entities.")],
        limit: Annotated[int, Field(ge=1, le=100, description="Most relations and chunks.")]
        = 25,
    ) -> dict[str, Any]:
        return await _told(graph_lookup.entity_neighbourhood(rag, entity_id, limit))

    @server.tool(description=REPORT, annotations=_READ_ONLY)
    async def community_report(
        community_id: Annotated[str, Field(description="A community id.")],
    ) -> dict[str, Any]:
        return await _told(graph_lookup.community_report(rag, community_id))

    @server.tool(description=DOCUMENTS, annotations=_READ_ONLY)
    async def list_documents(
        limit: Annotated[int, Field(ge=1, le=500, description="How many.")] = 50,
        skip: Annotated[int, Field(ge=0, description="How many to skip.")] = 0,
    ) -> dict[str, Any]:
        return {"documents": await _told(graph_lookup.list_documents(rag, limit, skip))}
