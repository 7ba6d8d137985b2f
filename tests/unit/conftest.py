"""Unit tests run with the network switched off: they must need no server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytest_socket import disable_socket, enable_socket


@pytest.fixture(autouse=True)
def _no_network() -> Iterator[None]:
    # Unix sockets stay allowed because asyncio's event loop uses a socketpair internally.
    disable_socket(allow_unix_socket=True)
    yield
    enable_socket()


@pytest.fixture(autouse=True)
def _no_graphrag_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # Unit tests check defaults and parsing; the test command's GRAPHRAG_* exports must not leak.
    import os

    for name in list(os.environ):
        if name.startswith("GRAPHRAG_") or name == "OPENAI_API_KEY":
            monkeypatch.delenv(name)
