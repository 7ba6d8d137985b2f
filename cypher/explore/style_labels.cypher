// Optional, for graphrag.grass only: Browser styles by label, so give every entity a display
// label for its type (e.g. :Type_person) and for its degree band (:Degree_hub for 10+ relations,
// :Degree_mid for 3+). The engine ignores these labels; explore/remove_style_labels drops them.
MATCH (e:__Entity__)
WITH e, 'Type_' + replace(coalesce(e.type, 'unknown'), ' ', '_') AS type_label,
     CASE WHEN coalesce(e.degree, 0) >= 10 THEN 'Degree_hub'
          WHEN coalesce(e.degree, 0) >= 3 THEN 'Degree_mid'
          ELSE 'Degree_low' END AS degree_label
SET e:$(type_label):$(degree_label)
