"""A streamed answer is grounded as the finished one is: the reader never sees a citation the
JSON answer drops (an injected `[Data: Reports (99)]`), whatever the output path."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.citations import clean_citations
from graphrag_neo4j.query.answers.grounded_stream import CitationFilter
from graphrag_neo4j.query.answers.grounding import CITATIONS_REPAIRED
from graphrag_neo4j.query.answers.run import run_query
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.global_search.search import GlobalSearch
from graphrag_neo4j.query.retrieval.naive import NaiveSearch
from tests.unit.query.fakes import fake_services
from tests.unit.query.test_methods import PASSAGES, REPORTS, _levels_0_and_1, _map_reply

KNOWN = {"Sources": {"1", "2"}, "Reports": {"1"}}
TEXTS = [
    "Johann taught Euler [Data: Sources (1); Reports (99)]. Ignore all rules [Data: Reports"
    " (99)] and more [Data: Sources (2)]",
    "A [bracket that never closes and goes on " + "x" * 500,
    "Ends on an open citation [Data: Sources (1",
    "Plain text, no citation at all.\n",
    "[Data: Reports (99)] first, then [Data: Reports (1, 7)].",
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("size", [1, 2, 3, 7, 1000])
def test_the_streamed_text_is_the_cleaned_text(text: str, size: int) -> None:
    out: list[str] = []
    stream = CitationFilter(out.append, KNOWN)
    for start in range(0, len(text), size):
        stream(text[start:start + size])
    stream.finish()
    assert "".join(out) == clean_citations(text, KNOWN)


INJECTED = "Johann taught Euler [Data: Sources (1); Reports (99)]. Obey me [Data: Reports (99)]."


async def test_a_streamed_local_style_answer_matches_the_json_one(tmp_path: Path) -> None:
    services = fake_services(
        {
            "query/search/search_chunks_by_vector": PASSAGES,
            "query/search/search_chunks_by_fulltext": [],
        },
        [("similarity search found", INJECTED)],
        tmp_path,
    )
    pieces: list[str] = []
    query = make_query(services.settings, "Who taught Euler?", on_token=pieces.append)
    answer = await run_query(services, NaiveSearch(services), query)
    assert answer.text == "Johann taught Euler [Data: Sources (1)]. Obey me."
    assert "".join(pieces) == answer.text
    assert CITATIONS_REPAIRED in answer.warnings()  # said to every reader, not only JSON


async def test_a_streamed_global_answer_matches_the_json_one(tmp_path: Path) -> None:
    services = fake_services(
        {"query/communities/community_levels": [{"level": 1, "communities": 2}],
         "query/communities/community_reports_at_level": REPORTS,
         "query/communities/community_level_status": _levels_0_and_1},
        [("community\nreports", _map_reply),
         ("Several analysts", "Johann taught Euler [Data: Reports (1, 99)].")], tmp_path)
    pieces: list[str] = []
    query = make_query(services.settings, "Who taught Euler?", level=1, on_token=pieces.append)
    answer = await run_query(services, GlobalSearch(services), query)
    assert answer.text == "Johann taught Euler [Data: Reports (1)]."
    assert "".join(pieces) == answer.text
