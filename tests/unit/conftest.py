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
