// Create or update documents; indexed_at stays unset until every stage has finished.
// extraction_method says how its graph was extracted: llm, triplets or fast; language is the
// detected ISO 639 code of its prose (or unknown).
UNWIND $rows AS row
MERGE (d:__Document__ {id: row.id})
SET d.title = row.title, d.source = row.source, d.content_hash = row.content_hash,
    d.extraction_method = row.extraction_method, d.language = row.language
