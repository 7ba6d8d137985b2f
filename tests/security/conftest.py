"""A real server process on a free loopback port over the nano graph in the test Neo4j."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import httpx
import pytest

from graphrag_neo4j.engine import GraphRAG
from tests.conftest import REPO_ROOT
from tests.integration.conftest import served_rag, session_store, settings  # noqa: F401

START_TIMEOUT_S = 60.0
KEY = "security-suite-key-0123456789"


class Served(NamedTuple):
    """A running server: its URL and the file its output goes to."""

    url: str
    log: Path


def free_port() -> int:
    """A port nothing listens on now (the server binds it a moment later)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve_process(cache_dir: Path, log: Path, **server: str) -> Iterator[str]:
    """`serve` in a child process with `server` settings (GRAPHRAG_SERVER__NAME=value); yields
    its URL once /health answers and stops it after."""
    port = free_port()
    env = dict(os.environ, **{f"GRAPHRAG_SERVER__{k.upper()}": v for k, v in server.items()})
    with log.open("w") as out:
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.security.serve_launcher", str(cache_dir), str(port)],
            cwd=REPO_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            with contextlib.suppress(httpx.TransportError):  # not listening yet
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            if child.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"The server did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)
        yield url
    finally:
        child.terminate()
        child.wait(30)


@pytest.fixture(scope="module")
def served(served_rag: GraphRAG, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:  # noqa: F811
    """A server as started by default (loopback, no key), slow bodies cut after 3 s."""
    root = tmp_path_factory.mktemp("serve")
    with serve_process(root / "cache", root / "serve.log", body_timeout_s="3") as url:
        yield Served(url, root / "serve.log")


@pytest.fixture(scope="module")
def keyed(served_rag: GraphRAG, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:  # noqa: F811
    """A server with an API key and 4 slots."""
    root = tmp_path_factory.mktemp("keyed")
    with serve_process(root / "cache", root / "serve.log", api_key=KEY,
                       max_concurrent="4", body_timeout_s="20") as url:
        yield Served(url, root / "serve.log")
