"""graphrag-neo4j: turn documents into a knowledge graph in Neo4j and ask questions over it."""

__version__ = "0.1.0"
