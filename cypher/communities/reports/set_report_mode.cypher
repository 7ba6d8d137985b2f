// Record how the last build wanted reports written (all, lazy or none) on every community:
// global search writes lazy reports only where the mode is not 'none'. Communities of fewer
// than $min_size members get 'none': their extractive summary is their report.
MATCH (c:__Community__)
SET c.report_mode = CASE WHEN coalesce(c.size, 0) < $min_size THEN 'none' ELSE $mode END
