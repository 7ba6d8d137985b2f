// An entity's neighbourhood: the entity named $entity_name (case-insensitive), its RELATED
// neighbours and the chunks that mention it. Set the name first: `:param entity_name => 'Euler'`.
MATCH (e:__Entity__)
WHERE toLower(e.name) = toLower($entity_name)
OPTIONAL MATCH related = (e)-[:RELATED]-(:__Entity__)
OPTIONAL MATCH source = (:__Chunk__)-[:HAS_ENTITY]->(e)
RETURN e, labels(e) AS labels, collect(DISTINCT related) AS relations,
       collect(DISTINCT source) AS chunks
