"""The `graphrag-neo4j` command line: one module per command group."""
