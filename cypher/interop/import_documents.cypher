// Create or update imported documents; they count as fully indexed from their first import on.
UNWIND $rows AS row
MERGE (d:__Document__ {id: row.id})
SET d.title = row.title, d.source = row.source, d.content_hash = row.content_hash,
    d.indexed_at = coalesce(d.indexed_at, datetime())
