"""`graphrag-neo4j eval retrieval|answers`: the options and tables of the evaluation commands."""
