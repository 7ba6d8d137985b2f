// The constraints and indexes of the graph model; every statement is idempotent.
// $dimensions is the embedding size of the configured embedder.
CREATE CONSTRAINT document_id IF NOT EXISTS FOR (d:__Document__) REQUIRE d.id IS UNIQUE;
CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (c:__Chunk__) REQUIRE c.id IS UNIQUE;
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (e:__Entity__) REQUIRE e.id IS UNIQUE;
CREATE CONSTRAINT community_id IF NOT EXISTS FOR (c:__Community__) REQUIRE c.id IS UNIQUE;
CREATE CONSTRAINT covariate_id IF NOT EXISTS FOR (v:__Covariate__) REQUIRE v.id IS UNIQUE;
CREATE CONSTRAINT related_id IF NOT EXISTS FOR ()-[r:RELATED]-() REQUIRE r.id IS UNIQUE;
CREATE INDEX entity_name IF NOT EXISTS FOR (e:__Entity__) ON (e.name);
CREATE INDEX entity_name_key IF NOT EXISTS FOR (e:__Entity__) ON (e.name_key);
// Hops finds the page about a bridge entity by its title (query/hops/pages_titled).
CREATE INDEX chunk_title IF NOT EXISTS FOR (c:__Chunk__) ON (c.title);
CREATE INDEX merge_from_key IF NOT EXISTS FOR (m:__Merge__) ON (m.from_key);
CREATE CONSTRAINT lock_name IF NOT EXISTS FOR (l:__Lock__) REQUIRE l.name IS UNIQUE;
CREATE CONSTRAINT merge_id IF NOT EXISTS FOR (m:__Merge__) REQUIRE m.id IS UNIQUE;
CREATE INDEX community_level IF NOT EXISTS FOR (c:__Community__) ON (c.level);
CREATE FULLTEXT INDEX entity_name_fulltext IF NOT EXISTS FOR (e:__Entity__) ON EACH [e.name]
OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (c:__Chunk__) ON (c.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX entity_description_embedding IF NOT EXISTS
FOR (e:__Entity__) ON (e.description_embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX related_embedding IF NOT EXISTS FOR ()-[r:RELATED]-() ON (r.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX community_embedding IF NOT EXISTS FOR (c:__Community__) ON (c.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
// Chunks carry their document's title: a passage rarely repeats the name its title gives it.
CREATE FULLTEXT INDEX chunk_fulltext IF NOT EXISTS FOR (c:__Chunk__) ON EACH [c.title, c.text]
OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX entity_text_fulltext IF NOT EXISTS FOR (e:__Entity__)
ON EACH [e.name, e.description]
OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
// The chunk index of graphs written before chunks had titles, over their text alone.
DROP INDEX chunk_text_fulltext IF EXISTS;
