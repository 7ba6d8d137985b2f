"""Hops' answer context: the passages it read, first and placed, under the facts that chain them."""

from __future__ import annotations

from collections.abc import Sequence

from graphrag_neo4j.query.answers.passages import passage_context
from graphrag_neo4j.query.context import Row, SearchContext
from graphrag_neo4j.query.hops.rerank import Candidate
from graphrag_neo4j.query.hops.retrieval import HopsRetrieval
from graphrag_neo4j.query.local.facts import fact_line, source_refs
from graphrag_neo4j.settings import SearchSettings

# Relations listed in the answer prompt: enough to show the chain, short for small models.
FACTS_IN_PROMPT = 10


def passages_read(found: HopsRetrieval, final_k: int) -> list[str]:
    """The chunk ids the answer reads: the first `final_k`, then those the LLM rounds placed."""
    top = found.chunk_order[:final_k]
    # The passages of the facts the rerank chose and the follow-up's (the next hop's) may
    # sit below the first ones, which they never move: the answer reads them beside those.
    for added in (found.rerank_added, found.follow_up_added):
        top += [chunk_id for chunk_id in added if chunk_id not in top]
    return top


def hops_context(
    found: HopsRetrieval, passages: Sequence[Row], search: SearchSettings
) -> SearchContext:
    """The passages (as many as the token budget holds) under the numbered facts."""
    facts = found.chosen or found.candidates[:FACTS_IN_PROMPT]
    context = passage_context(passages, search.passage_context_tokens, _extra(found))
    fact_rows = numbered_facts(facts[:FACTS_IN_PROMPT], context.sources["Sources"])
    context.sources["Relationships"] = fact_rows
    context.notes = list(found.notes)
    if fact_rows:
        context.text = f"{facts_block(fact_rows)}\n\n{context.text}"
    return context


def numbered_facts(facts: Sequence[Candidate], shown: Sequence[Row]) -> list[Row]:
    """The facts as numbered rows, each with the numbers of the shown passages it comes from,
    so the model can follow a chain of facts to the passages that state them."""
    return [{"ref": n, "id": c.id, "fact": c.sentence, "score": round(c.score, 4),
             "sources": source_refs(c.chunk_ids, shown, key="chunk_id")}
            for n, c in enumerate(facts, 1)]


def facts_block(rows: Sequence[Row]) -> str:
    """`-----Facts-----` with one short numbered fact a line and its passages."""
    lines = [fact_line(row["ref"], row["fact"], row["sources"]) for row in rows]
    return "-----Facts-----\n" + "\n".join(lines)


def _extra(found: HopsRetrieval) -> dict[str, list[Row]]:
    """What the retrieval did, for `--show-context` and for debugging a ranking."""
    extra: dict[str, list[Row]] = {
        "Mentions": [{"text": m} for m in found.mentions],
        "Entities": [{k: row[k] for k in ("mention", "id", "name", "score")}
                     for row in found.entity_hits],
    }
    if found.follow_up:
        extra["Follow-up"] = [{"query": found.follow_up}]
    if found.rerank is not None:
        extra["Rerank"] = [{"parsed": found.rerank.parsed, "thought": found.rerank.thought,
                            "chosen": [c.id for c in found.chosen]}]
    return extra
