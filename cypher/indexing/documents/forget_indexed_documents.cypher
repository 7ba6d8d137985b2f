// Clear every document's finished mark, so the next run re-checks all of them (repair tool).
MATCH (d:__Document__)
REMOVE d.indexed_at
