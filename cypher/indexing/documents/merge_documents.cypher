// Create or update documents; indexed_at stays unset until every stage has finished.
// extraction_method names the method that extracted its graph; llm_extracted and
// cooccurrence_relations are what that method declares (an LLM wrote the graph: communities
// get LLM reports by default; its relations are co-occurrences: hops weighs them as such); the
// description_* properties are its description style (deletion and unmerging re-describe what
// the document supported in it); language is the detected ISO 639 code of its prose (or unknown).
UNWIND $rows AS row
MERGE (d:__Document__ {id: row.id})
SET d.title = row.title, d.source = row.source, d.content_hash = row.content_hash,
    d.extraction_method = row.extraction_method, d.language = row.language,
    d.llm_extracted = row.llm_extracted, d.cooccurrence_relations = row.cooccurrence_relations,
    d.description_sentences = row.description_sentences,
    d.description_vector_words = row.description_vector_words,
    d.description_llm_summaries = row.description_llm_summaries
