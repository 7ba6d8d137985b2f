// Delete a document node once its chunks are gone.
MATCH (d:__Document__ {id: $id})
DETACH DELETE d
