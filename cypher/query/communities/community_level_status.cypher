// How one level's reports stand, without reading them (global search on a lazy level reads
// only the communities nearest the question): its communities (an index count), whether one
// of them may still get its LLM report lazily (an extractive summary, report mode not 'none':
// the search stops at the first), and the communities of every level (Neo4j's count store).
// Nothing here reads every community of the level when the level is lazy: that grew with the
// corpus.
MATCH (c:__Community__ {level: $level})
WITH count(c) AS communities
CALL () {
  MATCH (every:__Community__)
  RETURN count(every) AS total
}
RETURN communities, total,
       EXISTS {
         MATCH (w:__Community__ {level: $level})
         WHERE w.report_status = $extractive AND coalesce(w.report_mode, 'all') <> 'none'
       } AS waiting
