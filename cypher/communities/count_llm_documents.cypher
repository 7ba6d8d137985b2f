// How many documents there are and how many were indexed with LLM extraction; documents
// written before extraction_method existed count as LLM-extracted (the safe side).
MATCH (d:__Document__)
RETURN count(d) AS documents,
       count(CASE WHEN coalesce(d.extraction_method, 'llm') = 'llm' THEN 1 END) AS llm_documents
