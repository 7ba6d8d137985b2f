// Every vector index of the workspace with its embedding dimension, to check against the
// configured embedder; each by the name the Cypher files give it ($workspace_suffix: what the
// workspace's names end with, '' in the default workspace, whose names have no '__ws_').
SHOW VECTOR INDEXES YIELD name, options
WHERE CASE $workspace_suffix WHEN '' THEN NOT name CONTAINS '__ws_'
      ELSE name ENDS WITH $workspace_suffix END
RETURN left(name, size(name) - size($workspace_suffix)) AS name,
       options.indexConfig['vector.dimensions'] AS dimensions
ORDER BY name
