// Every index of the database with its id (its folder under schema/index/), for sizes on disk.
SHOW INDEXES YIELD id, name
RETURN id, name
ORDER BY name
