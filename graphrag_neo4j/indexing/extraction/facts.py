"""Relations from a name to a value (a year, a number, a phrase) kept as facts on the named entity.

"Riemann integral -presented in-> 1854" names one entity and one value. The value is refused as
an entity name, yet the statement is worth keeping: it becomes a sentence in the description of
the end that names something, where its vector, local search and the Browser find it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace

from graphrag_neo4j.indexing.extraction.names import PLACEHOLDER
from graphrag_neo4j.indexing.records import EntityMention, RelationMention

# Refusal reasons whose name holds no value worth a fact: "born in unknown" says nothing.
NO_VALUE_REASONS = frozenset({PLACEHOLDER})


@dataclass
class Facts:
    """The sentences to add to each kept name, and the relations that became them."""

    by_name: dict[str, list[str]] = field(default_factory=dict)
    relations: list[RelationMention] = field(default_factory=list)


def fact_sentence(relation: RelationMention) -> str:
    """The relation as the sentence a description holds: its own description, if it has one."""
    if relation.description.strip():
        return relation.description.strip()
    return f"{relation.subject} {relation.predicate} {relation.object}."


def value_facts(
    relations: Sequence[RelationMention],
    values: Collection[str],
    named: Collection[str],
) -> Facts:
    """The relations with exactly one end in `values` and the other in `named` (names with a
    mention in the chunk), as facts on the named end."""
    facts = Facts()
    for relation in relations:
        ends = (relation.subject, relation.object)
        kept = [end for end in ends if end not in values]
        if len(kept) == 1 and kept[0] in named:
            facts.by_name.setdefault(kept[0], []).append(fact_sentence(relation))
            facts.relations.append(relation)
    return facts


def with_facts(mentions: Sequence[EntityMention], facts: Facts) -> list[EntityMention]:
    """The mentions, the first of each name carrying its facts after its own description."""
    result, done = [], set()
    for mention in mentions:
        sentences = facts.by_name.get(mention.name)
        if sentences and mention.name not in done:
            done.add(mention.name)
            text = " ".join([mention.description.strip(), *dict.fromkeys(sentences)]).strip()
            mention = replace(mention, description=text)
        result.append(mention)
    return result
