"""Slow tests that need Neo4j use the same real-server fixtures as the integration tests."""

from tests.integration.conftest import session_store, settings, store

__all__ = ["session_store", "settings", "store"]
