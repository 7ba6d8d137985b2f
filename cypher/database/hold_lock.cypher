// Takes the write lock of a named lock node inside a transaction the caller keeps open: other
// writers block here until that transaction ends (a dead holder's ends with its connection).
MATCH (lock:__Lock__ {name: $lock})
SET lock.holder = $holder, lock.since = datetime()
RETURN lock.name AS name
