"""Runs the app with uvicorn: the bind is checked first; logs hold no headers or query strings."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from fastapi import FastAPI

from graphrag_neo4j.api.guards.connection_deadline import head_deadline_protocol
from graphrag_neo4j.api.guards.security import check_bind
from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.settings import ServerSettings

START_TIMEOUT_S = 30.0
ACCESS_LOGGER = "uvicorn.access"


class PathOnlyAccessLog(logging.Filter):
    """Drops the query string from access log lines: a key or text sent in the URL stays out of
    the log (the server reads keys from the header only)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5:  # uvicorn's (client, method, path, ...)
            client, method, path, version, status = args
            record.args = (client, method, str(path).split("?", 1)[0], version, status)
        return True


def _private_access_log() -> None:
    """Install PathOnlyAccessLog once (uvicorn configures its loggers when a Config is made)."""
    access = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(f, PathOnlyAccessLog) for f in access.filters):
        access.addFilter(PathOnlyAccessLog())


def server_for(app: FastAPI, server: ServerSettings, host: str, port: int) -> uvicorn.Server:
    """A uvicorn server for `app` on host:port, refused off loopback without an API key."""
    check_bind(host, server.api_key)
    # uvicorn's access log writes the request line only (method, path, status), never headers.
    # A request head gets as long to arrive as a body does (server.body_timeout_s).
    config = uvicorn.Config(app, host=host, port=port, log_level="info", server_header=False,
                            timeout_graceful_shutdown=10, access_log=server.access_log,
                            http=head_deadline_protocol(server.body_timeout_s))
    _private_access_log()
    return uvicorn.Server(config)


def bound_socket(host: str, port: int, server: ServerSettings) -> socket.socket:
    """A socket bound to host:port for uvicorn to listen on (refused off loopback without an
    API key), so a taken port is one sentence before anything says it is serving."""
    check_bind(host, server.api_key)
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        raise ConfigError(
            f"Cannot serve on {host}:{port} ({exc.strerror or exc}): stop what listens there,"
            " or choose another --port (setting server.port)."
        ) from exc
    return sock


@contextmanager
def serving_in_thread(app: FastAPI, log_level: str = "warning") -> Iterator[str]:
    """Serve `app` on a free loopback port in a background thread (notebooks, tests,
    benchmarks); yields the base URL and stops the server when the block ends."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))  # bound before uvicorn starts, so no other process takes it
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level=log_level, server_header=False))
    _private_access_log()
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("The API server did not start; its log above says why.")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(START_TIMEOUT_S)
        sock.close()
