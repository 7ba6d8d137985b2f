// Create or update community nodes with their level and member count (reports are kept).
UNWIND $rows AS row
MERGE (c:__Community__ {id: row.id})
SET c.level = row.level, c.size = row.size
