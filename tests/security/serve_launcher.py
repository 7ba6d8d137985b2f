"""Serves the HTTP API over the nano graph with fake models, as `serve` does, in its own process.

    python -m tests.security.serve_launcher CACHE_DIR PORT   (settings from GRAPHRAG_* variables)
"""

from __future__ import annotations

import sys
from pathlib import Path

from graphrag_neo4j.api.app import create_app
from graphrag_neo4j.api.runner import server_for
from graphrag_neo4j.settings import load_settings
from tests.api_fakes import nano_engine
from tests.conftest import FIXTURES

HOST = "127.0.0.1"


def main() -> None:
    """Serve on 127.0.0.1:PORT until terminated (the same runner and app `serve` builds)."""
    settings = load_settings()
    limits = settings.server.model_copy(update={"host": HOST})
    with nano_engine(settings, FIXTURES, Path(sys.argv[1])) as rag:
        server_for(create_app(rag, limits), limits, HOST, int(sys.argv[2])).run()


if __name__ == "__main__":
    main()
