// Every entity id, as rows for statements that take `$rows` of ids.
MATCH (e:__Entity__)
RETURN e.id AS id
