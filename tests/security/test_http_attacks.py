"""Replays attacks on a real `serve` process on loopback: cross-site writes, DNS rebinding, slow
clients, oversized options, careless input. Each leaves the graph as it was and valid clients
served."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import httpx
import pytest

from graphrag_neo4j.engine import GraphRAG
from tests.conftest import FIXTURES
from tests.nano_fakes import load_nano
from tests.security.conftest import KEY, Served

pytestmark = pytest.mark.integration
PLANTED = {"text": "planted", "title": "csrf"}
QUESTION = {"question": "Who taught Euler?", "method": "local", "retrieve_only": True}
MB3 = "x" * 3_000_000


def _documents(url: str) -> list[dict[str, Any]]:
    response = httpx.get(f"{url}/v1/documents", params={"limit": 1000}, timeout=10)
    assert response.status_code == 200, response.text
    return list(response.json()["data"])


def _jobs(url: str) -> list[dict[str, Any]]:
    return list(httpx.get(f"{url}/v1/jobs", timeout=10).json()["data"])


def _wait(url: str, job: dict[str, Any], timeout_s: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        state = httpx.get(f"{url}/v1/jobs/{job['id']}", timeout=10).json()
        if state["status"] in ("succeeded", "failed"):
            return dict(state)
        time.sleep(0.2)
    pytest.fail(f"job {job['id']} did not finish in {timeout_s} s")


def _message(response: httpx.Response) -> str:
    message = response.json()["error"]["message"]
    assert isinstance(message, str) and message.endswith(".") and "\n" not in message
    return message


def test_web_pages_cannot_write(served: Served) -> None:
    """Item 1: requests a page can send without a preflight are refused, nothing is indexed."""
    url = served.url
    before = _documents(url)
    evil = {"Origin": "https://evil.example"}
    plain = httpx.post(f"{url}/v1/documents", content=json.dumps(PLANTED),
                       headers={"Content-Type": "text/plain"}, timeout=10)
    plain_cross = httpx.post(f"{url}/v1/documents", content=json.dumps(PLANTED),
                             headers={"Content-Type": "text/plain", **evil}, timeout=10)
    form = httpx.post(f"{url}/v1/documents", headers=evil, timeout=10,
                      files={"file": ("planted.txt", b"planted", "text/plain")})
    urlencoded = httpx.post(f"{url}/v1/documents", data=PLANTED, timeout=10)
    cross_json = httpx.post(f"{url}/v1/documents", json=PLANTED, headers=evil, timeout=10)
    cross_delete = httpx.delete(f"{url}/v1/documents", params={"id": before[0]["id"]},
                                headers=evil, timeout=10)
    null_origin = httpx.post(f"{url}/v1/query", json=QUESTION, headers={"Origin": "null"},
                             timeout=10)
    assert plain.status_code == 415 and "application/json" in _message(plain)
    assert urlencoded.status_code == 415
    for refused in (plain_cross, form, cross_json, cross_delete, null_origin):
        assert refused.status_code == 403, refused.text
        assert "evil.example" in _message(refused) or "null" in _message(refused)
    same_origin = httpx.post(f"{url}/v1/query", json=QUESTION, timeout=30,
                             headers={"Origin": url})
    assert same_origin.status_code == 200, same_origin.text
    time.sleep(0.5)
    assert _documents(url) == before and _jobs(url) == []


def test_dns_rebinding_is_refused(served: Served) -> None:
    """Item 2: a request naming another host is not served, whatever the route."""
    url = served.url
    port = url.rsplit(":", 1)[1]
    before = _documents(url)
    rebound = {"Host": f"evil.example:{port}"}
    responses = [
        httpx.get(f"{url}/v1/documents", headers=rebound, timeout=10),
        httpx.post(f"{url}/v1/query", json=QUESTION, headers=rebound, timeout=10),
        httpx.delete(f"{url}/v1/documents", params={"id": before[0]["id"]}, headers=rebound,
                     timeout=10),
    ]
    for response in responses:
        assert response.status_code == 400, response.text
        assert "evil.example" in _message(response) and "server.allowed_hosts" in _message(
            response)
    by_name = httpx.get(f"{url}/v1/documents", headers={"Host": f"localhost:{port}"}, timeout=10)
    assert by_name.status_code == 200
    time.sleep(0.5)
    assert _documents(url) == before and _jobs(url) == []


def _slow_sender(url: str, headers: dict[str, str], stop: threading.Event,
                 replies: list[bytes]) -> None:
    """Sends a POST /v1/query body one byte a second until stopped; keeps the reply."""
    host, port = url.removeprefix("http://").split(":")
    body = json.dumps(QUESTION).encode()
    with socket.create_connection((host, int(port)), timeout=60) as sock:
        head = ["POST /v1/query HTTP/1.1", f"Host: {host}:{port}",
                "Content-Type: application/json", f"Content-Length: {len(body)}",
                *[f"{k}: {v}" for k, v in headers.items()], "", ""]
        sock.sendall("\r\n".join(head).encode())
        sock.settimeout(1.0)
        for byte in body:
            if stop.is_set():
                break
            try:
                sock.sendall(bytes([byte]))
                replies.append(sock.recv(4096))
                break  # answered before the body ended
            except TimeoutError:
                continue
            except OSError:
                break


def _attack(url: str, headers: dict[str, str], seconds: float) -> tuple[list[int], list[bytes]]:
    """Five slow senders; the statuses of valid queries sent meanwhile, and what they got."""
    stop = threading.Event()
    replies: list[bytes] = []
    senders = [threading.Thread(target=_slow_sender, args=(url, headers, stop, replies))
               for _ in range(5)]
    for sender in senders:
        sender.start()
    time.sleep(1.5)
    statuses = []
    auth = {"Authorization": f"Bearer {KEY}"}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        statuses.append(httpx.post(f"{url}/v1/query", json=QUESTION, headers=auth,
                                   timeout=30).status_code)
    stop.set()
    for sender in senders:
        sender.join(30)
    return statuses, replies


def test_slow_clients_with_a_wrong_key_hold_no_slot(keyed: Served) -> None:
    """Item 3: wrong-key senders are refused on their headers; valid clients keep getting 200."""
    statuses, replies = _attack(keyed.url, {"Authorization": "Bearer wrong"}, 4.0)
    assert statuses and set(statuses) == {200}, statuses
    assert len(replies) == 5 and all(b" 401 " in reply.split(b"\r\n")[0] for reply in replies)


def test_slow_bodies_hold_no_slot_and_time_out(served: Served) -> None:
    """Item 3: senders with a valid request but a crawling body wait outside the slots and
    get 408 after server.body_timeout_s."""
    statuses, replies = _attack(served.url, {}, 5.0)
    assert statuses and set(statuses) == {200}, statuses
    assert len(replies) == 5 and all(b" 408 " in reply.split(b"\r\n")[0] for reply in replies)


@pytest.mark.parametrize("body", [
    {**QUESTION, "retrieve_only": False, "options": {"response_type": MB3}},
    {**QUESTION, "retrieve_only": False, "options": {"history": [["user", MB3]]}},
    {**QUESTION, "options": {"local": {"response_type": MB3}}},
])
def test_oversized_options_and_history_are_refused(served: Served, body: dict[str, Any]) -> None:
    """Item 4: every text that could reach the model is bounded, not only the question."""
    response = httpx.post(f"{served.url}/v1/query", json=body, timeout=30)
    assert response.status_code == 413, response.text[:300]
    assert "server.max_" in _message(response)


def test_oversized_chat_history_is_refused(served: Served) -> None:
    messages = [{"role": "user", "content": MB3}, {"role": "assistant", "content": "ok"},
                {"role": "user", "content": "Who taught Euler?"}]
    for last in ("Who taught Euler?", "### Task:\nSuggest a concise title"):
        messages[-1]["content"] = last
        response = httpx.post(f"{served.url}/v1/chat/completions", timeout=30,
                              json={"model": "graphrag-local", "messages": messages})
        assert response.status_code == 413, response.text[:300]
        assert "server.max_history_chars" in _message(response)


@pytest.mark.parametrize(("path", "params", "body"), [
    ("/v1/query", None, {**QUESTION, "options": {"mentions": 5}}),
    ("/v1/query", None, {**QUESTION, "options": {"local.top_chunks": -1}}),
    ("/v1/query", None, {**QUESTION, "options": {"local": {"top_chunks": 10**30}}}),
    ("/v1/query", None, {**QUESTION, "options": {"response_type": {"a": 1}}}),
    ("/v1/query", None, {**QUESTION, "options": {"cypher.max_rows": 1_000_000,
                                                 "cypher.context_tokens": 1_000_000}}),
    ("/v1/query", None, {**QUESTION, "options": {"local.context_tokens": 1_000_000}}),
    ("/v1/query", None, {**QUESTION, "options": {"cypher": {"timeout_s": 1_000_000}}}),
    ("/v1/query", None, {**QUESTION, "options": {"cypher.allowed_procedures": ["db.labels"]}}),
    ("/v1/documents", {"limit": -1}, None),
    ("/v1/documents", {"limit": 10**30}, None),
    ("/v1/documents", {"skip": -5}, None),
])
def test_bad_values_are_400_and_keep_the_connection(
    served: Served, path: str, params: dict[str, Any] | None, body: dict[str, Any] | None
) -> None:
    """Item 6: a bad value is the client's mistake (400, one sentence), never a 500 that drops
    the keep-alive connection."""
    with httpx.Client(base_url=served.url, timeout=30) as client:
        response = (client.get(path, params=params) if body is None
                    else client.post(path, json=body))
        assert response.status_code == 400, response.text[:300]
        _message(response)
        assert response.headers.get("connection", "").lower() != "close"
        assert client.get("/v1/models").status_code == 200


def test_a_long_mentions_list_is_refused_at_once(served: Served) -> None:
    """5,000 mentions froze the whole server, /health included, for two minutes."""
    body = {"question": "Who is Alice?", "method": "hops", "retrieve_only": True,
            "options": {"mentions": ["x"] * 5000}}
    started = time.monotonic()
    response = httpx.post(f"{served.url}/v1/query", json=body, timeout=120)
    took = time.monotonic() - started
    assert response.status_code == 400, response.text[:300]
    assert "search.hops.max_mentions" in _message(response)
    assert took < 10
    assert httpx.get(f"{served.url}/health", timeout=10).status_code == 200


def test_a_key_in_the_url_is_not_logged(served: Served) -> None:
    """Item 6: only the header carries a key; a key put in the URL stays out of the log."""
    secret = "url-secret-0123456789abcdef"
    response = httpx.get(f"{served.url}/v1/models", params={"api_key": secret}, timeout=10)
    assert response.status_code == 200
    time.sleep(0.5)
    log = served.log.read_text()
    assert "GET /v1/models" in log and secret not in log and "api_key" not in log


def test_titles_stay_verbatim_and_any_id_can_be_deleted(
    served: Served, served_rag: GraphRAG
) -> None:
    """Item 6: a JSON title is data, not a file name; an id with `/` is deleted over HTTP."""
    url = served.url
    passages = [p["passage"] for p in load_nano(FIXTURES)["passages"]]
    titled = []
    for title, passage in zip(("AC/DC: the story", "Q3 report.v2"), passages, strict=False):
        posted = httpx.post(f"{url}/v1/documents", timeout=30, json={
            "text": passage + "\n\nCopied.", "title": title, "communities": False})
        assert posted.status_code == 202, posted.text
        done = _wait(url, posted.json())
        assert done["status"] == "succeeded", done
        titled.append(done["result"]["documents"][0])
    assert [d["title"] for d in titled] == ["AC/DC: the story", "Q3 report.v2"]
    record = json.dumps({"id": "reports/2024/q3", "text": passages[0] + "\n\nFiled."})
    uploaded = httpx.post(f"{url}/v1/documents", timeout=30, data={"communities": "false"},
                          files={"file": ("records.jsonl", record.encode(), "text/plain")})
    assert _wait(url, uploaded.json())["status"] == "succeeded"
    deletions = [
        httpx.delete(f"{url}/v1/documents/reports/2024/q3", params={"communities": "false"},
                     timeout=30),
        httpx.delete(f"{url}/v1/documents", params={"id": titled[0]["id"],
                                                    "communities": "false"}, timeout=30),
        httpx.delete(f"{url}/v1/documents/{titled[1]['id']}", params={"communities": "false"},
                     timeout=30),
    ]
    for deletion in deletions:
        assert deletion.status_code == 202, deletion.text
        assert _wait(url, deletion.json())["status"] == "succeeded"
    left = {d["id"] for d in _documents(url)}
    assert not left & {"reports/2024/q3", titled[0]["id"], titled[1]["id"]}


@pytest.mark.parametrize("sent", [b"", b"GET /v1/models HTTP/1.1\r\nHo"])
def test_idle_and_half_sent_connections_are_closed(served: Served, sent: bytes) -> None:
    """A connection that sends no request, or part of a head, is closed after the body
    timeout (3 s here) instead of being held open forever."""
    host, port = served.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=20) as sock:
        sock.sendall(sent)
        started = time.monotonic()
        assert sock.recv(1024) == b""  # closed by the server
        assert time.monotonic() - started < 12
