// Give reused community reports that lost their vector (new embedder) a fresh embedding.
UNWIND $rows AS row
MATCH (c:__Community__ {id: row.id})
CALL db.create.setNodeVectorProperty(c, 'embedding', row.embedding)
