"""Names the graph lacks replaced by its own: the repair, with no LLM call, of a query that
invented a label (:Film) or a relationship type (:DIRECTED_BY) the schema never showed."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from graphrag_neo4j.query.cypher.attempt import Attempt
from graphrag_neo4j.query.cypher.names import UnknownName, describe
from graphrag_neo4j.query.cypher.rewrites.literals import fresh_variable, masked, rewrite_matches
from graphrag_neo4j.query.cypher.rewrites.rewrite import Situation, When
from graphrag_neo4j.query.cypher.rewrites.stems import stem
from graphrag_neo4j.query.cypher.schema import GraphSchema
from graphrag_neo4j.runtime.resources import load_prompt

ENTITY, RELATED = "__Entity__", "RELATED"
MIN_WORD = 3  # shorter words (IS, OF, BY) say nothing a predicate could be filtered on
CLOSE = 0.8  # how alike an invented name must be to one of the graph's to be taken for it
# A relationship pattern with its arrows: -[r:DIRECTED_BY]->, <-[:STARS*..3]-. Brackets never
# nest inside one, and the masked text holds no literal a bracket could hide in.
_RELATIONSHIP = re.compile(r"(?P<left><?-)\[(?P<body>[^\[\]]*)\](?P<right>->?)")
_PLAIN_BODY = re.compile(r"^\s*(?P<var>[A-Za-z_]\w*)?\s*:\s*(?P<type>[A-Za-z_]\w*)\s*$")


def with_known_names(statement: str, unknown: Sequence[UnknownName], schema: GraphSchema) -> str:
    """The statement with each unknown label and relationship type replaced by the graph's
    name for it: the same name spelled otherwise (:Document -> :__Document__), else
    :__Entity__ for a kind of thing and RELATED for a kind of relation. An invented single-hop
    type keeps its meaning as a filter on the predicate when predicates say how entities
    relate, `[r:RELATED WHERE toLower(r.predicate) CONTAINS 'direct']`, and loses its arrow,
    which was as much a guess as its name.

    The statement comes back unchanged unless every unknown name is replaced: an unknown
    property, or an invented label that is all a node asks for (`MATCH (g:Ghost) RETURN
    count(g)`, where :__Entity__ would count everything), is left to the LLM repair."""
    labels = {name.name: _nearest(name.name, schema.labels, ENTITY)
              for name in unknown if name.kind == "label"}
    types = {name.name for name in unknown if name.kind == "relationship type"}
    if len(labels) + len(types) < len(unknown) or not all(
        known != ENTITY or _only_in_chains(statement, label) for label, known in labels.items()
    ):
        return statement
    if types:
        statement = _replace_types(statement, types, schema)
    for label, known in labels.items():
        statement = _replace_label(statement, label, known)
    return statement


def _only_in_chains(statement: str, label: str) -> bool:
    """Whether every `:label` sits in a node pattern joined to a relationship, `(f:Film)-[`
    or `]->(f:Film)`, where the relationship still says what kind of thing the node is."""
    text = masked(statement)
    for found in re.finditer(rf"(?<=[:|&])\s*{re.escape(label)}\b", text):
        opened = text.rfind("(", 0, found.start())
        closed = text.find(")", found.end())
        if opened < 0 or closed < 0 or ")" in text[opened:found.start()]:
            return False
        before, after = text[:opened].rstrip(), text[closed + 1:].lstrip()
        if not (before.endswith(("-", "->")) or after.startswith(("-", "<-"))):
            return False
    return True


def _replace_label(statement: str, label: str, known: str) -> str:
    """Every `:label` outside literals (in patterns and in WHERE x:label) renamed; so
    a relationship type `:TYPE` or `|TYPE` in a relationship pattern's body."""
    pattern = re.compile(rf"(?<=[:|&])(\s*){re.escape(label)}\b")
    return rewrite_matches(statement, pattern, lambda found, _: found.group(1) + known)


def _replace_types(statement: str, types: set[str], schema: GraphSchema) -> str:
    def replace(found: re.Match[str], written: list[str]) -> str | None:
        body = statement[found.start("body"):found.end("body")]
        return _relationship(found, body, types, schema, fresh_variable(statement, written, "rel"))

    return rewrite_matches(statement, _RELATIONSHIP, replace)


def _relationship(
    found: re.Match[str], body: str, types: set[str], schema: GraphSchema, fresh: str
) -> str | None:
    """One relationship pattern with its unknown types replaced, or None when it has none;
    `fresh` is the variable it takes if it has none."""
    masked_body = found.group("body")
    names = re.findall(r"[A-Za-z_]\w*", masked_body.split("{")[0].split("*")[0])
    invented = [name for name in names if name in types]
    if not invented:
        return None
    plain = _PLAIN_BODY.match(masked_body)
    nearest = _nearest(invented[0], schema.types, RELATED)
    if plain is None or nearest != RELATED:
        for name in invented:
            body = _replace_label(body, name, _nearest(name, schema.types, RELATED))
        return f"{found.group('left')}[{body}]{found.group('right')}"
    var = plain.group("var") or fresh
    word = key_word(plain.group("type"))  # letters only: it cannot leave its quotes
    # Neo4j takes a shortest path's relationship as variable-length: no inline WHERE there.
    filtered = schema.predicates_tell and word and not _in_shortest_path(found)
    predicate = f" WHERE toLower({var}.predicate) CONTAINS '{word}'" if filtered else ""
    return f"-[{var}:{RELATED}{predicate}]-"


def _in_shortest_path(found: re.Match[str]) -> bool:
    """Whether the relationship pattern sits inside shortestPath(...) or allShortestPaths(...)."""
    before = found.string[:found.start()]
    opened = before.lower().rfind("shortestpath(")
    return opened >= 0 and before.count("(", opened) > before.count(")", opened)


def _nearest(name: str, known: Sequence[str], default: str) -> str:
    """The graph's name spelled like `name` (case, underscores, a plural s aside), else the
    closest one by characters, else `default`."""
    by_form = {_form(candidate): candidate for candidate in known}
    if _form(name) in by_form:
        return by_form[_form(name)]
    close = difflib.get_close_matches(_form(name), list(by_form), n=1, cutoff=CLOSE)
    return by_form[close[0]] if close else default


def _form(name: str) -> str:
    return name.replace("_", "").lower().removesuffix("s")


def key_word(type_name: str) -> str:
    """The invented type's longest word, stemmed, as the predicate must contain it:
    DIRECTED_BY -> 'direct', STARRING -> 'star', LOCATED_IN -> 'locat'; '' for IS."""
    words = [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", type_name)]
    words = [word for word in words if len(word) >= MIN_WORD]
    if not words:
        return ""
    longest = max(words, key=len)
    return stem(longest)


@dataclass(frozen=True)
class KnownNames:
    """Labels and relationship types the graph lacks, replaced by its own."""

    name = "known_names"
    note = "the graph's own names were put in their place"
    when = When.UNKNOWN

    async def rewrite(self, query: str, situation: Situation) -> str | None:
        unknown = situation.attempt.unknown if situation.attempt else []
        return with_known_names(query, unknown, situation.schema)

    def problem(self, attempt: Attempt, schema: GraphSchema, prompts_dir: Path | None) -> str:
        """The unknown names with the ones the graph has (prompts/query/cypher/unknown_names.txt),
        and how to write each invented relationship type with RELATED."""
        return load_prompt("query/cypher/unknown_names", prompts_dir).format(
            unknown=describe(attempt.unknown), labels=_listed(schema.labels, ":"),
            types=_listed(schema.types, ":"), properties=_listed(schema.properties),
            advice=" ".join(_relation_advice(name.name, schema.predicates_tell)
                            for name in attempt.unknown if name.kind == "relationship type"),
        ).strip()


def _listed(names: list[str], prefix: str = "") -> str:
    return ", ".join(prefix + name for name in names) or "none"


def _relation_advice(invented: str, predicates_tell: bool) -> str:
    """How to write an invented relationship type with RELATED: its words as a predicate
    filter when predicates say how entities relate, else RELATED both ways."""
    words = " ".join(re.findall(r"[^\W_]+", invented.lower()))
    if predicates_tell and words:
        return (f"Instead of [:{invented}] write [r:RELATED] with toLower(r.predicate) CONTAINS"
                f" '{words}' (or a shorter key word of it).")
    return f"Instead of [:{invented}] write [:RELATED], followed both ways."
