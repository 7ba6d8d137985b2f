// Create or update imported entities (Microsoft GraphRAG ids) with their name, key and type;
// placeholder is true for a relationship end the entities table lacks (null otherwise);
// description, counts and vectors follow through set_entity_descriptions.
UNWIND $rows AS row
MERGE (e:__Entity__ {id: row.id})
SET e.name = row.name, e.name_key = row.name_key, e.type = row.type,
    e.placeholder = row.placeholder
