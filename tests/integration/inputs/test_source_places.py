"""Page and section citations, checked against the files: for 20 answers over a PDF and a
real HTML manual, every cited passage lies on its cited pages or in its cited section; a
graph indexed before places were recorded still answers; the sync API and the LangChain
retriever work inside a running event loop, from threads and under `.batch()`."""

from __future__ import annotations

import asyncio
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.documents import Document
from neo4j import GraphDatabase
from pypdf import PdfReader

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.input.loaders import load_documents
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.query.base import Answer
from graphrag_neo4j.query.retrieval.langchain_retriever import GraphRAGRetriever
from graphrag_neo4j.runtime.resources import split_statements
from graphrag_neo4j.settings import Settings
from tests.conftest import FIXTURES
from tests.office_files import pdf_bytes

PDF_PAGES = [
    "Harbor copies a folder to a backup disk every night at two o'clock.",
    "To restore a file, run harbor restore with the file's path and a date.",
    "Harbor keeps seven daily, four weekly and twelve monthly snapshots.",
    "Encryption uses a passphrase stored in the keyring, never on the backup disk.",
    "A snapshot that fails its checksum is marked damaged and copied again.",
    "The harbor prune command deletes snapshots older than the retention rules allow.",
    "Bandwidth limits are set in kilobytes per second with the throttle option.",
    "Harbor writes its log to the journal; harbor status shows the last five runs.",
    "Excluded paths are listed one per line in the ignore file of the folder.",
    "To move backups to a new disk, run harbor migrate with the old and new mount points.",
]
QUESTIONS = [
    # the PDF, one question a page
    "When does Harbor copy the folder?", "How do I restore a file?",
    "How many monthly snapshots are kept?", "Where is the encryption passphrase stored?",
    "What happens to a snapshot that fails its checksum?", "What does harbor prune delete?",
    "How are bandwidth limits set?", "Where does Harbor write its log?",
    "How are excluded paths listed?", "How do I move backups to a new disk?",
    # the aptitude manual
    "How do I open the aptitude menus?", "What does Mark Upgradable do?",
    "What does the Undo menu hold?", "How do I include a double quote in a search string?",
    "What does a tilde before a parenthesis do in a search?",
    "Where is the aptitude development mailing list?", "How do I get the aptitude source code?",
    "What does aptitude-create-state-bundle do?", "Which file format does the state bundle use?",
    "How do I submit patches to aptitude?",
]
CITING_ANSWER = "From the documents. [Data: Sources (1, 2, 3)]"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("places") / "docs"
    shutil.copytree(FIXTURES / "manual", folder)
    (folder / "harbor.pdf").write_bytes(pdf_bytes(PDF_PAGES, "Harbor manual"))
    return folder


@pytest.fixture(scope="module")
def rag(session_store: Store, settings: Settings, corpus: Path,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphRAG]:
    """The corpus indexed by fast extraction, with a chat model that cites three passages."""
    session_store.run_autocommit("database/delete_all")
    cache = tmp_path_factory.mktemp("places-cache")
    model = FakeChatModel(rules=[(re.compile(".", re.S), CITING_ANSWER)])
    own = settings.model_copy(update={"cache_dir": cache})
    with GraphRAG(own, llm=model) as engine:
        stats, loaded = engine.index([corpus], method="fast")
        assert not loaded.skipped and stats.documents == 6
        yield engine


def _page_texts(path: Path) -> list[str]:
    return [" ".join((page.extract_text() or "").split()) for page in PdfReader(path).pages]


def _in_section(text: str, passage_start: int, section: str) -> bool:
    """Whether a passage starting at `passage_start` lies under the section's last heading,
    read from the Markdown itself: the nearest heading above it has that name."""
    headings, fenced, at = [], False, 0
    for line in text.splitlines(keepends=True):
        if line.startswith(("```", "~~~")):  # a "#" line in a code block is no heading
            fenced = not fenced
        elif not fenced and (match := re.match(r"#{1,6} +(.+)$", line.rstrip("\n"))):
            headings.append((at, " ".join(re.sub(r"[*_`]", "", match.group(1)).split())))
        at += len(line)
    above = [name for start, name in headings if start <= passage_start]
    return bool(above) and above[-1] == section.split(" > ")[-1]


def check_place(row: dict[str, Any], corpus: Path) -> str:
    """Assert the cited page or section holds the passage; the place as the legend shows it."""
    path = Path(row["path"])
    passage = " ".join(row["text"].split())
    if path.suffix == ".pdf":
        pages = _page_texts(corpus / path.name)
        held = " ".join(pages[row["page_start"] - 1 : row["page_end"]])
        assert passage in held, (row["where"], passage)
    else:
        [document] = load_documents([corpus / path.name]).documents
        assert document.text[row["char_start"] : row["char_end"]] == row["text"]
        assert _in_section(document.text, row["char_start"], row["section"]), row
    return str(row["where"])


def test_every_cited_page_or_section_holds_its_passage(rag: GraphRAG, corpus: Path) -> None:
    cited = 0
    for question in QUESTIONS:
        answer = rag.query(question, method="naive")
        sources = [c for c in answer.citations if c["table"] == "Sources"]
        assert sources, question
        rows = {row["ref"]: row for row in answer.sources["Sources"]}
        for citation in sources:
            where = check_place(rows[citation["ref"]], corpus)
            assert where == citation["where"]
            assert re.fullmatch(r"harbor\.pdf pp?\. \d+(-\d+)?|\w+\.html, .+", where), where
            cited += 1
    assert cited >= 2 * len(QUESTIONS)


def test_a_graph_indexed_before_places_answers_and_gets_them_on_the_next_run(
    rag: GraphRAG, settings: Settings, corpus: Path
) -> None:
    script = (FIXTURES / "cypher" / "chunks_before_places.cypher").read_text(encoding="utf-8")
    auth = (settings.neo4j.user, settings.neo4j.secret())
    with GraphDatabase.driver(settings.neo4j.uri, auth=auth) as driver, driver.session() as session:
        for statement in split_statements(script):
            session.run(statement).consume()
    answer = rag.query(QUESTIONS[1], method="naive")
    assert answer.citations and all(c["where"] for c in answer.citations)
    assert all(c.get("page_start") is None for c in answer.citations)
    stats, _ = rag.index([corpus], method="fast")  # unchanged documents: only places written
    assert stats.unchanged_documents == 6 and stats.documents == 0
    again = rag.query(QUESTIONS[1], method="naive")
    assert again.citations and all(
        c.get("char_start") is not None and (c.get("page_start") or c.get("section"))
        for c in again.citations)


def _check_documents(documents: list[Document]) -> None:
    assert documents and len(documents) <= 3
    for document in documents:
        meta = document.metadata
        assert meta["method"] == "naive" and meta["chunk_id"] == document.id
        assert meta["where"] and meta["document"] and document.page_content


async def test_sync_api_and_retriever_inside_a_running_loop_and_under_batch(
    rag: GraphRAG,
) -> None:
    asyncio.get_running_loop()  # this test body runs inside an event loop, as Jupyter does
    answer: Answer = rag.retrieve(QUESTIONS[0], method="naive")
    assert answer.sources["Sources"]
    retriever = GraphRAGRetriever(rag=rag, method="naive", k=3)
    _check_documents(retriever.invoke(QUESTIONS[0]))
    for documents in retriever.batch(QUESTIONS[:4]):  # threads, each calling the sync API
        _check_documents(documents)
    for documents in await retriever.abatch(QUESTIONS[4:6]):
        _check_documents(documents)
    assert (await retriever.ainvoke(QUESTIONS[2], k=1))[0].metadata["rank"] == 1
