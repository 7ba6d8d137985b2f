// The documents each reference of a question set names as a gold passage: the document with
// that id, or else those whose source is the reference, ends with it as a file name or path
// ("git-gc.html", "pages/git-gc.html"), or names it as a record ("corpus.jsonl#p-17").
UNWIND $refs AS ref
OPTIONAL MATCH (named:__Document__ {id: ref})
WITH ref, named.id AS by_id
OPTIONAL MATCH (d:__Document__)
  WHERE by_id IS NULL
    AND (d.source = ref OR d.source ENDS WITH '/' + ref OR d.source ENDS WITH '#' + ref)
RETURN ref, by_id, collect(DISTINCT d.id) AS by_source
