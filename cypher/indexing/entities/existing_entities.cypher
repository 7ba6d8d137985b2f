// Which of the given entity ids still exist.
UNWIND $ids AS id
MATCH (e:__Entity__ {id: id})
RETURN e.id AS id
