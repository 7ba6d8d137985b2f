// Forget which embedder made the vectors (they were removed: the next embedder is recorded).
MATCH (v:__Vectors__ {id: 'graph'})
DELETE v
