"""The model's part: prompts that ask for one read-only query, or a repair, and its reply."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from graphrag_neo4j.query.base import Query, Services
from graphrag_neo4j.query.context import history_block
from graphrag_neo4j.query.cypher.attempt import Attempt
from graphrag_neo4j.query.cypher.rewrites.registry import REWRITES, as_written, repairs
from graphrag_neo4j.query.cypher.rewrites.rewrite import Rewrite, Situation
from graphrag_neo4j.query.cypher.schema import GraphSchema
from graphrag_neo4j.runtime.resources import load_prompt

_FENCE = re.compile(r"```(?:cypher|sql)?\s*\n?(.*?)```", flags=re.DOTALL | re.IGNORECASE)
_LABEL = re.compile(r"^\s*(cypher|query)\s*:\s*", flags=re.IGNORECASE)


def query_from_reply(reply: str) -> str:
    """The query in a reply: a fenced block's content if there is one, without a `Cypher:`."""
    fenced = _FENCE.search(reply)
    text = fenced.group(1) if fenced else reply
    return _LABEL.sub("", text.strip()).strip()


async def write_query(
    services: Services, query: Query, schema: GraphSchema, rewrites: Sequence[Rewrite]
) -> str:
    """One LLM call: the question, the live schema and the few-shot examples -> a query, as
    the rewrites of written queries leave it."""
    settings = services.settings
    prompt = load_prompt("query/cypher/generate", settings.prompts_dir).format(
        schema=schema.text,
        examples=load_prompt("query/cypher/examples", settings.prompts_dir).strip(),
        history=history_block(query.history),
        question=query.question,
        max_rows=query.search.cypher.max_rows,
    )
    reply = await services.llm.complete(prompt, stage="cypher_generate")
    return await _as_run(query_from_reply(reply), services, query, schema, rewrites)


async def repair_query(
    services: Services, query: Query, schema: GraphSchema, failed: Attempt,
    rewrites: Sequence[Rewrite],
) -> str:
    """One more LLM call with the failed query and why it failed -> a corrected query, as the
    rewrites of written queries leave it."""
    prompts_dir = services.settings.prompts_dir
    prompt = load_prompt("query/cypher/repair", prompts_dir).format(
        schema=schema.text, question=query.question, query=failed.query,
        error=problem(failed, schema, prompts_dir), max_rows=query.search.cypher.max_rows,
    )
    reply = await services.llm.complete(prompt, stage="cypher_repair")
    return await _as_run(query_from_reply(reply), services, query, schema, rewrites)


async def _as_run(
    text: str, services: Services, query: Query, schema: GraphSchema,
    rewrites: Sequence[Rewrite],
) -> str:
    situation = Situation(query.question, schema, services.store)
    return await as_written(text, situation, rewrites)


def problem(attempt: Attempt, schema: GraphSchema, prompts_dir: Path | None) -> str:
    """What the repair prompt is told went wrong: that it counted 1 on every row or found only
    numbers; for a query a repair of the list is for (it names what the graph lacks, it found
    nothing), the first such repair's own sentence; else the refusal or error. The list read is
    the whole of REWRITES, so a benchmark that leaves a rewrite out keeps the prompt."""
    if attempt.counts_each_once:
        return ("it ran but counted 1 on every row: the count was grouped by the very thing it"
                " counts, so it ranks nothing. To count an entity's relations, match them"
                " ((e)-[r:RELATED]-() with count(r)) or read its degree property; for how often"
                " it is mentioned, its frequency property.")
    if attempt.nameless:
        return ("it ran but returned only numbers, and the question asks which one or who:"
                " return the names (e.name) of what it asks about, each with the number that"
                " ranks them (the degree property counts an entity's relations, frequency the"
                " passages that mention it), ordered by that number.")
    own = next((rewrite for rewrite in repairs(REWRITES) if rewrite.when.holds(attempt)), None)
    if own is not None:
        return own.problem(attempt, schema, prompts_dir)
    return f"{attempt.status}: {attempt.reason}"
