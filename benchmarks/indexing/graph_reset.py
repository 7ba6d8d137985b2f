"""The indexing benchmarks' guard: they wipe the graph, so a graph holding data needs --reset."""

from __future__ import annotations

from graphrag_neo4j.database.store import Store


def empty_graph(store: Store, reset: bool) -> None:
    """Wipe the graph; refuse (naming --reset) when it holds data and `reset` was not asked."""
    counts = store.read("database/count_graph")[0]
    if any(counts.values()) and not reset:
        raise SystemExit(
            f"The graph at {store.settings.uri} is not empty ({counts}); the benchmark wipes it,"
            " so pass --reset (and point GRAPHRAG_NEO4J__* at a server of its own)."
        )
    store.run_autocommit("database/delete_all")
