"""Jobs and uploads across server restarts: unfinished jobs resume, finished ones are reported,
an uploaded file goes with its document, and folders no document came from are cleaned up.

Before, queued jobs vanished when the server stopped and uploads were never deleted (37 MB
left behind in one run).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from graphrag_neo4j.api.app import create_app
from graphrag_neo4j.api.documents.job_file import JobFile
from graphrag_neo4j.api.runner import serving_in_thread
from graphrag_neo4j.engine import GraphRAG

pytestmark = pytest.mark.integration
NOTE = "Johann Bernoulli taught Leonhard Euler mathematics in Basel on Saturday afternoons."
LEFT = "Jakob Hermann wrote Phoronomia in Frankfurt about the motion of bodies in 1716."


def _finished(url: str, job_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        job: dict[str, Any] = httpx.get(f"{url}/v1/jobs/{job_id}", timeout=10).json()
        if job["status"] not in ("queued", "running"):
            return job
        assert time.monotonic() < deadline, f"job still {job['status']}: {job}"
        time.sleep(0.1)


def _uploads(rag: GraphRAG) -> Path:
    return rag.settings.cache_dir / "uploads"


def test_an_uploaded_file_is_removed_with_its_document(api_url: str, served_rag: GraphRAG) -> None:
    served_rag.llm.chat_model.rules.insert(0, (NOTE[:30], "<done/>"))  # type: ignore[attr-defined]
    sent = httpx.post(f"{api_url}/v1/documents", timeout=10,
                      json={"text": NOTE, "title": "Basel", "communities": False}).json()
    job = _finished(api_url, sent["id"])
    assert job["status"] == "succeeded", job
    folder = _uploads(served_rag) / job["id"]
    assert (folder / "document.jsonl").is_file()
    (document,) = job["result"]["documents"]
    deleted = httpx.delete(f"{api_url}/v1/documents", params={"id": document["id"],
                           "communities": False}, timeout=10).json()
    done = _finished(api_url, deleted["id"])
    assert done["status"] == "succeeded" and done["result"]["upload_removed"] is True
    assert not folder.exists()


def test_a_restart_resumes_unfinished_jobs_reports_finished_ones_and_drops_orphans(
    served_rag: GraphRAG,
) -> None:
    served_rag.llm.chat_model.rules.insert(0, (LEFT[:30], "<done/>"))  # type: ignore[attr-defined]
    uploads = _uploads(served_rag)
    # What a server killed with one upload queued and one job done leaves on disk.
    waiting = uploads / "a1b2c3d4e5f60718293a4b5c6d7e8f90"
    waiting.mkdir(parents=True)
    (waiting / "document.jsonl").write_text(json.dumps({"text": LEFT, "title": "Hermann"}))
    orphan = uploads / "0f9e8d7c6b5a49382716f5e4d3c2b1a0"
    orphan.mkdir()
    (orphan / "big.txt").write_text("left behind by a failed job " * 1000)
    jobs = JobFile.beside(uploads)
    jobs.save({"id": waiting.name, "kind": "index", "status": "running", "created_at": 1.0,
               "started_at": 2.0, "params": {"communities": False}})
    jobs.save({"id": "done-before", "kind": "delete", "status": "succeeded", "created_at": 0.5,
               "finished_at": 0.9, "result": {"deleted": {}}, "params": {"document_id": "x"}})
    with serving_in_thread(create_app(served_rag)) as url:
        resumed = _finished(url, waiting.name)
        listed = {j["id"]: j for j in httpx.get(f"{url}/v1/jobs", timeout=10).json()["data"]}
    assert resumed["status"] == "succeeded" and resumed["resumed"] is True, resumed
    assert [d["title"] for d in resumed["result"]["documents"]] == ["Hermann"]
    assert listed["done-before"]["status"] == "succeeded"
    assert waiting.is_dir(), "a folder a document came from stays"
    assert not orphan.exists(), "a folder no job waits for and no document came from goes"
    record = json.loads((jobs.folder / f"{waiting.name}.json").read_text())
    assert record["status"] == "succeeded"
