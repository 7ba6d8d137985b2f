// Remove the display labels explore/style_labels added (Degree_*, and the Type_* labels older
// versions added) from every entity; the type labels the engine sets stay.
MATCH (e:__Entity__)
WITH e, [label IN labels(e) WHERE label STARTS WITH 'Type_' OR label STARTS WITH 'Degree_']
  AS extra
WHERE size(extra) > 0
REMOVE e:$(extra)
