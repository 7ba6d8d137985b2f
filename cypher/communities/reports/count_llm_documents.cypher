// How many documents there are and how many an LLM extracted (as their method declared);
// documents that record nothing of it (imported ones, and any the capability record has not
// reached yet) count as LLM-extracted: the safe side.
MATCH (d:__Document__)
RETURN count(d) AS documents,
       count(CASE WHEN coalesce(d.llm_extracted, true) THEN 1 END) AS llm_documents
