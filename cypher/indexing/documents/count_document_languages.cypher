// How many indexed documents are in each detected language (for the embedder check).
MATCH (d:__Document__)
WHERE d.language IS NOT NULL
RETURN d.language AS language, count(*) AS documents
