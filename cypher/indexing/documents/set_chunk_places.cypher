// Give chunks written before chunks kept them their span, pages and heading path.
UNWIND $rows AS row
MATCH (c:__Chunk__ {id: row.id})
SET c.char_start = row.char_start, c.char_end = row.char_end, c.page_start = row.page_start,
    c.page_end = row.page_end, c.section = row.section
