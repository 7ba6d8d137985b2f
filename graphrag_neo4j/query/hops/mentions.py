"""Which names a question mentions: an LLM NER prompt, or its capitalised phrases without one."""

from __future__ import annotations

import json
import re
from pathlib import Path

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.runtime.resources import load_prompt

NER_STAGE = "hops_ner"
NER_MAX_TOKENS = 120
_SEGMENT_BREAK = re.compile(r"[,;:!?()\[\]{}\"“”]|\s[-–—]\s|'(?=\s)|(?<=\s)'")
_POSSESSIVE = re.compile(r"(?:'s|’s|'|’)$")
_JSON_LIST = re.compile(r"\[.*?\]", flags=re.DOTALL)
_QUOTED = re.compile(r"\"([^\"]+)\"")
# Lower-case words that may sit inside a name ("Battle of Mine Creek", "Vincent van Gogh").
_CONNECTORS = frozenset(
    {"of", "the", "and", "de", "del", "della", "da", "di", "du", "la", "le", "van", "von",
     "der", "den", "y", "und", "et", "upon", "for", "&"}
)
# Capitalised only because they open the sentence or are function words, never names alone.
_NOT_NAMES = frozenset(
    {"a", "an", "the", "what", "who", "whom", "whose", "which", "when", "where", "why", "how",
     "in", "on", "at", "to", "for", "from", "by", "of", "with", "is", "are", "was", "were",
     "did", "does", "do", "has", "have", "had", "can", "could", "would", "will", "name", "i",
     "and", "or", "but", "if", "that", "this", "these", "those", "there", "as", "after",
     "before", "during", "since", "until", "while", "between", "among", "about", "into"}
)


def _is_capitalised(token: str) -> bool:
    first = next((ch for ch in token if ch.isalnum()), "")
    return first.isupper()


def _flush(run: list[str], mentions: list[str]) -> None:
    while run and (run[-1].casefold() in _CONNECTORS or run[-1].casefold() in _NOT_NAMES):
        run.pop()  # a name never ends with "of" / "the"
    while run and run[0].casefold() in _NOT_NAMES:
        run.pop(0)  # "What", "In", "The" opening the sentence
    if run:
        mentions.append(" ".join(run))
    run.clear()


def _segment_mentions(segment: str, mentions: list[str]) -> None:
    run: list[str] = []
    for raw in segment.split():
        token = raw.strip(".'’") if raw.endswith(("'", "’")) else raw.rstrip(".")
        if raw.endswith(".") and len(raw) <= 3:
            token = raw  # initials and titles keep their dot: "Mr.", "B."
        possessive = bool(_POSSESSIVE.search(token))
        token = _POSSESSIVE.sub("", token)
        continues = bool(run) and (token[:1].isdigit() or token.casefold() in _CONNECTORS)
        if _is_capitalised(token) or continues:
            run.append(token)
        else:
            _flush(run, mentions)
            continue
        if possessive:
            _flush(run, mentions)  # "Euler's teacher": the name ends at the 's
    _flush(run, mentions)


def capitalised_mentions(question: str) -> list[str]:
    """Runs of capitalised words (with inner "of"/"the"/"van"...), possessives stripped.

    >>> capitalised_mentions("What contribution did the son of Euler's teacher make?")
    ['Euler']
    """
    mentions: list[str] = []
    for segment in _SEGMENT_BREAK.split(question):
        _segment_mentions(segment, mentions)
    return list(dict.fromkeys(m for m in mentions if any(ch.isalnum() for ch in m)))


def parse_names(reply: str) -> list[str]:
    """The names of an NER reply: a JSON list of strings (quoted strings when it is broken)."""
    names: list[object] = []
    match = _JSON_LIST.search(reply)
    if match is not None:
        try:
            parsed = json.loads(match.group(0))
            names = parsed if isinstance(parsed, list) else []
        except json.JSONDecodeError:
            names = list(_QUOTED.findall(match.group(0)))
    cleaned = (" ".join(str(n).split()) for n in names if isinstance(n, str | int | float))
    return list(dict.fromkeys(name for name in cleaned if name))


def merge_mentions(question: str, llm_names: list[str], capitalised: list[str]) -> list[str]:
    """The LLM's names that occur in the question, then capitalised phrases it missed.

    Small models copy names from the prompt's examples, invent some, or list common nouns
    ("bomb", "when"): a name must occur in the question and hold a capital or a digit.
    Capitalised phrases are precise, so they are kept as well.
    """
    folded = question.casefold()
    kept = [name for name in llm_names
            if name.casefold() in folded and any(ch.isupper() or ch.isdigit() for ch in name)]
    seen = {name.casefold() for name in kept}
    return kept + [name for name in capitalised if name.casefold() not in seen]


async def llm_mentions(llm: LLMCaller, question: str, prompts_dir: Path | None) -> list[str]:
    """The names the LLM finds in the question, with its capitalised phrases."""
    prompt = load_prompt("query/hops/ner", prompts_dir).format(question=question)
    reply = await llm.complete(prompt, stage=NER_STAGE, max_tokens=NER_MAX_TOKENS)
    return merge_mentions(question, parse_names(reply), capitalised_mentions(question))
