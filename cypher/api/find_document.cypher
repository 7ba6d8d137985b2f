// The document with this id, if the graph holds it.
MATCH (d:__Document__ {id: $id})
RETURN d.id AS id, d.title AS title, d.source AS source
