// Every index with its type, state and options, for status output and tests.
SHOW INDEXES YIELD name, type, state, entityType, labelsOrTypes, properties, options
RETURN name, type, state, entityType, labelsOrTypes, properties, options
ORDER BY name
