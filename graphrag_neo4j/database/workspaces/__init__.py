"""Workspaces: several graphs in one Neo4j database, each under its own labels and indexes."""
