"""Which Ray runs stay on loopback: a local Ray, or a cluster joined at a loopback address."""

from __future__ import annotations

import pytest

from graphrag_neo4j.indexing.cluster.runtime import _on_loopback


@pytest.mark.parametrize(("address", "node", "expected"), [
    (None, "127.0.0.1", True),
    ("127.0.0.1:29900", "127.0.0.1", True),
    ("ray://localhost:10001", "127.0.0.1", True),
    ("10.0.0.5:6379", "127.0.0.1", False),  # other machines must reach this driver
    (None, "10.0.0.7", False),
])
def test_loopback_only_when_driver_and_cluster_are(address: str | None, node: str,
                                                   expected: bool) -> None:
    assert _on_loopback(address, node) is expected
