"""The model's part: prompts that ask for one read-only query, or a repair, and its reply."""

from __future__ import annotations

import re

from graphrag_neo4j.query.base import Query, Services
from graphrag_neo4j.query.context import history_block
from graphrag_neo4j.resources import load_prompt

_FENCE = re.compile(r"```(?:cypher|sql)?\s*\n?(.*?)```", flags=re.DOTALL | re.IGNORECASE)
_LABEL = re.compile(r"^\s*(cypher|query)\s*:\s*", flags=re.IGNORECASE)


def query_from_reply(reply: str) -> str:
    """The query in a reply: a fenced block's content if there is one, without a `Cypher:`."""
    fenced = _FENCE.search(reply)
    text = fenced.group(1) if fenced else reply
    return _LABEL.sub("", text.strip()).strip()


async def write_query(services: Services, query: Query, schema: str) -> str:
    """One LLM call: the question, the live schema and the few-shot examples -> a query."""
    settings = services.settings
    prompt = load_prompt("cypher_generate", settings.prompts_dir).format(
        schema=schema,
        examples=load_prompt("cypher_examples", settings.prompts_dir).strip(),
        history=history_block(query.history),
        question=query.question,
        max_rows=query.search.cypher.max_rows,
    )
    return query_from_reply(await services.llm.complete(prompt, stage="cypher_generate"))


async def repair_query(
    services: Services, query: Query, schema: str, failed: str, error: str
) -> str:
    """One more LLM call with the failed query and why it failed -> a corrected query."""
    prompt = load_prompt("cypher_repair", services.settings.prompts_dir).format(
        schema=schema, question=query.question, query=failed, error=error,
        max_rows=query.search.cypher.max_rows,
    )
    return query_from_reply(await services.llm.complete(prompt, stage="cypher_repair"))
