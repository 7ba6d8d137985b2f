"""The Text2Cypher guard and reply parsing, without a server: plans are given as rows."""

from __future__ import annotations

from graphrag_neo4j.query.cypher.guard import Refusal, plan_refusal, single_statement
from graphrag_neo4j.query.cypher.schema import render_schema
from graphrag_neo4j.query.cypher.writing import query_from_reply

ALLOWED = ["db.labels", "db.index.fulltext.queryNodes"]


def _plan(*operators: str, details: str = "") -> list[dict[str, object]]:
    return [{"operator": f"{name}@neo4j", "args": {"Details": details}} for name in operators]


def test_read_plans_pass() -> None:
    assert plan_refusal("r", _plan("ProduceResults", "NodeCountFromCountStore"), ALLOWED) is None
    read = _plan("ProduceResults", "Top", "EagerAggregation", "Expand(All)", "Filter",
                 "NodeByLabelScan", "NodeIndexSeek", "Apply", "Argument", "Optional")
    assert plan_refusal("r", read, ALLOWED) is None
    fulltext = _plan("ProcedureCall", details="db.index.fulltext.queryNodes($a, $b) :: (node)")
    assert plan_refusal("r", fulltext, ALLOWED) is None


def test_writes_schema_admin_and_other_procedures_are_refused() -> None:
    for operator in ("Delete", "DetachDelete", "Create", "Merge", "SetProperty", "SetLabels",
                     "RemoveLabels", "Foreach", "SubqueryForeach", "LoadCSV", "CreateIndex",
                     "DropIndex", "AdministrationCommand", "TransactionForeach", "EmptyResult"):
        refusal = plan_refusal("r", _plan("ProduceResults", operator), ALLOWED)
        assert isinstance(refusal, Refusal) and operator in refusal.reason
    dbms = _plan("ProcedureCall", details="dbms.components() :: (name :: STRING)")
    assert plan_refusal("r", dbms, ALLOWED) == Refusal(
        "the procedure dbms.components is not one a query may call")
    assert isinstance(plan_refusal("rw", _plan("ProduceResults"), ALLOWED), Refusal)
    assert isinstance(plan_refusal("s", _plan("ProduceResults"), ALLOWED), Refusal)


def test_one_statement_only() -> None:
    assert single_statement("  MATCH (n) RETURN n ;\n") == "MATCH (n) RETURN n"
    assert isinstance(single_statement("MATCH (n) RETURN n; MATCH (n) DELETE n"), Refusal)
    assert isinstance(single_statement(" ; "), Refusal)


def test_the_query_is_read_off_fenced_or_labelled_replies() -> None:
    assert query_from_reply("```cypher\nMATCH (p:Person) RETURN count(p)\n```\nIt counts.") == (
        "MATCH (p:Person) RETURN count(p)")
    assert query_from_reply("Cypher: MATCH (n) RETURN n") == "MATCH (n) RETURN n"
    assert query_from_reply("  MATCH (n) RETURN n  ") == "MATCH (n) RETURN n"


def test_the_schema_folds_type_labels_and_cuts_long_samples() -> None:
    labels = [
        {"label": "__Entity__", "nodes": 3, "also": ["Person"],
         "properties": [{"key": "name", "samples": ["Ada", "x" * 80]}]},
        {"label": "Person", "nodes": 2, "also": ["__Entity__"], "properties": []},
        {"label": "__Covariate__", "nodes": 0, "also": [], "properties": []},
    ]
    types = [{"type": "RELATED", "relationships": 4,
              "ends": [{"source": "__Entity__", "target": "__Entity__"}],
              "properties": [{"key": "predicate", "samples": ["knows"]}]}]
    text = render_schema(labels, types)
    assert '(:__Entity__) (3): name e.g. "Ada", "xxx' in text and "x" * 80 not in text
    assert "Entity type labels, each node also :__Entity__" in text and ":Person (2)" in text
    assert "__Covariate__" not in text
    assert '(:__Entity__)-[:RELATED]->(:__Entity__) (4): predicate e.g. "knows"' in text


def test_the_engines_own_numbers_say_what_they_count_and_other_properties_do_not() -> None:
    labels = [{"label": "__Entity__", "nodes": 3, "also": [], "properties": [
        {"key": "degree", "samples": [4]}, {"key": "frequency", "samples": [3]},
        {"key": "shoe_size", "samples": [9]}]}]
    types = [{"type": "RELATED", "relationships": 4,
              "ends": [{"source": "__Entity__", "target": "__Entity__"}],
              "properties": [{"key": "weight", "samples": [1.5]}]}]
    text = render_schema(labels, types)
    assert ("degree (relations it has) e.g. 4; frequency (passages that mention it) e.g. 3;"
            " shoe_size e.g. 9") in text
    assert "weight (how strongly, from how often the two are related) e.g. 1.5" in text


def test_the_schema_lists_predicates_and_the_way_they_read() -> None:
    predicates = [{"predicate": "is", "relationships": 9},
                  {"predicate": "located in", "relationships": 5}]
    text = render_schema([], [_related(40)], predicates)
    assert 'RELATED predicates, most common first (relationships): "is" (9), "located in" (5)' in (
        text)
    # The example of direction is the first phrase, not a bare verb.
    assert '(a)-[r:RELATED]->(b) WHERE r.predicate = "located in" says "a located in b"' in text


def test_a_predicate_held_by_most_relations_is_shown_as_saying_nothing() -> None:
    predicates = [{"predicate": "co-occurs with", "relationships": 40},
                  {"predicate": "say", "relationships": 2}]
    text = render_schema([], [_related(44)], predicates)
    assert '40 of the 44 RELATED relationships have the predicate "co-occurs with"' in text
    assert "never filter on the predicate" in text and "most common first" not in text
    assert "predicate" not in render_schema([], [])


def _related(count: int) -> dict[str, object]:
    return {"type": "RELATED", "relationships": count, "ends": [], "properties": []}


def test_every_variable_length_expand_mode_is_a_read() -> None:
    for mode in ("All", "Into", "Pruning", "Pruning,BFS", "Pruning,BFS,All"):
        operators = [{"operator": f"VarLengthExpand({mode})"}, {"operator": "ProduceResults"}]
        assert plan_refusal("r", operators, []) is None, mode
    assert plan_refusal("r", [{"operator": "VarLengthExpand(Create)"}], []) is not None
