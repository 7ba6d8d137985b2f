// Entities whose type labels disagree with their type under the whitelist $labels_by_type
// (every label of $type_labels they carry but should not, or the one they lack).
MATCH (e:__Entity__)
WITH e, $labels_by_type[e.type] AS wanted,
     [label IN labels(e) WHERE label IN $type_labels] AS held
WHERE held <> CASE WHEN wanted IS NULL THEN [] ELSE [wanted] END
RETURN e.id AS id, e.name AS name, e.type AS type, held, wanted
