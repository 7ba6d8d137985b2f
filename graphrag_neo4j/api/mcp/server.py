"""The MCP server (stdio): query the graph and explore its entities, relations and reports."""

# No `from __future__ import annotations`: the SDK reads the tools' annotations at run time,
# and they use names local to create_mcp_server.
import logging
from collections.abc import Awaitable
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from starlette.exceptions import HTTPException

from graphrag_neo4j.api.answers import answer_json, checked_call, checked_question, jsonable
from graphrag_neo4j.api.errors import internal_sentence
from graphrag_neo4j.api.mcp import graph_lookup
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.registry import DEFAULT_METHOD, method_guide, method_list
from graphrag_neo4j.runtime.errors import GraphRAGError, InputError, check_text
from graphrag_neo4j.settings import ServerSettings

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
ids, and for a passage its file and page or section in `where`), `notes` (with `note_kinds`:
what each is about, `info`, `evidence` or a warning) and `usage`."""
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
log = logging.getLogger("graphrag_neo4j.api")


async def _told(call: Awaitable[T]) -> T:
    """The call's result; every failure becomes a ToolError, whose sentence the agent sees (the
    SDK would answer any other exception with a bare "Error executing tool X"): a mistake
    names itself, a crash its kind (its traceback goes to the log)."""
    try:
        return await call
    except GraphRAGError as exc:
        raise ToolError(str(exc)) from exc
    except HTTPException as exc:
        raise ToolError(exc.detail) from exc
    except Exception as exc:
        log.error("MCP tool failed", exc_info=exc)
        raise ToolError(internal_sentence(exc)) from exc


def _bounded(value: str, what: str, most: int, setting: str) -> str:
    """`value`, refused when longer than the server's limit (the same limits as HTTP) or when
    it is not UTF-8 text."""
    check_text(value, what)
    if len(value) > most:
        raise InputError(f"The {what} has {len(value):,} characters, more than the {most:,}"
                         f" allowed (server.{setting}); shorten it.")
    return value


def create_mcp_server(rag: GraphRAG) -> MCPServer[Any]:
    """An MCP server whose tools read and query `rag`'s graph (the caller closes `rag`)."""
    server: MCPServer[Any] = MCPServer(name="graphrag-neo4j", instructions=INSTRUCTIONS)
    _add_query_tool(server, rag, rag.settings.server)
    _add_lookup_tools(server, rag, rag.settings.server)
    return server


def _add_query_tool(server: MCPServer[Any], rag: GraphRAG, limits: ServerSettings) -> None:
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
            checked_question(question, limits)
            checked = checked_call(rag, question, method, options or {}, limits)
            answer = await rag.aquery(question, method, **checked)
            return dict(jsonable(answer_json(answer, with_context=False)))

        return await _told(answer())


def _add_lookup_tools(server: MCPServer[Any], rag: GraphRAG, limits: ServerSettings) -> None:
    def text_of(value: str) -> str:
        return _bounded(value, "search text", limits.max_question_chars, "max_question_chars")

    def id_of(value: str) -> str:
        return _bounded(value, "id", limits.max_option_chars, "max_option_chars")

    @server.tool(description=SEARCH, annotations=_READ_ONLY)
    async def search_entities(
        text: Annotated[str, Field(description="A name (or part of one) or a few words.")],
        limit: Annotated[int, Field(ge=1, le=50, description="Most entities returned.")] = 10,
    ) -> dict[str, Any]:
        async def found() -> list[dict[str, Any]]:
            return await graph_lookup.search_entities(rag, text_of(text), limit)

        return {"entities": await _told(found())}

    @server.tool(description=NEIGHBOURHOOD, annotations=_READ_ONLY)
    async def entity_neighbourhood(
        entity_id: Annotated[str, Field(description="An entity id from search_entities.")],
        limit: Annotated[int, Field(ge=1, le=100, description="Most relations and chunks.")]
        = 25,
    ) -> dict[str, Any]:
        async def around() -> dict[str, Any]:
            return await graph_lookup.entity_neighbourhood(rag, id_of(entity_id), limit)

        return await _told(around())

    @server.tool(description=REPORT, annotations=_READ_ONLY)
    async def community_report(
        community_id: Annotated[str, Field(description="A community id.")],
    ) -> dict[str, Any]:
        async def report() -> dict[str, Any]:
            return await graph_lookup.community_report(rag, id_of(community_id))

        return await _told(report())

    @server.tool(description=DOCUMENTS, annotations=_READ_ONLY)
    async def list_documents(
        limit: Annotated[int, Field(ge=1, le=500, description="How many.")] = 50,
        skip: Annotated[int, Field(ge=0, description="How many to skip.")] = 0,
    ) -> dict[str, Any]:
        return {"documents": await _told(graph_lookup.list_documents(rag, limit, skip))}
