"""Commands over the Neo4j database itself: the local server, workspaces, wiping the graph."""
