// Whether any named workspace has nodes in the database (its labels end with `$suffix_mark`):
// the default workspace's model-written queries are held to its labels only then.
CALL db.labels() YIELD label
WITH label WHERE label CONTAINS $suffix_mark
RETURN count(label) > 0 AS shared
