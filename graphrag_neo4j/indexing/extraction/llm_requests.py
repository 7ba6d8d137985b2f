"""The extraction and gleaning requests a run would send, rendered and looked up in the cache."""

from __future__ import annotations

from dataclasses import dataclass, field

from graphrag_neo4j.indexing.extraction.llm import (
    GLEAN_STAGE,
    STAGE,
    STOP_RULE,
    Extractor,
    gleaning_done,
)
from graphrag_neo4j.indexing.extraction.rows import EXTRACTION_ROW, GLEANING_ROW
from graphrag_neo4j.indexing.extraction.tag_parser import parse_extraction
from graphrag_neo4j.indexing.records import Chunk
from graphrag_neo4j.llm.calls.messages import prompt_messages
from graphrag_neo4j.llm.costs.estimate import Range, StageEstimate
from graphrag_neo4j.llm.costs.profile import ModelProfile


@dataclass
class ExtractionRequests:
    """Fresh extraction calls are exact; gleaning's first pass is exact, later ones a bound."""

    extraction_calls: int = 0
    extraction_cached: int = 0
    extraction_prompt: int = 0
    gleaning_calls: Range = field(default_factory=lambda: Range.of(0))
    gleaning_cached: int = 0
    gleaning_prompt: Range = field(default_factory=lambda: Range.of(0))


@dataclass
class _Open:
    """A chunk whose requests so far were all answered by the cache."""

    chunk: Chunk
    replies: list[str] = field(default_factory=list)


def _prompt(extractor: Extractor, item: _Open) -> str:
    if not item.replies:
        return extractor.extraction_prompt(item.chunk)
    return extractor.gleaning_prompt(item.chunk, item.replies)


def _completion(profile: ModelProfile, stage: str, prompt_tokens: float, max_tokens: int
                ) -> Range:
    return profile.completion(stage, Range.of(1), Range.of(prompt_tokens), max_tokens)[0]


def _later_passes(result: ExtractionRequests, extractor: Extractor, profile: ModelProfile,
                  item: _Open, first_pass: int, prompt_tokens: int) -> None:
    """Count pass `first_pass` (the first uncached request of `item`) and bound the rest."""
    llm, passes = extractor.llm, extractor.settings.gleaning_passes
    max_tokens = llm.settings.max_tokens
    stage = STAGE if first_pass == 0 else GLEAN_STAGE
    reply = _completion(profile, stage, prompt_tokens, max_tokens)
    if first_pass == 0:
        result.extraction_calls += 1
        result.extraction_prompt += prompt_tokens
        base = llm.count_prompt(prompt_messages(extractor.gleaning_prompt(item.chunk, [])))
        prompt = Range.of(base) + reply  # the first glean quotes the extraction reply
        if passes:
            result.gleaning_calls += Range(1, 1)
            result.gleaning_prompt += prompt
        first_pass, prompt_tokens = 1, int(prompt.high)
    else:
        result.gleaning_calls += Range(1, 1)
        result.gleaning_prompt += Range.of(prompt_tokens)
    growing = float(prompt_tokens)
    for _ in range(first_pass + 1, passes + 1):  # may stop early: upper bound only
        growing += _completion(profile, GLEAN_STAGE, growing, max_tokens).high
        result.gleaning_calls += Range(0, 1)
        result.gleaning_prompt += Range(0, growing)


def extraction_requests(extractor: Extractor, profile: ModelProfile, chunks: list[Chunk]
                        ) -> ExtractionRequests:
    """Follow each chunk's requests through the cache as a run would, then count the rest."""
    llm = extractor.llm
    result = ExtractionRequests()
    open_items = [_Open(chunk) for chunk in chunks]
    for level in range(extractor.settings.gleaning_passes + 1):
        if not open_items:
            break
        messages = [prompt_messages(_prompt(extractor, item)) for item in open_items]
        keys = [llm.request_key(m, {}, STOP_RULE) for m in messages]
        cached = llm.cached_texts(keys)
        still_open = []
        for item, key, message in zip(open_items, keys, messages, strict=True):
            reply = cached.get(key)
            if reply is None:
                _later_passes(result, extractor, profile, item, level, llm.count_prompt(message))
                continue
            if level == 0:
                result.extraction_cached += 1
            else:
                result.gleaning_cached += 1
                if gleaning_done(parse_extraction(reply)):
                    continue
            item.replies.append(reply)
            still_open.append(item)
        open_items = still_open
    return result


def extraction_rows(extractor: Extractor, profile: ModelProfile, chunks: list[Chunk]
                    ) -> list[StageEstimate]:
    """The extraction and gleaning rows: calls exact, gleaning beyond its first pass a bound."""
    requests = extraction_requests(extractor, profile, chunks)
    passes = extractor.settings.gleaning_passes
    max_tokens = extractor.llm.settings.max_tokens
    glean_note = "" if requests.gleaning_calls.exact else "later passes may stop early"
    return [
        profile.llm_stage(EXTRACTION_ROW, Range.of(requests.extraction_calls),
                          Range.of(requests.extraction_prompt), max_tokens=max_tokens,
                          cached=requests.extraction_cached, stats_stage=STAGE),
        profile.llm_stage(GLEANING_ROW, requests.gleaning_calls, requests.gleaning_prompt,
                          max_tokens=max_tokens, cached=requests.gleaning_cached,
                          stats_stage=GLEAN_STAGE,
                          note=glean_note if passes else "gleaning_passes = 0"),
    ]
