"""Runs the app with uvicorn: the bind is checked first, and logs carry no request headers."""

from __future__ import annotations

import uvicorn
from fastapi import FastAPI

from graphrag_neo4j.api.security import check_bind
from graphrag_neo4j.settings import ServerSettings


def server_for(app: FastAPI, server: ServerSettings, host: str, port: int) -> uvicorn.Server:
    """A uvicorn server for `app` on host:port, refused off loopback without an API key."""
    check_bind(host, server.api_key)
    # uvicorn's access log writes the request line only (method, path, status), never headers.
    config = uvicorn.Config(app, host=host, port=port, log_level="info", server_header=False,
                            timeout_graceful_shutdown=10)
    return uvicorn.Server(config)
