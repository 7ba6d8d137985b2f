// Remove the display labels explore/style_labels added (Type_* and Degree_*) from every entity.
MATCH (e:__Entity__)
WITH e, [label IN labels(e) WHERE label STARTS WITH 'Type_' OR label STARTS WITH 'Degree_']
  AS extra
WHERE size(extra) > 0
REMOVE e:$(extra)
