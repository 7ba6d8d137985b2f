// Mark documents as finished: a later run skips them.
UNWIND $ids AS id
MATCH (d:__Document__ {id: id})
SET d.indexed_at = datetime()
