// Which of the given relation ids still exist.
UNWIND $ids AS id
MATCH ()-[r:RELATED {id: id}]->()
RETURN r.id AS id
