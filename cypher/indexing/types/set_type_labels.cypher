// Each entity carries the label of its type (:__Entity__:Person) and no other type label.
// $labels_by_type is the whitelist built from the settings (empty when type labels are off);
// $type_labels every label it may hold. Labels are dynamic values, never text built into
// this statement, and only ones on the whitelist or recorded in e.type_label are touched.
UNWIND $rows AS row
MATCH (e:__Entity__ {id: row.id})
WITH e, $labels_by_type[e.type] AS wanted
WITH e, wanted,
     [label IN labels(e)
      WHERE (label IN $type_labels OR label = e.type_label) AND label <> coalesce(wanted, '')]
     AS stale
REMOVE e:$(stale)
SET e:$(CASE WHEN wanted IS NULL THEN [] ELSE [wanted] END), e.type_label = wanted
