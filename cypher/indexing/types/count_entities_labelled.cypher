// How many entities carry the label $label (a type label such as Person).
MATCH (e:__Entity__:$($label))
RETURN count(e) AS entities
