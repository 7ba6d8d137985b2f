// Store each relation's merged description, weight and text embedding.
UNWIND $rows AS row
MATCH ()-[r:RELATED {id: row.id}]->()
SET r.description = row.description, r.weight = row.weight
WITH r, row
WHERE row.embedding IS NOT NULL
CALL db.create.setRelationshipVectorProperty(r, 'embedding', row.embedding)
