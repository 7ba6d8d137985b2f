// Documents written before extraction methods' capabilities were recorded on them get those
// of the method they name ($methods: each registered method's, by name); a name no longer
// registered gets $unknown's, and a document that names none (older than extraction_method,
// or imported: LLM-extracted either way) $unnamed's. Only documents that record none are
// touched, so running it again costs one scan.
MATCH (d:__Document__)
WHERE d.llm_extracted IS NULL
WITH d, CASE WHEN d.extraction_method IS NULL THEN $unnamed
             ELSE coalesce($methods[d.extraction_method], $unknown) END AS method
SET d.llm_extracted = method.llm_extracted,
    d.cooccurrence_relations = method.cooccurrence_relations
RETURN count(d) AS documents
