"""Canned, valid replies to both engines' indexing prompts, so a stub answers them instantly.

Both sides get the same graph from a chunk: its first capitalised names as entities, each linked
to the next (the engine's own `pipeline_fake_llm` rule), in each engine's record format. Gleaning
finds nothing more, summaries keep the last words, reports are one JSON both report schemas take.
"""

from __future__ import annotations

import itertools
import json
import re

from graphrag_neo4j.llm.testing import pipeline_fake_llm

_NAME = re.compile(r"\b[A-Z][a-z]{3,}(?: [A-Z][a-z]+)*")
_NAMES_PER_CHUNK = 6
# Microsoft GraphRAG 3.3.0's prompts (graphrag/prompts/index/*.py) end with these lines.
_THEIR_TEXT = re.compile(r"-Real Data-.*?\nText: (.*)\n#{6,}\nOutput:\s*$", re.DOTALL)
_THEIR_CONTINUE = "MANY entities and relationships were missed in the last extraction."
_THEIR_LOOP = "Answer Y if there are still entities or relationships that need to be added"
_THEIR_SUMMARY = "Description List:"
_THEIR_REPORT = "# Real Data"
_THEIR_PING = "This is an LLM connectivity test."  # `graphrag index` checks the model first
_ours = pipeline_fake_llm()


def _their_extraction(text: str) -> str:
    names = list(dict.fromkeys(_NAME.findall(text)))[:_NAMES_PER_CHUNK]
    records = [f'("entity"<|>{n.upper()}<|>PERSON<|>{n} appears in the text.)' for n in names]
    records += [f'("relationship"<|>{a.upper()}<|>{b.upper()}<|>{a} and {b} appear together.<|>5)'
                for a, b in itertools.pairwise(names)]
    return "\n##\n".join(records) + "\n<|COMPLETE|>"


def _report(prompt: str) -> str:
    title = next(iter(_NAME.findall(prompt[-2000:])), "Community")
    return json.dumps({"title": f"About {title}", "summary": f"A community around {title}.",
                       "rating": 5, "rating_explanation": "Scripted.",
                       "findings": [{"summary": title, "explanation": "Scripted finding."}]})


def answer(prompt: str) -> str:
    """The reply to one prompt (the stub joins a call's messages; the last one decides)."""
    tail = prompt[-600:]
    if prompt.startswith(_THEIR_PING):
        return "Hello World"
    if _THEIR_LOOP in tail:
        return "N"
    if _THEIR_CONTINUE in tail:
        return "<|COMPLETE|>"
    if _THEIR_SUMMARY in prompt and prompt.rstrip().endswith("Output:"):
        return " ".join(prompt.rsplit("Description List:", 1)[1].split()[:40])
    if _THEIR_REPORT in prompt:
        return _report(prompt)
    match = _THEIR_TEXT.search(prompt)
    if match is not None:
        return _their_extraction(match.group(1))
    return _ours.answer(prompt)
