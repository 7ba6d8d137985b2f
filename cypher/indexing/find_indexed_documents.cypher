// Which of the given documents are already fully indexed, with their content hash.
UNWIND $ids AS id
MATCH (d:__Document__ {id: id})
RETURN d.id AS id, d.content_hash AS content_hash, d.indexed_at IS NOT NULL AS complete
