"""Text2Cypher: the `cypher` query method, its live schema, its guard and its query writing."""
