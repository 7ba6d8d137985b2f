"""Documents over HTTP: upload (JSON text or a file) -> job -> the query finds it -> delete."""

from __future__ import annotations

import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.input.formats.registry import SUPPORTED
from graphrag_neo4j.query.base import with_search_settings
from graphrag_neo4j.settings import Settings
from tests.api_fakes import index_nano, nano_engine
from tests.conftest import FIXTURES

pytestmark = pytest.mark.integration
NOTE = ("Leonhard Euler kept a notebook of river crossings in Königsberg. The seven bridges"
        " puzzle in that notebook led him to found graph theory in 1736.")
POLL_TIMEOUT_S = 60.0


@pytest.fixture(scope="module")
def served_rag(
    session_store: Store, settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[GraphRAG]:
    """The nano engine of conftest, whose settings let a query read ten passages (a query's
    options may only lower the settings' budgets)."""
    session_store.run_autocommit("database/delete_all")
    root = tmp_path_factory.mktemp("served")
    wide = with_search_settings(settings, {"naive.top_k": 10})
    with nano_engine(wide, FIXTURES, root / "cache") as rag:
        index_nano(rag, FIXTURES, root / "docs")
        yield rag


def _finished(api_url: str, job: dict[str, Any]) -> dict[str, Any]:
    deadline = time.monotonic() + POLL_TIMEOUT_S
    while job["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, f"job still {job['status']}: {job}"
        time.sleep(0.1)
        job = httpx.get(f"{api_url}/v1/jobs/{job['id']}", timeout=10).json()
    return job


def _sources(api_url: str, question: str) -> list[str]:
    body = {"question": question, "method": "naive", "retrieve_only": True,
            "options": {"naive.top_k": 10}}
    response = httpx.post(f"{api_url}/v1/query", json=body, timeout=30)
    return [row["text"] for row in response.json()["context"]["tables"].get("Sources", [])]


def _document_ids(api_url: str) -> set[str]:
    listing = httpx.get(f"{api_url}/v1/documents", params={"limit": 100}, timeout=10).json()
    return {row["id"] for row in listing["data"]}


def test_text_upload_is_indexed_found_then_deleted(api_url: str, served_rag: GraphRAG) -> None:
    served_rag.llm.chat_model.rules.insert(  # type: ignore[attr-defined]
        0, ("Leonhard Euler kept a notebook", "<done/>"))
    response = httpx.post(f"{api_url}/v1/documents", timeout=10,
                          json={"text": NOTE, "title": "Euler notebook", "communities": False})
    assert response.status_code == 202 and response.headers["location"].endswith(
        response.json()["id"])
    job = _finished(api_url, response.json())
    assert job["status"] == "succeeded", job
    (document,) = job["result"]["documents"]
    assert document["title"] == "Euler notebook"
    assert {p["stage"] for p in job["progress"]} >= {"embed + write chunks"}
    assert all(p["completed"] == p["total"] for p in job["progress"])
    assert document["id"] in _document_ids(api_url)
    assert NOTE in _sources(api_url, "Who founded graph theory with the seven bridges?")

    deleted = httpx.delete(f"{api_url}/v1/documents/{document['id']}",
                           params={"communities": False}, timeout=10)
    assert deleted.status_code == 202
    assert _finished(api_url, deleted.json())["status"] == "succeeded"
    assert document["id"] not in _document_ids(api_url)
    assert NOTE not in _sources(api_url, "Who founded graph theory with the seven bridges?")


def test_file_upload_lands_in_a_private_folder(
    api_url: str, served_rag: GraphRAG, tmp_path: Path
) -> None:
    text = "Daniel Bernoulli wrote Hydrodynamica in Strasbourg in 1738 about fluid pressure."
    served_rag.llm.chat_model.rules.insert(0, (text[:40], "<done/>"))  # type: ignore[attr-defined]
    files = {"file": ("../../hydro notes.md", text.encode(), "text/markdown")}
    response = httpx.post(f"{api_url}/v1/documents", files=files,
                          data={"communities": "false"}, timeout=10)
    job = _finished(api_url, response.json())
    assert job["status"] == "succeeded", job
    folder = served_rag.settings.cache_dir / "uploads" / job["id"]
    (saved,) = folder.iterdir()
    assert saved.name == "hydro notes.md" and saved.read_text() == text
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert job["result"]["documents"][0]["id"] in _document_ids(api_url)


def test_bad_uploads_are_refused_in_one_sentence(api_url: str) -> None:
    exe = httpx.post(f"{api_url}/v1/documents", timeout=10,
                     files={"file": ("tool.exe", b"MZ\x00\x01", "application/octet-stream")})
    assert exe.status_code == 400 and SUPPORTED in exe.json()["error"]["message"]
    empty = httpx.post(f"{api_url}/v1/documents", json={"text": ""}, timeout=10)
    assert empty.status_code == 400 and "text" in empty.json()["error"]["message"]
    missing = httpx.delete(f"{api_url}/v1/documents/no-such-id", timeout=10)
    assert missing.status_code == 404 and "GET /v1/documents" in missing.json()["error"]["message"]
    assert httpx.get(f"{api_url}/v1/jobs/nope", timeout=10).status_code == 404
    nowhere = httpx.get(f"{api_url}/v2/nowhere", timeout=10)
    assert nowhere.status_code == 404 and "see /docs" in nowhere.json()["error"]["message"]


def test_a_failed_job_reports_its_reason(api_url: str) -> None:
    files = {"file": ("rows.jsonl", b'{"body": "no text field"}\n', "application/jsonl")}
    job = _finished(api_url, httpx.post(f"{api_url}/v1/documents", files=files,
                                        data={"communities": "false"}, timeout=10).json())
    assert job["status"] == "failed" and job["error"].startswith("Nothing to index")
