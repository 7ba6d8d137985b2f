// Delete a document and its chunks with their provenance links.
MATCH (d:__Document__ {id: $id})
OPTIONAL MATCH (c:__Chunk__)-[:PART_OF]->(d)
DETACH DELETE c, d
