"""Runs the MCP server on stdio over the nano graph with fake models (for the MCP tests).

    python -m tests.mcp_launcher CACHE_DIR      (Neo4j settings from GRAPHRAG_* variables)
"""

from __future__ import annotations

import sys
from pathlib import Path

from graphrag_neo4j.api.mcp.server import create_mcp_server
from graphrag_neo4j.settings import load_settings
from tests.api_fakes import nano_engine
from tests.conftest import FIXTURES


def main() -> None:
    """Serve until the client closes stdin."""
    with nano_engine(load_settings(), FIXTURES, Path(sys.argv[1])) as rag:
        create_mcp_server(rag).run("stdio")


if __name__ == "__main__":
    main()
