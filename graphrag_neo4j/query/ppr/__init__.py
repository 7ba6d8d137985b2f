"""Personalized PageRank: the question's entities and passages spread over the entity-passage
graph (HippoRAG 2's walk), on the seeds' neighbourhood only."""
