"""Workspaces over HTTP with two keys: each key reads, uploads and deletes only in its own
workspace; another workspace's document or job is a 404 like a missing one; the admin key
manages workspaces and keys, stored hashed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from graphrag_neo4j.api.app import create_app
from graphrag_neo4j.api.runner import serving_in_thread
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.database.workspaces.keys import KEYS_FILE
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.settings import Settings
from tests.integration.workspaces.workspace_pair import OWN_WORD, index_pair, workspace_rag

pytestmark = pytest.mark.integration
ADMIN = "admin-key-0123456789abcdef"
BETA_WORDS = ("Duckburg", "Donald", "Klondike")
ALPHA_WORDS = ("London", "Cratchit")


def _echo(prompt: str) -> str:
    """The model repeats its prompt: whatever context a query read comes back in the reply."""
    return prompt[-6000:]


@pytest.fixture(scope="module")
def server(session_store: Store, settings: Settings,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The default workspace's server, alpha and beta indexed beside it; its URL and cache."""
    session_store.run_autocommit("database/delete_all")
    root = tmp_path_factory.mktemp("api-workspaces")
    index_pair(settings, root)
    keyed = settings.model_copy(update={"server": settings.server.model_copy(
        update={"api_key": SecretStr(ADMIN)})})
    with workspace_rag(keyed, root, "", FakeChatModel(rules=[("", _echo)])) as rag, \
            serving_in_thread(create_app(rag)) as url:
        yield url, root / "cache"


def _call(url: str, key: str, method: str, path: str, **kwargs: Any) -> httpx.Response:
    return httpx.request(method, f"{url}{path}", headers={"Authorization": f"Bearer {key}"},
                         timeout=60, **kwargs)


@pytest.fixture(scope="module")
def keys(server: tuple[str, Path]) -> dict[str, str]:
    url, _ = server
    made = {}
    for name in ("alpha", "beta"):
        assert _call(url, ADMIN, "POST", "/v1/admin/workspaces", json={"name": name}
                     ).status_code == 201
        made[name] = _call(url, ADMIN, "POST", "/v1/admin/keys", json={"workspace": name}
                           ).json()["key"]
    return made


def _finished(url: str, key: str, job: dict[str, Any]) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while job["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, job
        time.sleep(0.2)
        job = _call(url, key, "GET", f"/v1/jobs/{job['id']}").json()
    return job


def test_keys_are_stored_hashed_and_only_the_admin_manages(
    server: tuple[str, Path], keys: dict[str, str]
) -> None:
    url, cache = server
    stored = (cache / KEYS_FILE).read_text(encoding="utf-8")
    assert keys["alpha"] not in stored and keys["beta"] not in stored
    assert (cache / KEYS_FILE).stat().st_mode & 0o077 == 0
    listed = _call(url, ADMIN, "GET", "/v1/admin/workspaces").json()["data"]
    rows = {row["name"]: row for row in listed}
    assert rows["alpha"]["documents"] == rows["beta"]["documents"] == 1
    assert rows["alpha"]["keys"] == 1 and rows["default"]["documents"] == 0
    for path in ("/v1/admin/workspaces", "/v1/admin/keys"):
        assert _call(url, keys["alpha"], "GET", path).status_code == 403
    assert _call(url, "not-a-key", "GET", "/v1/documents").status_code == 401
    assert "hash" not in str(_call(url, ADMIN, "GET", "/v1/admin/keys").json())


def test_each_key_reads_only_its_workspace(server: tuple[str, Path],
                                           keys: dict[str, str]) -> None:
    url, _ = server
    for name, own, other in (("alpha", ALPHA_WORDS, BETA_WORDS),
                             ("beta", BETA_WORDS, ALPHA_WORDS)):
        body = {"question": "Where did Scrooge live?", "method": "naive", "retrieve_only": True}
        found = str(_call(url, keys[name], "POST", "/v1/query", json=body).json())
        assert OWN_WORD[name] in found and not [w for w in other if w in found]
        chat = {"model": "graphrag-local", "messages": [
            {"role": "user", "content": "Where did Scrooge live and whom did he pay?"}]}
        reply = str(_call(url, keys[name], "POST", "/v1/chat/completions", json=chat).json())
        assert "Scrooge" in reply and not [w for w in other if w in reply], reply[:300]
        assert own[0] in reply or own[1] in reply


def test_another_workspaces_documents_and_jobs_are_404_like_missing_ones(
    server: tuple[str, Path], keys: dict[str, str]
) -> None:
    url, _ = server
    (beta_doc,) = _call(url, keys["beta"], "GET", "/v1/documents").json()["data"]
    (alpha_doc,) = _call(url, keys["alpha"], "GET", "/v1/documents").json()["data"]
    assert "Duckburg" not in str(alpha_doc)
    foreign = _call(url, keys["alpha"], "DELETE", f"/v1/documents/{beta_doc['id']}")
    missing = _call(url, keys["alpha"], "DELETE", "/v1/documents/0123456789abcdef")
    assert foreign.status_code == missing.status_code == 404
    assert foreign.json()["error"]["message"].replace(beta_doc["id"], "X") == \
        missing.json()["error"]["message"].replace("0123456789abcdef", "X")
    upload = _call(url, keys["beta"], "POST", "/v1/documents",
                   json={"text": "Scrooge bought a bakery in Duckburg harbour."}).json()
    job_foreign = _call(url, keys["alpha"], "GET", f"/v1/jobs/{upload['id']}")
    job_missing = _call(url, keys["alpha"], "GET", "/v1/jobs/ffffffffffffffffffffffffffffffff")
    assert job_foreign.status_code == job_missing.status_code == 404
    assert upload["id"] not in str(_call(url, keys["alpha"], "GET", "/v1/jobs").json())
    assert _finished(url, keys["beta"], upload)["status"] == "succeeded"
    assert len(_call(url, keys["beta"], "GET", "/v1/documents").json()["data"]) == 2
    assert len(_call(url, keys["alpha"], "GET", "/v1/documents").json()["data"]) == 1
    assert _call(url, ADMIN, "GET", "/v1/documents").json()["data"] == []
    # The beta document is still there after alpha's attempt; beta can delete it.
    job = _call(url, keys["beta"], "DELETE", f"/v1/documents/{beta_doc['id']}").json()
    assert _finished(url, keys["beta"], job)["status"] == "succeeded"


def test_deleting_a_workspace_revokes_its_keys(server: tuple[str, Path],
                                               keys: dict[str, str]) -> None:
    url, _ = server
    gone = _call(url, ADMIN, "DELETE", "/v1/admin/workspaces/beta").json()
    assert gone["keys_deleted"] == 1
    assert _call(url, keys["beta"], "GET", "/v1/documents").status_code == 401
    assert _call(url, keys["alpha"], "GET", "/v1/documents").status_code == 200
    again = _call(url, ADMIN, "DELETE", "/v1/admin/workspaces/beta").json()
    assert again["keys_deleted"] == 0 and not any(again["deleted"].values())
