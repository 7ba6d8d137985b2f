// Every index with its type and state, for status output and tests.
SHOW INDEXES YIELD name, type, state, entityType, labelsOrTypes, properties
RETURN name, type, state, entityType, labelsOrTypes, properties
ORDER BY name
