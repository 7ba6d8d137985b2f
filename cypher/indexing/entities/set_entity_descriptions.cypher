// Store each entity's merged description, counts and description embedding.
UNWIND $rows AS row
MATCH (e:__Entity__ {id: row.id})
SET e.description = row.description, e.frequency = row.frequency, e.degree = row.degree
WITH e, row
WHERE row.embedding IS NOT NULL
CALL db.create.setNodeVectorProperty(e, 'description_embedding', row.embedding)
