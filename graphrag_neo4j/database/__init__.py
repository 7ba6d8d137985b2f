"""Neo4j: the one door to it (the store), its workspaces, fulltext queries, the local server."""
