"""`graphrag-neo4j serve` (HTTP API, OpenAI-compatible) and `graphrag-neo4j mcp` (MCP on stdio)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from graphrag_neo4j.cli.options.workspace_option import WorkspaceOption, use_workspace

console = Console(stderr=True)


def serve_command(
    host: Annotated[
        str | None, typer.Option(help="Address to listen on (default server.host, 127.0.0.1).")
    ] = None,
    port: Annotated[int | None, typer.Option(help="Port (default server.port, 8000).")] = None,
    workspace: WorkspaceOption = None,
) -> None:
    """Serve the HTTP API: /v1/query, OpenAI-compatible /v1/chat/completions, documents, /docs."""
    use_workspace(workspace)
    from graphrag_neo4j.api.app import create_app
    from graphrag_neo4j.api.runner import bound_socket, server_for
    from graphrag_neo4j.engine import GraphRAG
    from graphrag_neo4j.settings import load_settings

    settings = load_settings()
    bind_host, bind_port = host or settings.server.host, port or settings.server.port
    # The app checks Host headers against the address it is served on.
    limits = settings.server.model_copy(update={"host": bind_host})
    # Bound first: a taken port is refused before anything says it is served.
    with bound_socket(bind_host, bind_port, limits) as sock, \
            GraphRAG(settings, console=console) as rag:
        server = server_for(create_app(rag, limits), limits, bind_host, bind_port)
        key = "with an API key" if limits.api_key else "without an API key (loopback only)"
        console.print(f"Serving on http://{bind_host}:{bind_port} {key};"
                      f" API docs at http://{bind_host}:{bind_port}/docs")
        server.run(sockets=[sock])


def mcp_command(
    workspace: WorkspaceOption = None,
) -> None:
    """Serve the graph to an MCP client (Claude Desktop, IDEs, agents) over stdio."""
    use_workspace(workspace)
    from graphrag_neo4j.api.mcp.server import create_mcp_server
    from graphrag_neo4j.engine import GraphRAG

    # stdout carries the protocol: everything the engine prints goes to stderr.
    with GraphRAG(console=console) as rag:
        create_mcp_server(rag).run("stdio")
