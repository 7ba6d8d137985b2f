// Drop the constraints and indexes of a named workspace (after delete_graph), each only if
// it exists: a second run changes nothing.
DROP CONSTRAINT document_id IF EXISTS;
DROP CONSTRAINT chunk_id IF EXISTS;
DROP CONSTRAINT entity_id IF EXISTS;
DROP CONSTRAINT community_id IF EXISTS;
DROP CONSTRAINT covariate_id IF EXISTS;
DROP CONSTRAINT related_id IF EXISTS;
DROP CONSTRAINT lock_name IF EXISTS;
DROP CONSTRAINT merge_id IF EXISTS;
DROP INDEX entity_name IF EXISTS;
DROP INDEX entity_name_key IF EXISTS;
DROP INDEX chunk_title IF EXISTS;
DROP INDEX merge_from_key IF EXISTS;
DROP INDEX community_level IF EXISTS;
DROP INDEX entity_name_fulltext IF EXISTS;
DROP INDEX chunk_embedding IF EXISTS;
DROP INDEX entity_description_embedding IF EXISTS;
DROP INDEX related_embedding IF EXISTS;
DROP INDEX community_embedding IF EXISTS;
DROP INDEX chunk_fulltext IF EXISTS;
DROP INDEX entity_text_fulltext IF EXISTS;
DROP INDEX chunk_text_fulltext IF EXISTS;
