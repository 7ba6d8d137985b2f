"""Every Cypher rewrite of the list, one row each at least: question, model query, its fate and
what the rewrite makes of it, and for a repair what the LLM repair is told; then the list's
own rules."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from graphrag_neo4j.query.base import Query, Services
from graphrag_neo4j.query.cypher.attempt import Attempt
from graphrag_neo4j.query.cypher.names import UnknownName
from graphrag_neo4j.query.cypher.rewrites.registry import (
    REWRITES,
    as_written,
    repairs,
    rewrites_table,
    without,
)
from graphrag_neo4j.query.cypher.rewrites.rewrite import Situation, When
from graphrag_neo4j.query.cypher.schema import GraphSchema
from graphrag_neo4j.query.cypher.writing import problem, repair_query
from graphrag_neo4j.settings import SearchSettings

LABELS = ["__Entity__", "__Document__", "__Chunk__", "Person", "Location", "Event"]
SCHEMA = GraphSchema(
    text="", labels=LABELS, types=["RELATED", "HAS_ENTITY", "PART_OF"],
    properties=["name", "degree", "frequency", "weight", "predicate"],
    entity_labels=("__Entity__", "Person", "Location", "Event"),
    entity_properties=("degree", "description", "frequency", "name", "type"),
)
DOCS = Path(__file__).resolve().parents[5] / "docs" / "query-methods.md"


class NoReads:
    """A store no rewrite of the list reads or writes."""

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        raise AssertionError(f"a rewrite read {name}")

    def write_rows(self, name: str, rows: Sequence[Mapping[str, Any]], **params: Any) -> int:
        raise AssertionError(f"a rewrite wrote {name}")


WRITTEN: None = None  # a query just written: no fate yet
NOTHING = Attempt("", rows=[])  # it ran and found no rows


def _unknown(*names: UnknownName) -> Attempt:
    return Attempt("", "unknown", unknown=list(names))


# (rewrite, question, model query, its fate, the rewritten query: None when it does not apply)
ROWS: list[tuple[str, str, str, Attempt | None, str | None]] = [
    ("kept_counts", "Which location is mentioned most often?",
     "MATCH (l:Location) RETURN l.name AS place, count(*) AS mentions ORDER BY mentions DESC",
     WRITTEN,
     "MATCH (l:Location) RETURN l.name AS place, l.frequency AS mentions ORDER BY mentions DESC"),
    ("kept_counts", "How many locations are there?",
     "MATCH (l:Location) RETURN count(l) AS n", WRITTEN, None),
    ("direction", "Where has Scrooge been?",
     "MATCH (s:Person)-[:RELATED]->(l:Location) RETURN l.name", WRITTEN,
     "MATCH (s:Person)-[:RELATED]-(l:Location) RETURN l.name"),
    ("known_names", "Which films did Nolan direct?",
     "MATCH (p:Person)-[:DIRECTED]->(f:Film) RETURN f.name",
     _unknown(UnknownName("relationship type", "DIRECTED"), UnknownName("label", "Film")),
     "MATCH (p:Person)-[rel_1:RELATED]-(f:__Entity__) RETURN f.name"),
    ("known_names", "How many ghosts are there?", "MATCH (g:Ghost) RETURN count(g)",
     _unknown(UnknownName("label", "Ghost")), None),
    ("entity_names", "Which events does the graph hold?",
     "MATCH (e:Event) RETURN e.title AS event", NOTHING,
     "MATCH (e:Event) RETURN e.name AS event"),
]


def _named(name: str) -> Any:
    return next(rewrite for rewrite in REWRITES if rewrite.name == name)


@pytest.mark.parametrize(("name", "question", "query", "fate", "expected"), ROWS,
                         ids=[f"{row[0]}-{index}" for index, row in enumerate(ROWS)])
def test_each_rewrite_makes_of_the_model_query_what_the_row_says(
    name: str, question: str, query: str, fate: Attempt | None, expected: str | None
) -> None:
    rewrite = _named(name)
    assert rewrite.when.holds(fate), "the row's fate is one the rewrite is tried on"
    situation = Situation(question, SCHEMA, NoReads(), fate)
    made = asyncio.run(rewrite.rewrite(query, situation))
    assert (None if made in (None, query) else made) == expected


def test_every_rewrite_has_a_row_a_unique_name_and_a_note() -> None:
    names = [rewrite.name for rewrite in REWRITES]
    assert len(set(names)) == len(names)
    assert set(names) == {row[0] for row in ROWS}
    assert all(rewrite.note and not rewrite.note.endswith(".") for rewrite in REWRITES)


def test_rewrites_of_written_queries_come_before_the_repairs() -> None:
    kinds = [rewrite.when is When.WRITTEN for rewrite in REWRITES]
    assert kinds == sorted(kinds, reverse=True)
    assert all(rewrite.when is not When.WRITTEN for rewrite in repairs(REWRITES))


def test_a_written_query_goes_through_every_rewrite_of_written_queries_in_turn() -> None:
    query = ("MATCH (l:Location)<-[:RELATED]-(p:Person) RETURN l.name AS place, count(*) AS"
             " mentions")
    situation = Situation("Which place is mentioned most often?", SCHEMA, NoReads())
    # kept_counts leaves a count over a relationship alone; direction drops the arrow
    assert asyncio.run(as_written(query, situation, REWRITES)) == query.replace("<-", "-")
    alone = "MATCH (l:Location) RETURN l.name AS place, count(*) AS mentions"
    assert asyncio.run(as_written(alone, situation, REWRITES)) == alone.replace(
        "count(*)", "l.frequency")
    assert asyncio.run(as_written(query, situation, without(["direction"]))) == query


class _Shouting:
    """A toy rewrite: ARCHITECTURE's recipe followed (a class and a line in the list)."""

    name = "shouting"
    note = "its keywords were written in capitals"
    when = When.WRITTEN

    async def rewrite(self, query: str, situation: Situation) -> str | None:
        return query.replace("match ", "MATCH ")

    def problem(self, attempt: Attempt, schema: GraphSchema, prompts_dir: Path | None) -> str:
        return ""  # no repair follows a rewrite of every written query


def test_a_rewrite_added_to_the_list_runs_and_is_documented() -> None:
    rewrites = (*REWRITES, _Shouting())
    situation = Situation("How many?", SCHEMA, NoReads())
    assert asyncio.run(as_written("match (n) RETURN count(n)", situation, rewrites)) == (
        "MATCH (n) RETURN count(n)")
    assert "| `shouting` | every query as it is written" in rewrites_table(rewrites)


def test_leaving_out_a_rewrite_that_does_not_exist_says_which_do() -> None:
    with pytest.raises(ValueError, match="No Cypher rewrite is called typo; the rewrites are"):
        without(["typo"])


def test_the_docs_show_the_list_as_it_is() -> None:
    docs = "\n".join(line.strip() for line in DOCS.read_text(encoding="utf-8").splitlines())
    assert rewrites_table() in docs


@pytest.mark.parametrize("row", [row for row in ROWS if row[3] is not WRITTEN and row[4]],
                         ids=lambda row: row[0])
def test_a_repairs_result_is_left_as_it_is_by_the_rewrites_of_written_queries(
    row: tuple[str, str, str, Attempt | None, str | None],
) -> None:
    _, question, _, _, repaired = row
    situation = Situation(question, SCHEMA, NoReads())
    assert asyncio.run(as_written(str(repaired), situation, REWRITES)) == repaired


REPAIRED = [row for row in ROWS if row[3] is not WRITTEN]


def test_every_repair_says_what_went_wrong_and_no_rewrite_of_written_queries_does() -> None:
    for rewrite in REWRITES:
        fates = [row[3] for row in ROWS if row[0] == rewrite.name]
        said = [rewrite.problem(fate or NOTHING, SCHEMA, None) for fate in fates]
        if rewrite.when is When.WRITTEN:
            assert said == [""] * len(fates), rewrite.name
        else:
            assert all(sentence.strip() for sentence in said), f"{rewrite.name} says nothing"


class _RepairLLM:
    """An LLM that records the repair prompt and writes a query."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    async def complete(self, prompt: str, **_: Any) -> str:
        self.prompts.append(prompt)
        return "MATCH (n) RETURN n.name"


def _repair_prompt(question: str, failed: Attempt) -> str:
    """The prompt the LLM repair of `failed` is sent."""
    llm = _RepairLLM()
    services = cast(Services, SimpleNamespace(
        settings=SimpleNamespace(prompts_dir=None), llm=llm, store=NoReads()))
    asked = Query(question, SearchSettings(), "Multiple Paragraphs")
    asyncio.run(repair_query(services, asked, SCHEMA, failed, REWRITES))
    (prompt,) = llm.prompts
    return prompt


@pytest.mark.parametrize("row", REPAIRED, ids=lambda row: row[0])
def test_the_repair_prompt_tells_a_repairs_own_sentence(
    row: tuple[str, str, str, Attempt | None, str | None], monkeypatch: pytest.MonkeyPatch,
) -> None:
    name, question, query, fate, _ = row
    fated = cast(Attempt, fate)
    failed = Attempt(query, fated.status, rows=fated.rows, unknown=fated.unknown)
    own = _named(name).problem(failed, SCHEMA, None)
    assert problem(failed, SCHEMA, None) == own
    assert f"Why it could not be used:\n{own}\n" in _repair_prompt(question, failed)
    # Whatever the rewrite says is what the prompt says: no second copy of its sentence.
    monkeypatch.setattr(type(_named(name)), "problem", lambda *_: "its own words")
    assert "Why it could not be used:\nits own words\n" in _repair_prompt(question, failed)
