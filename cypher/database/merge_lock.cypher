// The node of a named lock (see hold_lock); the constraint lock_name keeps it unique.
MERGE (:__Lock__ {name: $lock})
