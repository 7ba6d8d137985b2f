"""Extraction requests followed through the cache: cached chunks free, the rest counted."""

from __future__ import annotations

from pathlib import Path

from graphrag_neo4j.indexing.extraction.llm import Extractor
from graphrag_neo4j.indexing.extraction.llm_requests import extraction_requests
from graphrag_neo4j.indexing.records import Chunk
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.messages import prompt_messages
from graphrag_neo4j.llm.costs.profile import ModelProfile
from graphrag_neo4j.llm.testing import pipeline_fake_llm
from graphrag_neo4j.settings import ExtractionSettings, LLMSettings

TEXTS = ["Leonhard Euler studied in Basel under Johann Bernoulli.",
         "Daniel Bernoulli worked with Euler in Saint Petersburg.",
         "Jakob Bernoulli taught Johann Bernoulli in Basel."]


def _chunks() -> list[Chunk]:
    return [Chunk(f"c{i}", f"d{i}", text, 0, 10) for i, text in enumerate(TEXTS)]


def _extractor(tmp_path: Path, passes: int) -> Extractor:
    llm = LLMCaller(pipeline_fake_llm(), LLMSettings(max_tokens=100), tmp_path)
    return Extractor(llm, ExtractionSettings(gleaning_passes=passes))


async def test_cached_chunks_are_free_and_the_rest_exact(tmp_path: Path) -> None:
    extractor = _extractor(tmp_path, passes=1)
    chunks = _chunks()
    await extractor.extract(chunks[0])
    requests = extraction_requests(extractor, ModelProfile.of(extractor.llm, None), chunks)
    assert (requests.extraction_calls, requests.extraction_cached) == (2, 1)
    # The cached chunk's gleaning request is cached too; the two new chunks glean once each.
    assert requests.gleaning_cached == 1 and requests.gleaning_calls.low == 2
    assert requests.gleaning_calls.exact
    count = extractor.llm.count_prompt
    expected = sum(count(prompt_messages(extractor.extraction_prompt(c))) for c in chunks[1:])
    assert requests.extraction_prompt == expected
    # Each gleaning prompt quotes the extraction reply, predicted from the measured ratio.
    bare = sum(count(prompt_messages(extractor.gleaning_prompt(c, []))) for c in chunks[1:])
    assert bare < requests.gleaning_prompt.low <= requests.gleaning_prompt.high
    before = extractor.llm.usage.stages()["glean"].prompt_tokens
    for chunk in chunks[1:]:
        await extractor.extract(chunk)
    actual = extractor.llm.usage.stages()["glean"].prompt_tokens - before
    assert abs(requests.gleaning_prompt.expected - actual) <= 0.05 * actual
    extractor.llm.close()


async def test_later_gleaning_passes_are_an_upper_bound(tmp_path: Path) -> None:
    extractor = _extractor(tmp_path, passes=3)
    requests = extraction_requests(extractor, ModelProfile.of(extractor.llm, None), _chunks())
    assert requests.extraction_calls == 3
    assert (requests.gleaning_calls.low, requests.gleaning_calls.high) == (3, 9)
    for chunk in _chunks():
        await extractor.extract(chunk)  # the fake says nothing is missing: one pass each
    calls = extractor.llm.usage.stages()
    assert calls["glean"].calls == 3
    again = extraction_requests(extractor, ModelProfile.of(extractor.llm, None), _chunks())
    assert again.extraction_calls == 0 and again.gleaning_calls.high == 0
    assert (again.extraction_cached, again.gleaning_cached) == (3, 3)
    extractor.llm.close()
