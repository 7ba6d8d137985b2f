// Create or update imported communities with level, size, number and a title (a report, when
// there is one, replaces the title through set_community_reports).
UNWIND $rows AS row
MERGE (c:__Community__ {id: row.id})
SET c.level = row.level, c.size = row.size, c.community = row.number,
    c.title = coalesce(c.title, row.title)
