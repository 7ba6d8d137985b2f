// Optional, for graphrag.grass only: Browser styles by label. Entities carry their type's label
// already (:Person, set by the engine); this adds a display label for the degree band
// (:Degree_hub for 10+ relations, :Degree_mid for 3+). The engine ignores these labels;
// explore/remove_style_labels drops them.
MATCH (e:__Entity__)
WITH e, CASE WHEN coalesce(e.degree, 0) >= 10 THEN 'Degree_hub'
             WHEN coalesce(e.degree, 0) >= 3 THEN 'Degree_mid'
             ELSE 'Degree_low' END AS degree_label
SET e:$(degree_label)
