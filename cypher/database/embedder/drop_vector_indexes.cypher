// Drop the vector indexes, for a change of embedder (followed by remove_embeddings).
DROP INDEX chunk_embedding IF EXISTS;
DROP INDEX entity_description_embedding IF EXISTS;
DROP INDEX related_embedding IF EXISTS;
DROP INDEX community_embedding IF EXISTS;
