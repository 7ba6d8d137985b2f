// Record how the last build wanted reports written (all, lazy or none) on every community:
// global search writes lazy reports only where the mode is not 'none'.
MATCH (c:__Community__)
SET c.report_mode = $mode
