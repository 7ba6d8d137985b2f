// Every vector index with its embedding dimension, to check against the configured embedder.
SHOW VECTOR INDEXES YIELD name, options
RETURN name, options.indexConfig['vector.dimensions'] AS dimensions
ORDER BY name
